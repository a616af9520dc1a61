import { randomBytes } from 'node:crypto';
import type { ListQuery, ListResult, NewRecord, RecordId, StoragePort, StoredRecord, StoredWrite } from '../../ports/storage.js';
import { MemoryEngine } from './engine.js';
import { storageError } from '../errors.js';
import type { QueryPlan } from './list.js';
import { Mutex } from '../mutex.js';
import { copyJsonOut } from '../json.js';
import { WriteLog } from '../write-log.js';

export type { QueryPlan } from './list.js';

export interface MemoryStorageOptions {
  /** Indexes kept per collection; the least recently used goes first. Default 16. */
  maxIndexesPerCollection?: number;
  /** Answer every list by filtering and sorting the whole collection. For comparisons; default true. */
  useIndexes?: boolean;
}

export interface MemoryStorage extends StoragePort {
  /** A token that changes whenever the stored data may have (the response cache's key); every quire store has one. */
  changeToken(): Promise<string>;
  /** The writes of its last commits since a change token (see the port); null for a token too old. */
  writtenSince(token: string): StoredWrite[] | null;
  /** Runs the list and reports how it was answered (strategy, index, records examined). Results are not returned. */
  explain(collection: string, query?: ListQuery): QueryPlan;
}

/**
 * The default store: everything in memory, gone with the process.
 *
 * Isolation: writes are serialised — a write outside a transaction waits for any running transaction to finish,
 * so calling the outer store's write methods from inside `work` (instead of `tx`'s) never completes. Two
 * engines hold the data: writes go to `working`, where a transaction reads its own writes and rolls them back,
 * and what they leave there is handed to `committed` when they commit; reads outside transactions read
 * `committed`, so they never see uncommitted writes. Both share the (never mutated) rows; each builds the
 * indexes its own lists need.
 */
export function createMemoryStorage(options: MemoryStorageOptions = {}): MemoryStorage {
  const engineOptions = {
    maxIndexesPerCollection: options.maxIndexesPerCollection ?? 16,
    useIndexes: options.useIndexes ?? true,
  };
  const working = new MemoryEngine(engineOptions);
  const committed = new MemoryEngine(engineOptions);
  const writeLock = new Mutex();
  const instance = randomBytes(6).toString('base64url');
  let lastToken = { changes: -1, token: Promise.resolve('') };
  const written = new WriteLog();
  /** Hands what the writes left in `working` to the readers, noting them for `writtenSince`. */
  const commit = () => {
    const writes = working.publishTo(committed);
    if (writes) written.add(committed.changes, writes);
  };

  /** Runs one write outside any transaction and commits it at once. */
  function writeNow<T>(write: () => T): Promise<T> {
    return writeLock.run(() => {
      working.beginUndo();
      try {
        const result = write();
        commit();
        return result;
      } finally {
        working.endUndo();
      }
    });
  }

  const reads = readsOf(committed);
  const ownReads = readsOf(working);

  function readsOf(engine: MemoryEngine) {
    return {
      async get(collection: string, id: RecordId): Promise<StoredRecord | null> {
        const row = engine.get(collection, id);
        return row ? copyJsonOut(row) : null;
      },
      // A settled promise rather than an async function's (which costs a generator and a turn more).
      list(collection: string, query?: ListQuery): Promise<ListResult> {
        try {
          const { rows, total } = engine.list(collection, query);
          // Rows are frozen (values.ts): a reader that only reads may share them. `rows` is the list's own array.
          const items = query?.shared === true ? rows : rows.map(copyJsonOut);
          return Promise.resolve(total === undefined ? { items } : { items, total });
        } catch (error) {
          return Promise.reject(error);
        }
      },
    };
  }

  /** A handle whose writes run directly, for use while the write lock is already held. */
  function transactionHandle(isOpen: () => boolean): StoragePort {
    const ensureOpen = () => {
      if (!isOpen()) throw storageError('transaction_closed', 'This transaction has already ended.');
    };
    return {
      async get(collection, id) {
        ensureOpen();
        return ownReads.get(collection, id);
      },
      async list(collection, query) {
        ensureOpen();
        return ownReads.list(collection, query);
      },
      async insert(collection, record) {
        ensureOpen();
        return copyJsonOut(working.insert(collection, record));
      },
      async update(collection, id, patch) {
        ensureOpen();
        const row = working.update(collection, id, patch);
        return row ? copyJsonOut(row) : null;
      },
      async remove(collection, id) {
        ensureOpen();
        return working.remove(collection, id);
      },
      transaction(work) {
        ensureOpen();
        return runScope(work, isOpen);
      },
    };
  }

  /** Runs `work` as a savepoint inside whatever is open; undoes its writes if it throws. */
  async function runScope<T>(work: (tx: StoragePort) => Promise<T>, parentOpen: () => boolean): Promise<T> {
    const mark = working.beginUndo();
    let open = true;
    try {
      return await work(transactionHandle(() => open && parentOpen()));
    } catch (error) {
      working.rollBackTo(mark);
      throw error;
    } finally {
      open = false;
    }
  }

  return {
    ...reads,
    insert: (collection: string, record: NewRecord) => writeNow(() => copyJsonOut(working.insert(collection, record))),
    update: (collection: string, id: RecordId, patch: Record<string, unknown>) =>
      writeNow(() => {
        const row = working.update(collection, id, patch);
        return row ? copyJsonOut(row) : null;
      }),
    remove: (collection: string, id: RecordId) => writeNow(() => working.remove(collection, id)),
    transaction: <T>(work: (tx: StoragePort) => Promise<T>) =>
      writeLock.run(async () => {
        try {
          const result = await runScope(work, () => true);
          commit();
          return result;
        } finally {
          working.endUndo();
        }
      }),
    changeToken: () => {
      // The same state answers the same settled promise: no new token string or promise while nothing changes.
      if (committed.changes !== lastToken.changes) lastToken = { changes: committed.changes, token: Promise.resolve(`${instance}.${committed.changes}`) };
      return lastToken.token;
    },
    writtenSince: (token: string) => (token.startsWith(`${instance}.`) ? written.since(Number(token.slice(instance.length + 1))) : null),
    explain: (collection: string, query?: ListQuery) => committed.list(collection, query).plan,
    close: async () => {},
  };
}
