import type { ListQuery, ListResult, NewRecord, RecordId, StoragePort, StoredRecord } from '../../ports/storage.js';
import { storageError } from '../errors.js';
import { Mutex } from '../mutex.js';
import type { CheckedQuery } from '../query-check.js';
import { checkQuery } from '../query-check.js';
import type { EncodedPatch, EncodedRecord, StringRule } from './records.js';
import { encodeNewRecord, encodePatch } from './records.js';

/**
 * The record operations of one SQL connection, on input already checked. Each store implements this; the
 * functions below add the port's checks and the transaction scoping on top.
 */
export interface RecordSession {
  get(collection: string, id: RecordId): Promise<StoredRecord | null>;
  list(collection: string, query: CheckedQuery): Promise<ListResult>;
  /** Atomic on its own (even outside a transaction). */
  insert(collection: string, record: EncodedRecord): Promise<StoredRecord>;
  update(collection: string, id: RecordId, patch: EncodedPatch): Promise<StoredRecord | null>;
  remove(collection: string, id: RecordId): Promise<boolean>;
  /** Runs `work` inside a savepoint of the session's open transaction, rolling back to it if `work` throws. */
  savepoint<T>(work: () => Promise<T>): Promise<T>;
}

/** Ids the port can hold; anything else names no record. */
export function isRecordId(id: unknown): id is RecordId {
  return typeof id === 'number' && Number.isSafeInteger(id) && id > 0;
}

/** The reading half of the port over a session: queries are checked, unknown ids find nothing. */
export function readOperations(session: Pick<RecordSession, 'get' | 'list'>): Pick<StoragePort, 'get' | 'list'> {
  // The session's own promise is handed on: an async wrapper would wait on it, two more turns per read.
  return {
    get: (collection, id) => (isRecordId(id) ? session.get(collection, id) : Promise.resolve(null)),
    list: (collection, query?: ListQuery) => {
      let checked: CheckedQuery;
      try {
        checked = checkQuery(query);
      } catch (error) {
        return Promise.reject(error);
      }
      return session.list(collection, checked);
    },
  };
}

/** The writing half of the port over a session: records and patches are checked and encoded first. */
export function writeOperations(
  session: Pick<RecordSession, 'insert' | 'update' | 'remove'>,
  stringRule?: StringRule,
): Pick<StoragePort, 'insert' | 'update' | 'remove'> {
  return {
    insert: async (collection, record: NewRecord) => session.insert(collection, encodeNewRecord(record, stringRule)),
    update: async (collection, id, patch) => {
      const encoded = encodePatch(id, patch, stringRule);
      return isRecordId(id) ? session.update(collection, id, encoded) : null;
    },
    remove: async (collection, id) => (isRecordId(id) ? session.remove(collection, id) : false),
  };
}

/**
 * The handle `transaction` passes to its work: every call first checks that the transaction (and each one
 * around it) is still open; nested transactions become savepoints, one at a time per handle.
 */
export function transactionHandle(session: RecordSession, isOpen: () => boolean, stringRule?: StringRule): StoragePort {
  const ensureOpen = () => {
    if (!isOpen()) throw storageError('transaction_closed', 'This transaction has already ended.');
  };
  const reads = readOperations(session);
  const writes = writeOperations(session, stringRule);
  const nested = new Mutex();
  return {
    get: async (collection, id) => { ensureOpen(); return reads.get(collection, id); },
    list: async (collection, query) => { ensureOpen(); return reads.list(collection, query); },
    insert: async (collection, record) => { ensureOpen(); return writes.insert(collection, record); },
    update: async (collection, id, patch) => { ensureOpen(); return writes.update(collection, id, patch); },
    remove: async (collection, id) => { ensureOpen(); return writes.remove(collection, id); },
    transaction: async (work) => {
      ensureOpen();
      return nested.run(() => {
        ensureOpen();
        return session.savepoint(() => runScoped(work, (innerOpen) => transactionHandle(session, () => innerOpen() && isOpen(), stringRule)));
      });
    },
  };
}

/** Runs `work` with a handle that closes as soon as `work` settles. */
export async function runScoped<T>(
  work: (tx: StoragePort) => Promise<T>,
  makeHandle: (isOpen: () => boolean) => StoragePort,
): Promise<T> {
  let open = true;
  try {
    return await work(makeHandle(() => open));
  } finally {
    open = false;
  }
}
