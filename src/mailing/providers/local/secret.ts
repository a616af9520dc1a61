/**
 * The per-site secret that signs link tokens: the host's own (an option), or one generated on first use and
 * kept in storage so links keep working across restarts and across processes sharing the store.
 */
import { MIN_SITE_SECRET_LENGTH, storedOrNewSecret } from '../../../auth/index.js';
import type { StoragePort } from '../../../ports/storage.js';

export const MAILING_SETTINGS_COLLECTION = 'mailing_settings';
const SECRET_RECORD_ID = 1;

/** Returns a function that resolves the secret once and then answers from memory. */
export function siteSecret(storage: StoragePort, configured: string | undefined): () => Promise<string> {
  if (configured !== undefined) {
    if (configured.length < MIN_SITE_SECRET_LENGTH) throw new Error(`The mailing secret must be at least ${MIN_SITE_SECRET_LENGTH} characters long.`);
    return async () => configured;
  }
  return loadedOnce(() => storedOrNewSecret(storage, MAILING_SETTINGS_COLLECTION, SECRET_RECORD_ID, 'token_secret'));
}

/** `load` run on the first call and its promise kept for the next ones, unless it failed: then it runs again. */
export function loadedOnce<T>(load: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | null = null;
  return () => {
    pending ??= load().catch((error: unknown) => {
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
