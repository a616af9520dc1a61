/**
 * The blob port: stored files (uploads and their generated sizes) addressed by relative keys such as
 * `2024/05/photo-300x200.jpg`. Every store checks keys with `assertBlobKey`, so a key can never name a place
 * outside the store (no `..`, no absolute paths, no backslashes, no control characters).
 */

export interface BlobInfo {
  key: string;
  /** Bytes. */
  size: number;
  contentType: string;
}

export interface StoredBlob extends BlobInfo {
  bytes: Uint8Array;
}

export interface PutOptions {
  contentType: string;
}

export interface BlobStore {
  /** Writes (or replaces) a blob; a reader never sees half of it. */
  put(key: string, bytes: Uint8Array, options: PutOptions): Promise<void>;
  /**
   * Writes a blob only when none has the key, failing with `BlobExistsError` otherwise (the existing blob is
   * left as it was). Where the store can, the check and the write are one step, so two writers of one key never
   * both succeed. Optional for a host's own store; uploads reserve their names in the storage port either way.
   */
  create?(key: string, bytes: Uint8Array, options: PutOptions): Promise<void>;
  /** The blob, or null when there is none. */
  get(key: string): Promise<StoredBlob | null>;
  exists(key: string): Promise<boolean>;
  /** Resolves to whether a blob was removed. */
  remove(key: string): Promise<boolean>;
  /**
   * Blobs whose key starts with `prefix` (plain string prefix, so `2024/05/pho` finds `2024/05/photo.jpg`),
   * sorted by key.
   */
  list(prefix: string): Promise<BlobInfo[]>;
}

/** What `create` throws when the key is taken. */
export class BlobExistsError extends Error {
  readonly code = 'blob_exists';

  constructor(key: string) {
    super(`A blob already exists at ${JSON.stringify(key)}`);
    this.name = 'BlobExistsError';
  }
}

/** What stores throw for a key that is not a safe relative path. */
export class InvalidBlobKeyError extends Error {
  readonly code = 'invalid_blob_key';

  constructor(key: string) {
    super(`Not a valid blob key: ${JSON.stringify(key)}`);
    this.name = 'InvalidBlobKeyError';
  }
}

// eslint-disable-next-line no-control-regex
const FORBIDDEN_CHARACTERS = /[\u0000-\u001f\u007f\\:*?"<>|]/;
const MAX_KEY_LENGTH = 1024;

/** Whether a key is a relative `/`-separated path with no empty, `.` or `..` segment and no unsafe character. */
export function isValidBlobKey(key: string): boolean {
  if (typeof key !== 'string' || key === '' || key.length > MAX_KEY_LENGTH) return false;
  if (FORBIDDEN_CHARACTERS.test(key)) return false;
  return key.split('/').every((segment) => segment !== '' && segment !== '.' && segment !== '..');
}

export function assertBlobKey(key: string): string {
  if (!isValidBlobKey(key)) throw new InvalidBlobKeyError(key);
  return key;
}

/** A list prefix may end with `/` or be empty; every complete segment must be valid. */
export function assertBlobPrefix(prefix: string): string {
  if (prefix === '') return prefix;
  const trimmed = prefix.endsWith('/') ? prefix.slice(0, -1) : prefix;
  if (!isValidBlobKey(trimmed)) throw new InvalidBlobKeyError(prefix);
  return prefix;
}
