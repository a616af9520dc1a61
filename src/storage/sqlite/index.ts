import { AsyncLocalStorage } from 'node:async_hooks';
import { randomBytes } from 'node:crypto';
import type BetterSqlite3 from 'better-sqlite3';
import type { ListQuery, StoragePort, StoredWrite } from '../../ports/storage.js';
import { checkQuery } from '../query-check.js';
import { readOperations } from '../sql/session.js';
import { forgetPrivateFile, openReader, openWriter, registerFold } from './connections.js';
import { DataVersion } from './data-version.js';
import { migrate, refuseForeignDatabase, requireCurrentSchema, schemaVersion } from './migrate.js';
import { headerWatch, ownCommits, versionWatch, type OwnCommits } from './own-commits.js';
import { MIGRATIONS } from './schema.js';
import { readRows, type LargeRows } from './large-rows.js';
import { SqliteRecords, sqliteSession } from './records.js';
import { WalHeader } from './wal-header.js';
import { localWriting, oneAtATime, threadWriting, type CommittedReads } from './writing.js';
import { WriterThread, writerIdleMsOf, writerThreads, type WriterRequest } from './writer-thread.js';

/** Rows whose binary JSON is longer are read off the main thread (about 5 ms of decoding a megabyte). */
const LARGE_ROW_BYTES = 1024 * 1024;
/** Texts longer are not case-folded on the main thread for a text condition (a millisecond or two each). */
const LONG_FOLD_CHARS = 256 * 1024;

/**
 * A better-sqlite3 `Database`, described by the members quire's declarations mention, so that projects using
 * the store compile without the driver's type package.
 */
export interface SqliteConnection {
  prepare(source: string): { run(...parameters: unknown[]): unknown; get(...parameters: unknown[]): unknown; all(...parameters: unknown[]): unknown[] };
  exec(source: string): unknown;
  pragma(source: string, options?: { simple?: boolean }): unknown;
  close(): unknown;
}

export type SqliteStorageOptions =
  /**
   * A database file (created when missing), or `':memory:'` for a private database (a temporary file without a
   * name, gone when the store closes). The store opens it in WAL mode and closes it. A file that holds another
   * program's tables is refused. `readonly` opens an existing quire database for reading only (an export, a file
   * the process may not write); writes then fail. `writerIdleMs`: how long the writing thread of such a file (see
   * docs/storage.md) stays with no work before it stops, until the next write starts it again (default 300000: five minutes).
   */
  | { path: string; busyTimeoutMs?: number; readonly?: boolean; writerIdleMs?: number }
  /** A host's open better-sqlite3 connection. The store leaves its settings alone and never closes it. */
  | { database: SqliteConnection };

export interface SqliteStorage extends StoragePort {
  /**
   * The connection, for a host's own maintenance (not for writing quire's tables). Where the store writes on a
   * thread of its own, that thread has its own connection: this one does not see a running transaction's writes.
   */
  readonly database: SqliteConnection;
  /** A token that changes whenever the stored data may have (the response cache's key); every quire store has one. */
  changeToken(): Promise<string>;
  /**
   * The writes of this store's last commits since a change token (see the port), or null when it cannot tell: a
   * token it no longer remembers, another connection or process has committed since, or no reading connection.
   */
  writtenSince(token: string): StoredWrite[] | null;
  /** The schema version the database is at (the number of the last migration applied). */
  schemaVersion(): number;
  /** Copies the whole database to a file while the store stays usable (SQLite's online backup). */
  backup(destination: string): Promise<void>;
  /** The query plan SQLite chooses for a list, one line per step. */
  explain(collection: string, query?: ListQuery): string[];
  close(): Promise<void>;
}

/**
 * A store in one SQLite database (see docs/storage.md).
 *
 * Isolation: writes are serialised — a write outside a transaction waits for any running transaction to
 * finish, so calling the outer store's write methods from inside `work` (instead of `tx`'s) never completes.
 * Reads outside a transaction use a second, read-only connection, which sees committed data only: a running
 * transaction's writes stay invisible until it commits (WAL mode lets that connection read while the other
 * writes). Reads through `tx` use the writing connection and see the transaction's own writes. Where no second
 * connection can be opened (a host's in-memory connection, or one not in WAL mode), a read outside a running
 * transaction waits for it to end instead. Transactions start with `BEGIN IMMEDIATE`, so several processes
 * sharing a file take turns (each waits up to `busyTimeoutMs` for another's transaction).
 */
export function sqliteStorage(options: SqliteStorageOptions): SqliteStorage {
  const ownsConnection = !('database' in options);
  const busyTimeoutMs = 'database' in options ? 5000 : options.busyTimeoutMs ?? 5000;
  const readonly = 'path' in options && options.readonly === true;
  const writerIdleMs = writerIdleMsOf('path' in options ? options.writerIdleMs : undefined);
  const opened = 'database' in options ? { db: options.database as BetterSqlite3.Database, privateFile: null } : openWriter(options.path, busyTimeoutMs, readonly);
  const db = opened.db;
  let reader: BetterSqlite3.Database | null = null;
  // Lowered once the store has a writing thread, where longer texts are folded (see `LargeRows`).
  const readerFoldLimit = { chars: Infinity };
  // The WAL-index header of the reader's file, read by both connections' data versions and the writing thread's watch.
  let shm: WalHeader | null = null;
  let readerVersion: DataVersion | null = null;
  let writerVersion: DataVersion | null = null;
  try {
    // Takes effect only on a database that has no tables yet: its text (and so every index) then compares by
    // UTF-16 code unit, the port's string order. An existing UTF-8 database compares by code point, which
    // differs only between characters above U+FFFF and those from U+E000 to U+FFFF.
    if (ownsConnection) refuseForeignDatabase(db, (options as { path: string }).path);
    if (!readonly) db.pragma("encoding = 'UTF-16be'");
    registerFold(db);
    if (readonly) {
      requireCurrentSchema(db, (options as { path: string }).path);
    } else {
      migrate(db);
      reader = openReader(db, busyTimeoutMs);
      if (reader) {
        registerFold(reader, readerFoldLimit);
        // Now, while the private file's name still leads to it.
        shm = WalHeader.open(reader.name);
        readerVersion = shm ? DataVersion.byHeader(reader, shm) : DataVersion.over(reader, shm);
        if (ownsConnection) writerVersion = DataVersion.over(db, shm);
      }
    }
  } catch (error) {
    shm?.close();
    reader?.close();
    if (ownsConnection) db.close();
    throw error;
  } finally {
    if (opened.privateFile) forgetPrivateFile(opened.privateFile);
  }

  const records = new SqliteRecords(db);
  let rollbacks = 0;
  const onRollback = () => {
    rollbacks++;
    records.cache.forget();
  };
  let closed = false;
  if (!readonly) db.pragma('optimize=0x10002');
  const instance = randomBytes(6).toString('base64url');
  let lastToken = { state: '', token: Promise.resolve('') };
  // A file the store opened itself is written on a thread of its own (writer-thread.ts), where its header can be read.
  const file = ownsConnection && !readonly && reader && !opened.privateFile && (options as { path: string }).path !== ':memory:' ? reader.name : null;
  const header = file ? shm : null;
  const thread = file && header ? new WriterThread(file, busyTimeoutMs, { idleMs: writerIdleMs }) : null;
  // A host's connection may write through quire's back: only the store's own connection can tell its writes.
  const watch = thread && header ? headerWatch(header) : writerVersion && versionWatch(writerVersion);
  const commits = reader && watch && !readonly && ownsConnection ? ownCommits(watch) : null;
  const noteState = commits && readerVersion ? stateNoting(commits, readerVersion, thread && header) : null;
  if (thread) readerFoldLimit.chars = LONG_FOLD_CHARS;
  const large = reader && thread ? largeRowsOn(thread, reader, readerFoldLimit) : null;
  const outside = reader && readerVersion ? readerView(reader, readerVersion, commits, noteState, large) : waitingView(db, records, () => rollbacks);
  const local = localWriting(db, records, commits, outside.during, onRollback, readonly);
  const writing = oneAtATime(thread ? threadWriting(thread, local, commits, outside.committed ?? null) : local);

  const storage: SqliteStorage = {
    database: db,
    get: outside.reads.get,
    list: outside.reads.list,
    insert: writing.insert,
    update: writing.update,
    remove: writing.remove,
    transaction: writing.transaction,
    changeToken: () => {
      // Read at once where the view can (no transaction to wait for): one promise, no further turns.
      let state: string | Promise<string>;
      try {
        state = outside.state();
        // The state of the last token was noted when first seen (and a reading connection's never comes back).
        if (noteState && typeof state === 'string' && state !== lastToken.state && !commits!.knows(state)) state = noteState(state);
      } catch (error) {
        return Promise.reject(error);
      }
      if (typeof state !== 'string') return state.then((settled) => `${instance}.${settled}`);
      // The same state answers the same settled promise: no new token string or promise while nothing changes.
      if (state !== lastToken.state) lastToken = { state, token: Promise.resolve(`${instance}.${state}`) };
      return lastToken.token;
    },
    writtenSince: (token) => (commits && token.startsWith(`${instance}.`) ? commits.since(token.slice(instance.length + 1)) : null),
    schemaVersion: () => schemaVersion(db),
    schemaCurrent: async () => schemaVersion(db) === MIGRATIONS[MIGRATIONS.length - 1]!.version,
    backup: writing.backup,
    explain: (collection, query) => records.explain(collection, checkQuery(query)),
    close: () => writing.close(() => {
      if (closed) return;
      closed = true;
      shm?.close();
      reader?.close();
      if (ownsConnection) db.close();
    }),
  };
  if (thread) writerThreads.set(storage, thread);
  return storage;
}

/** How reads outside transactions are made, the state of the data they see, and what a transaction wraps. */
interface OutsideView {
  reads: Pick<StoragePort, 'get' | 'list'>;
  /** This view's state of the data, for the change token: at once, or once a running transaction has ended. */
  state(): string | Promise<string>;
  during<T>(transaction: () => Promise<T>): Promise<T>;
  /** Where the view reads committed data only (its own connection): the same reads, unchecked. */
  committed?: CommittedReads;
}

/**
 * How a state of the reading connection just read is noted for `writtenSince`, with a mark of the others' commits
 * taken no later than it was read: where the others are watched through the header the read itself read, the mark
 * it found; else one taken now, and the state read again after it (a commit landing between the two is then told
 * as unknown). Answers the state noted.
 */
function stateNoting(commits: OwnCommits, version: DataVersion, header: WalHeader | null): (state: string) => string {
  if (header) {
    return (state) => {
      commits.seenWith(state, header.latest());
      return state;
    };
  }
  return () => {
    commits.look();
    const state = version.current();
    commits.seen(state);
    return state;
  };
}

/**
 * Reads on their own connection. Its version (`PRAGMA data_version`, or told by the WAL-index header alone where
 * there is one: `DataVersion.byHeader`) moves when another connection — the writer, or another process — commits:
 * the token never moves for uncommitted writes or rollbacks.
 */
function readerView(
  reader: BetterSqlite3.Database, version: DataVersion, commits: OwnCommits | null, noteState: ((state: string) => string) | null,
  large: LargeRows | null,
): OutsideView {
  const state = () => version.current();
  // Where the store tells its own writes, its decoded records outlive them, but for those written.
  const records = new SqliteRecords(reader, commits && noteState && {
    noted: noteState,
    // Asked right after the state was read, through the same header where there is one.
    since: (before) => commits.since(before, true),
  }, state, large);
  const session = sqliteSession(reader, records, () => {});
  return {
    reads: readOperations(session),
    committed: session,
    state,
    during: (transaction) => transaction(),
  };
}

/**
 * Large rows of reads outside transactions, read on the writing thread, or here where it does not run (any more).
 */
function largeRowsOn(thread: WriterThread, reader: BetterSqlite3.Database, foldLimit: { chars: number }): LargeRows {
  const here = new SqliteRecords(reader);
  const elsewhere = <T>(request: WriterRequest, inPlace: () => T): Promise<T> => thread.with(
    (run) => run.call<T>(request).catch((error) => {
      if (!run.stopped) throw error;
      return inPlace();
    }),
    async () => inPlace(),
  );
  return {
    minBytes: LARGE_ROW_BYTES,
    read: (collection, ids) => elsewhere({ op: 'read', collection, ids }, () => readRows(reader, collection, ids)),
    foldLimit,
    select: (collection, query) => elsewhere({ op: 'select', collection, query }, () => {
      const limit = foldLimit.chars;
      foldLimit.chars = Infinity;
      try {
        return here.selectIds(collection, query);
      } finally {
        foldLimit.chars = limit;
      }
    }),
  };
}

/**
 * Reads on the writing connection, held back while a transaction runs (except those its own work makes, which
 * may use the outer store). The state: `PRAGMA data_version` (commits by other connections), `total_changes()`
 * (this connection's writes, counted as they happen) and the rollbacks, read once no transaction runs.
 */
function waitingView(db: BetterSqlite3.Database, records: SqliteRecords, rollbacks: () => number): OutsideView {
  const inWork = new AsyncLocalStorage<true>();
  let running: Promise<unknown> | null = null;
  const settled = async () => {
    while (running && !inWork.getStore()) await running.catch(() => {});
  };
  const reads = readOperations(sqliteSession(db, records, () => {}));
  const dataVersion = db.prepare('PRAGMA data_version').pluck();
  const totalChanges = db.prepare('SELECT total_changes()').pluck();
  return {
    reads: {
      get: async (collection, id) => { await settled(); return reads.get(collection, id); },
      list: async (collection, query) => { await settled(); return reads.list(collection, query); },
    },
    state: async () => {
      await settled();
      return `${dataVersion.get() as number}.${totalChanges.get() as number}.${rollbacks()}`;
    },
    during: (transaction) => {
      const result = inWork.run(true, transaction);
      running = result;
      return result.finally(() => { if (running === result) running = null; });
    },
  };
}
