/**
 * The per-site secret that signs link tokens: the host's own (an option), or one generated on first use and
 * kept in storage so links keep working across restarts and across processes sharing the store.
 */
import { randomBytes } from 'node:crypto';
import { isStorageError, type StoragePort } from '../../../ports/storage.js';

export const MAILING_SETTINGS_COLLECTION = 'mailing_settings';
const SECRET_RECORD_ID = 1;

/** Returns a function that resolves the secret once and then answers from memory. */
export function siteSecret(storage: StoragePort, configured: string | undefined): () => Promise<string> {
  if (configured !== undefined) {
    if (configured.length < 16) throw new Error('The mailing secret must be at least 16 characters long.');
    return async () => configured;
  }
  let pending: Promise<string> | null = null;
  return () => {
    pending ??= loadOrCreate(storage).catch((error: unknown) => {
      pending = null;
      throw error;
    });
    return pending;
  };
}

/** The secret kept in storage, or null when there is none. */
export async function storedSecret(storage: StoragePort): Promise<string | null> {
  const stored = await storage.get(MAILING_SETTINGS_COLLECTION, SECRET_RECORD_ID);
  return typeof stored?.token_secret === 'string' ? stored.token_secret : null;
}

async function loadOrCreate(storage: StoragePort): Promise<string> {
  const stored = await storedSecret(storage);
  if (stored !== null) return stored;
  const secret = randomBytes(32).toString('base64url');
  try {
    await storage.insert(MAILING_SETTINGS_COLLECTION, { id: SECRET_RECORD_ID, token_secret: secret });
    return secret;
  } catch (error) {
    // Another process stored one first: use theirs.
    if (!isStorageError(error, 'duplicate_id')) throw error;
    const winner = await storage.get(MAILING_SETTINGS_COLLECTION, SECRET_RECORD_ID);
    if (typeof winner?.token_secret !== 'string') throw error;
    return winner.token_secret;
  }
}
