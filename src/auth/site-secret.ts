/**
 * The site secret: one value every keyed token of the site is signed with (quiz answers, posted-data hashes,
 * preview links, mailing-list links, remembered credentials), so any process of a site verifies what another
 * issued. Each use gets its own key, derived with HKDF-SHA256 under a purpose name, so no two uses share a key
 * and a token made for one purpose is worthless for another.
 *
 * The secret is the host's (`createCms({ secret })`, `quire serve --secret`) or, without one, 32 random bytes
 * stored once in the store on first use: processes sharing the store race to create it, and the losers read
 * the winner's.
 */
import { hkdfSync, randomBytes } from 'node:crypto';
import { isStorageError, type StoragePort } from '../ports/storage.js';

export const SITE_SECRET_COLLECTION = 'site_secret';
const SECRET_RECORD_ID = 1;
/** The shortest secret accepted from a host. */
export const MIN_SITE_SECRET_LENGTH = 16;
const KEY_BYTES = 32;
const SALT = 'quire site secret';

/** A 32-byte key for `purpose` (`forms/wpcf7_quiz`, `preview`, ...) derived from `secret` with HKDF-SHA256. */
export function deriveKey(secret: string, purpose: string): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, SALT, purpose, KEY_BYTES));
}

export interface SiteSecret {
  /** Resolves once the secret is known (given, loaded, or created); call before `key`. */
  ready(): Promise<void>;
  /** The key for `purpose`; throws when `ready` has not resolved yet. */
  key(purpose: string): Buffer;
}

/** Whether `secret` is long enough to be a site secret; the message says why not. */
export function siteSecretProblem(secret: string): string | null {
  return secret.length >= MIN_SITE_SECRET_LENGTH ? null : `The site secret must be at least ${MIN_SITE_SECRET_LENGTH} characters long.`;
}

/** The site secret: `configured` when given (checked), else the one kept in `storage`. */
export function createSiteSecret(storage: StoragePort, configured?: string): SiteSecret {
  if (configured !== undefined) {
    const problem = siteSecretProblem(configured);
    if (problem) throw new Error(problem);
  }
  let secret: string | undefined = configured;
  let pending: Promise<void> | null = null;
  const keys = new Map<string, Buffer>();
  return {
    ready() {
      if (secret !== undefined) return Promise.resolve();
      pending ??= storedOrNewSecret(storage, SITE_SECRET_COLLECTION, SECRET_RECORD_ID, 'secret').then((found) => {
        secret = found;
      }, (error: unknown) => {
        pending = null;
        throw error;
      });
      return pending;
    },
    key(purpose) {
      if (secret === undefined) throw new Error('The site secret is not loaded yet: await ready() first.');
      let key = keys.get(purpose);
      if (key === undefined) keys.set(purpose, key = deriveKey(secret, purpose));
      return key;
    },
  };
}

/**
 * The secret kept as `field` of the record `id` in `collection`, or 32 random bytes stored there now: processes
 * sharing the store race to create it, and the losers read the winner's.
 */
export async function storedOrNewSecret(storage: StoragePort, collection: string, id: number, field: string): Promise<string> {
  const stored = await storage.get(collection, id);
  if (typeof stored?.[field] === 'string') return stored[field];
  const secret = randomBytes(32).toString('base64url');
  try {
    await storage.insert(collection, { id, [field]: secret });
    return secret;
  } catch (error) {
    // Another process stored one first: use theirs.
    if (!isStorageError(error, 'duplicate_id')) throw error;
    const winner = await storage.get(collection, id);
    if (typeof winner?.[field] !== 'string') throw error;
    return winner[field];
  }
}
