import type BetterSqlite3 from 'better-sqlite3';
import type { StoragePort, StoredRecord, StoredWrite } from '../../ports/storage.js';
import { copyJsonOut, freezeJson } from '../json.js';
import { Mutex } from '../mutex.js';
import { selectsNoneOf } from '../kept-lists.js';
import { runScoped, transactionHandle, writeOperations, type RecordSession } from '../sql/session.js';
import type { OwnCommits } from './own-commits.js';
import { sqliteSession, type SqliteRecords } from './records.js';
import { threadSession, type AloneWrite, type WriterRun, type WriterThread } from './writer-thread.js';

const OPTIMIZE_AFTER_CHANGES = 1000;

/** The writing half of the store: its writes, transactions and backups (`oneAtATime` queues them). */
export type Writing = Pick<StoragePort, 'insert' | 'update' | 'remove' | 'transaction'> & {
  backup(destination: string): Promise<void>;
  /** Ends the writing (after any write under way), `closeConnection` last. */
  close(closeConnection: () => void): Promise<void>;
};

/** Writes on input `writeOperations` has checked and encoded. */
type StoredWrites = Pick<RecordSession, 'insert' | 'update' | 'remove'>;

/** The main thread's writing, with its writes on input already checked (where the writing thread cannot run). */
export type LocalWriting = Writing & { stored: StoredWrites };

/** How a transaction is run around the reads outside it (index.ts: `OutsideView.during`). */
export type During = <T>(transaction: () => Promise<T>) => Promise<T>;

/**
 * Writes on the main thread, through the store's writing connection: a host's connection, a private
 * (`':memory:'`) database, or where the writing thread cannot run.
 */
export function localWriting(
  db: BetterSqlite3.Database, records: SqliteRecords, commits: OwnCommits | null, during: During, onRollback: () => void,
  readonly = false,
): LocalWriting {
  const session = sqliteSession(db, records, onRollback);
  const totalChanges = db.prepare('SELECT total_changes()').pluck();
  let changesAtLastOptimize = 0;
  /**
   * The planner needs statistics to choose between the list indexes (without them a slug lookup may walk the
   * date index of every post); `PRAGMA optimize` gathers them where they are missing or stale. It runs on open
   * and after every OPTIMIZE_AFTER_CHANGES written rows, over every table (0x10000): the text index's own
   * tables are read only by FTS5's internal statements, which plain `optimize` does not count as uses, and
   * with the statistics of their empty start a merge of a grown index took hundreds of milliseconds.
   */
  const optimizeWhenDue = <T>(result: T): T => {
    if (readonly) return result;
    const changes = totalChanges.get() as number;
    if (changes - changesAtLastOptimize >= OPTIMIZE_AFTER_CHANGES) {
      db.pragma('optimize=0x10002');
      changesAtLastOptimize = changes;
    }
    return result;
  };
  /** Runs one write or transaction, noting what it wrote once it committed. */
  const noted = async <T>(write: () => Promise<T>): Promise<T> => {
    if (!commits) return write();
    records.written = [];
    commits.begin();
    try {
      const result = await write();
      commits.committed(records.written ?? []);
      return result;
    } finally {
      commits.end();
      records.written = null;
    }
  };
  const stored: StoredWrites = {
    insert: async (collection, record) => optimizeWhenDue(await noted(() => session.insert(collection, record))),
    update: async (collection, id, patch) => optimizeWhenDue(await noted(() => session.update(collection, id, patch))),
    remove: async (collection, id) => optimizeWhenDue(await noted(() => session.remove(collection, id))),
  };
  return {
    ...writeOperations(stored),
    stored,
    transaction: (work) => during(() => noted(async () => {
      db.exec('BEGIN IMMEDIATE');
      records.text.holding = true;
      try {
        const result = await runScoped(work, (isOpen) => transactionHandle(session, isOpen));
        records.text.write();
        db.exec('COMMIT');
        return optimizeWhenDue(result);
      } catch (error) {
        records.text.discard();
        if (db.inTransaction) db.exec('ROLLBACK');
        onRollback();
        throw error;
      } finally {
        records.text.holding = false;
      }
    })),
    backup: async (destination) => {
      await db.backup(destination);
    },
    close: async (closeConnection) => closeConnection(),
  };
}

/** `writing`'s writes, transactions and closing one at a time, each after those asked for before. */
export function oneAtATime(writing: Writing, writeLock = new Mutex()): Writing {
  return {
    insert: (collection, record) => writeLock.run(() => writing.insert(collection, record)),
    update: (collection, id, patch) => writeLock.run(() => writing.update(collection, id, patch)),
    remove: (collection, id) => writeLock.run(() => writing.remove(collection, id)),
    transaction: (work) => writeLock.run(() => writing.transaction(work)),
    backup: (destination) => writing.backup(destination),
    close: (closeConnection) => writeLock.run(() => writing.close(closeConnection)),
  };
}

/** Reads of committed data only, made on the main thread (the store's reading connection). */
export type CommittedReads = Pick<RecordSession, 'get' | 'list'>;

/** Most writes to a collection a transaction's lists are told apart from; past it, its lists are read on the thread. */
const MOST_WRITES_TOLD = 64;

/**
 * A transaction's session on the writing thread (`inside`, which tells what each write wrote), whose reads of what
 * it has not written are made on the main thread instead (`committed`), sparing the thread a message each. From its
 * `BEGIN IMMEDIATE` the thread holds the database's write lock, so nobody else can commit until it ends: committed
 * data is then what the transaction reads, but for its own writes. A record it wrote is answered as its last write
 * left it, while no write to its collection is under way and no savepoint is being rolled back (which may undo it).
 * Read on the thread, which answers in order: a record written otherwise (from the moment its write is asked for),
 * any record of a collection while an insert there still has its id to be chosen or after a write there failed, and
 * a list of a collection while a write there is under way, or that may select a record written there, before or
 * after its write (kept-lists.ts: `selectsNoneOf`).
 */
function readingUnwritten(
  inside: (heard: (written: StoredWrite[]) => void) => RecordSession, committedReads: CommittedReads, begun: Promise<void>,
): RecordSession {
  // Committed data is what the transaction reads only once its BEGIN IMMEDIATE holds the write lock.
  let open = false;
  begun.then(() => { open = true; }, () => {});
  const committed: CommittedReads = {
    get: (collection, id) => (open ? committedReads.get(collection, id) : begun.then(() => committedReads.get(collection, id))),
    list: (collection, query) => (open ? committedReads.list(collection, query) : begun.then(() => committedReads.list(collection, query))),
  };
  interface Written {
    ids: Set<number>;
    /** Each record as its last write answered it (frozen; null: removed), until a savepoint's rollback. */
    records: Map<number, StoredRecord | null>;
    choosing: number;
    underWay: number;
    failed: boolean;
    writes: StoredWrite[] | null;
  }
  const written = new Map<string, Written>();
  /** Savepoints being rolled back: what their writes answered may be undone. */
  let undoing = 0;
  const stateOf = (collection: string) => {
    let state = written.get(collection);
    if (!state) written.set(collection, (state = { ids: new Set(), records: new Map(), choosing: 0, underWay: 0, failed: false, writes: [] }));
    return state;
  };
  const forgetRecords = () => {
    for (const state of written.values()) state.records.clear();
  };
  const session = inside((writes) => {
    for (const write of writes) {
      const state = stateOf(write.collection);
      // A copy: the write's answer shares the record with its caller.
      state.records.set(write.id, write.after && freezeJson(copyJsonOut(write.after)));
      if (state.writes !== null && state.writes.length < MOST_WRITES_TOLD) state.writes.push(write);
      else state.writes = null;
    }
  });
  const writing = async <T>(collection: string, id: number | undefined, write: () => Promise<T>, chosen?: (result: T) => number) => {
    const state = stateOf(collection);
    state.underWay++;
    if (id === undefined) state.choosing++;
    else state.ids.add(id);
    try {
      const result = await write();
      if (chosen) state.ids.add(chosen(result));
      return result;
    } catch (error) {
      state.failed = true;
      throw error;
    } finally {
      state.underWay--;
      if (id === undefined) state.choosing--;
    }
  };
  return {
    get: async (collection, id) => {
      const state = written.get(collection);
      if (!state || (!state.failed && state.choosing === 0 && !state.ids.has(id))) return committed.get(collection, id);
      const known = !state.failed && state.choosing === 0 && state.underWay === 0 && undoing === 0 ? state.records.get(id) : undefined;
      return known === undefined ? session.get(collection, id) : known && copyJsonOut(known);
    },
    list: (collection, query) => {
      const state = written.get(collection);
      const onThread = state !== undefined
        && (state.failed || state.underWay > 0 || state.writes === null || !selectsNoneOf(collection, query, state.writes));
      return onThread ? session.list(collection, query) : committed.list(collection, query);
    },
    insert: (collection, record) => writing(collection, record.id, () => session.insert(collection, record), (stored) => stored.id),
    update: (collection, id, patch) => writing(collection, id, () => session.update(collection, id, patch)),
    remove: (collection, id) => writing(collection, id, () => session.remove(collection, id)),
    async savepoint(work) {
      let undone = false;
      try {
        return await session.savepoint(async () => {
          try {
            return await work();
          } catch (error) {
            // Before the rollback is asked for: from now on, records written are read on the thread again.
            undone = true;
            undoing++;
            forgetRecords();
            throw error;
          }
        });
      } finally {
        if (undone) {
          undoing--;
          forgetRecords();
        }
      }
    },
  };
}

/**
 * Writes on the store's writing thread (writer-thread.ts), started by the first of them. Where the thread cannot
 * start, or once it has stopped unasked, writes go on on the main thread (`local`, over the main thread's own
 * connection to the same file): a write under way when it stopped fails with `store_unavailable`, and SQLite rolls
 * back what it had not committed.
 */
export function threadWriting(
  thread: WriterThread, local: LocalWriting, commits: OwnCommits | null, committedReads: CommittedReads | null = null,
): Writing {
  const noted = ({ written, step }: AloneWrite<unknown>) => commits?.committed(written, step);
  let alone: { run: WriterRun; session: RecordSession } | null = null;
  const aloneOn = (run: WriterRun) => {
    if (alone?.run !== run) alone = { run, session: threadSession(run, noted) };
    return alone.session;
  };
  // Checked first: a write the port refuses starts no thread.
  const writes = writeOperations({
    insert: (collection, record) => thread.with((run) => aloneOn(run).insert(collection, record), () => local.stored.insert(collection, record)),
    update: (collection, id, patch) => thread.with((run) => aloneOn(run).update(collection, id, patch), () => local.stored.update(collection, id, patch)),
    remove: (collection, id) => thread.with((run) => aloneOn(run).remove(collection, id), () => local.stored.remove(collection, id)),
  });
  return {
    ...writes,
    transaction: (work) => thread.with(async (run) => {
      // Not waited for: the transaction's requests follow it on the thread, which refuses them where it failed, and
      // its reads on the main thread wait for it (`readingUnwritten`). A first write then costs no round trip more.
      const begun = run.call<void>({ op: 'begin' });
      begun.catch(() => {});
      try {
        const session = committedReads ? readingUnwritten((heard) => threadSession(run, undefined, heard), committedReads, begun) : threadSession(run);
        const result = await runScoped(work, (isOpen) => transactionHandle(session, isOpen));
        await begun;
        const { written, step } = await run.call<{ written: StoredWrite[]; step: AloneWrite<unknown>['step'] }>({ op: 'commit' });
        commits?.committed(written, step, true);
        return result;
      } catch (error) {
        if (!run.stopped) await run.call({ op: 'rollback' }).catch(() => {});
        // A transaction that could not begin fails as its BEGIN did, whatever its work met then.
        await begun;
        throw error;
      }
    }, () => local.transaction(work)),
    backup: (destination) => thread.with((run) => run.call<void>({ op: 'backup', destination }), () => local.backup(destination)),
    close: async (closeConnection) => {
      await thread.close();
      closeConnection();
    },
  };
}
