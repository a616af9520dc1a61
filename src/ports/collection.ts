/**
 * Typed handles over the storage port: one collection, its records read through the collection's own decoder,
 * so a resource states once what its records look like and stops casting what the port returns.
 *
 *   const postsIn = collection<PostRecord>('posts', toPostRecord);
 *   const post = await postsIn(storage).get(12);         // PostRecord | null
 *   await postsIn(tx).update(post.id, { status: 'publish' });
 */
import type { ListQuery, ListResult, RecordId, StoragePort, StoredRecord } from './storage.js';

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
  // A handle holds nothing but its storage, so each storage handle gets one, made on first use.
  const handles = new WeakMap<StoragePort, Collection<T>>();
  const decodeListed = (result: ListResult) => decodeList(decode, result);
  // Reads hand on the store's promise, decoded in one step (one that throws at once is rejected, as from an async
  // function): an async function waiting for it costs more turns.
  const handleOf = (storage: StoragePort): Collection<T> => ({
    name,
    get: (id) => {
      try {
        return storage.get(name, id).then(decodeOrNull);
      } catch (error) {
        return Promise.reject(error);
      }
    },
    list: (query) => {
      try {
        return storage.list(name, query).then(decodeListed);
      } catch (error) {
        return Promise.reject(error);
      }
    },
    insert: async (record) => decodeInserted(decode, await storage.insert(name, record)),
    update: async (id, patch) => decodeOrNull(await storage.update(name, id, patch)),
    remove: (id) => storage.remove(name, id),
  });
  return (storage) => {
    let handle = handles.get(storage);
    if (handle === undefined) handles.set(storage, handle = handleOf(storage));
    return handle;
  };
}

/** The decoded records of a list; the port's own answer (the caller's to keep) when each decodes to itself. */
function decodeList<T extends StoredRecord>(decode: Decoder<T>, result: ListResult): { items: T[]; total?: number } {
  const { items } = result;
  for (let index = 0; index < items.length; index++) {
    const record = items[index]!;
    if (decode(record) !== record) return decodeFrom(decode, items, index, result.total);
  }
  return result.total === undefined ? { items: items as T[] } : { items: items as T[], total: result.total };
}

function decodeFrom<T extends StoredRecord>(decode: Decoder<T>, records: readonly StoredRecord[], first: number, total: number | undefined): { items: T[]; total?: number } {
  const items = records.slice(0, first) as T[];
  for (let index = first; index < records.length; index++) {
    const decoded = decode(records[index]!);
    if (decoded !== null) items.push(decoded);
  }
  return total === undefined ? { items } : { items, total };
}

function decodeInserted<T extends StoredRecord>(decode: Decoder<T>, record: StoredRecord): T {
  const decoded = decode(record);
  if (decoded === null) throw new TypeError(`The inserted record ${record.id} does not have the collection's shape.`);
  return decoded;
}
