/**
 * Typed handles over the storage port: one collection, its records read through the collection's own decoder,
 * so a resource states once what its records look like and stops casting what the port returns.
 *
 *   const postsIn = collection<PostRecord>('posts', toPostRecord);
 *   const post = await postsIn(storage).get(12);         // PostRecord | null
 *   await postsIn(tx).update(post.id, { status: 'publish' });
 */
import type { ListQuery, RecordId, StoragePort, StoredRecord } from './storage.js';

export interface Collection<T extends StoredRecord> {
  readonly name: string;
  /** The record, or null when there is none or it is not one of this collection's records. */
  get(id: RecordId): Promise<T | null>;
  /** Matching records, in order; records the decoder refuses are left out. */
  list(query?: ListQuery): Promise<{ items: T[]; total?: number }>;
  /** Without `id`, the store assigns the next one. */
  insert(record: Partial<T>): Promise<T>;
  /** Shallow merge (an `undefined` value removes the field); null when the record does not exist. */
  update(id: RecordId, patch: Partial<T>): Promise<T | null>;
  remove(id: RecordId): Promise<boolean>;
}

/**
 * Reads a stored record as the collection's type: the record itself when its shape checks, a normalised copy,
 * or null when it is not one.
 */
export type Decoder<T extends StoredRecord> = (record: StoredRecord) => T | null;

/** A factory of typed handles for one collection, bound to a storage handle (the port, or a transaction's). */
export function collection<T extends StoredRecord>(name: string, decode: Decoder<T>): (storage: StoragePort) => Collection<T> {
  const decodeOrNull = (record: StoredRecord | null) => (record === null ? null : decode(record));
  return (storage) => ({
    name,
    get: async (id) => decodeOrNull(await storage.get(name, id)),
    async list(query) {
      const result = await storage.list(name, query);
      const items: T[] = [];
      for (const record of result.items) {
        const decoded = decode(record);
        if (decoded !== null) items.push(decoded);
      }
      return result.total === undefined ? { items } : { items, total: result.total };
    },
    insert: async (record) => decodeInserted(decode, await storage.insert(name, record)),
    update: async (id, patch) => decodeOrNull(await storage.update(name, id, patch)),
    remove: (id) => storage.remove(name, id),
  });
}

function decodeInserted<T extends StoredRecord>(decode: Decoder<T>, record: StoredRecord): T {
  const decoded = decode(record);
  if (decoded === null) throw new TypeError(`The inserted record ${record.id} does not have the collection's shape.`);
  return decoded;
}
