import { assertBlobKey, assertBlobPrefix, BlobExistsError, type BlobInfo, type BlobStore, type StoredBlob } from '../../ports/blobs.js';

/** Blobs in a map: the default store, and the one tests use. Bytes are copied in and out. */
export function createMemoryBlobStore(): BlobStore & { readonly size: number } {
  const blobs = new Map<string, StoredBlob>();
  return {
    get size() {
      return blobs.size;
    },
    async put(key, bytes, options) {
      assertBlobKey(key);
      blobs.set(key, { key, size: bytes.byteLength, contentType: options.contentType, bytes: bytes.slice() });
    },
    async create(key, bytes, options) {
      assertBlobKey(key);
      if (blobs.has(key)) throw new BlobExistsError(key);
      blobs.set(key, { key, size: bytes.byteLength, contentType: options.contentType, bytes: bytes.slice() });
    },
    async get(key) {
      assertBlobKey(key);
      const blob = blobs.get(key);
      return blob ? { ...blob, bytes: blob.bytes.slice() } : null;
    },
    async exists(key) {
      assertBlobKey(key);
      return blobs.has(key);
    },
    async remove(key) {
      assertBlobKey(key);
      return blobs.delete(key);
    },
    async list(prefix) {
      assertBlobPrefix(prefix);
      const found: BlobInfo[] = [];
      for (const blob of blobs.values()) {
        if (blob.key.startsWith(prefix)) found.push({ key: blob.key, size: blob.size, contentType: blob.contentType });
      }
      return found.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    },
  };
}
