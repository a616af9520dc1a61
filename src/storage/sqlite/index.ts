import { AsyncLocalStorage } from 'node:async_hooks';
import { randomBytes } from 'node:crypto';
import type BetterSqlite3 from 'better-sqlite3';
import type { ListQuery, StoragePort, StoredWrite } from '../../ports/storage.js';
import { Mutex } from '../mutex.js';
import { WriteLog } from '../write-log.js';
import { checkQuery } from '../query-check.js';
import { foldText } from '../sql/records.js';
import { readOperations, runScoped, transactionHandle, writeOperations } from '../sql/session.js';
import { forgetPrivateFile, openReader, openWriter } from './connections.js';
import { DataVersion } from './data-version.js';
import { FOLD_FUNCTION } from './dialect.js';
import { migrate, refuseForeignDatabase, requireCurrentSchema, schemaVersion } from './migrate.js';
import { MIGRATIONS } from './schema.js';
import { SqliteRecords, sqliteSession } from './records.js';

const OPTIMIZE_AFTER_CHANGES = 1000;

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
   * the process may not write); writes then fail.
   */
  | { path: string; busyTimeoutMs?: number; readonly?: boolean }
  /** A host's open better-sqlite3 connection. The store leaves its settings alone and never closes it. */
  | { database: SqliteConnection };

export interface SqliteStorage extends StoragePort {
  /** The connection, for a host's own maintenance (not for writing quire's tables). */
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
  const opened = 'database' in options ? { db: options.database as BetterSqlite3.Database, privateFile: null } : openWriter(options.path, busyTimeoutMs, readonly);
  const db = opened.db;
  let reader: BetterSqlite3.Database | null = null;
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
        registerFold(reader);
        // Now, while the private file's name still leads to it.
        readerVersion = DataVersion.of(reader, reader.name);
        if (ownsConnection) writerVersion = DataVersion.of(db, reader.name);
      }
    }
  } catch (error) {
    readerVersion?.close();
    writerVersion?.close();
    reader?.close();
    if (ownsConnection) db.close();
    throw error;
  } finally {
    if (opened.privateFile) forgetPrivateFile(opened.privateFile);
  }

  const records = new SqliteRecords(db);
  let rollbacks = 0;
  const session = sqliteSession(db, records, () => {
    rollbacks++;
    records.cache.forget();
  });
  const writes = writeOperations(session);
  const writeLock = new Mutex();
  let closed = false;
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
  if (!readonly) db.pragma('optimize=0x10002');
  const instance = randomBytes(6).toString('base64url');
  let lastToken = { state: '', token: Promise.resolve('') };
  // A host's connection may write through quire's back: only the store's own connection can tell its writes.
  const commits = reader && writerVersion && !readonly && ownsConnection ? ownCommits(writerVersion, records) : null;
  const outside = reader && readerVersion ? readerView(reader, readerVersion, commits) : waitingView(db, records, () => rollbacks);

  return {
    database: db,
    get: outside.reads.get,
    list: outside.reads.list,
    insert: (collection, record) => writeLock.run(async () => optimizeWhenDue(await noted(commits, () => writes.insert(collection, record)))),
    update: (collection, id, patch) => writeLock.run(async () => optimizeWhenDue(await noted(commits, () => writes.update(collection, id, patch)))),
    remove: (collection, id) => writeLock.run(async () => optimizeWhenDue(await noted(commits, () => writes.remove(collection, id)))),
    transaction: (work) => writeLock.run(() => outside.during(async () => {
      db.exec('BEGIN IMMEDIATE');
      records.text.holding = true;
      commits?.begin();
      try {
        const result = await runScoped(work, (isOpen) => transactionHandle(session, isOpen));
        records.text.write();
        db.exec('COMMIT');
        commits?.committed();
        return optimizeWhenDue(result);
      } catch (error) {
        commits?.discard();
        records.text.discard();
        if (db.inTransaction) db.exec('ROLLBACK');
        rollbacks++;
        records.cache.forget();
        throw error;
      } finally {
        records.text.holding = false;
      }
    })),
    changeToken: () => {
      // Read at once where the view can (no transaction to wait for): one promise, no further turns.
      let state: string | Promise<string>;
      try {
        state = outside.state();
        if (commits && typeof state === 'string' && !commits.knows(state)) {
          // Commits by others are looked for before the state noted is read: one landing between the two is told
          // as unknown. A state already noted was noted that way when first seen.
          commits.look();
          state = outside.state() as string;
          commits.seen(state);
        }
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
    backup: async (destination) => {
      await db.backup(destination);
    },
    explain: (collection, query) => records.explain(collection, checkQuery(query)),
    close: () => writeLock.run(() => {
      if (closed) return;
      closed = true;
      readerVersion?.close();
      writerVersion?.close();
      reader?.close();
      if (ownsConnection) db.close();
    }),
  };
}

function registerFold(connection: BetterSqlite3.Database): void {
  connection.function(FOLD_FUNCTION, { deterministic: true }, (value: unknown) => (typeof value === 'string' ? foldText(value) : ''));
}

/** How reads outside transactions are made, the state of the data they see, and what a transaction wraps. */
interface OutsideView {
  reads: Pick<StoragePort, 'get' | 'list'>;
  /** This view's state of the data, for the change token: at once, or once a running transaction has ended. */
  state(): string | Promise<string>;
  during<T>(transaction: () => Promise<T>): Promise<T>;
}

/**
 * Reads on their own connection. Its `PRAGMA data_version` moves when another connection — the writer, or
 * another process — commits, and only then: the token never moves for uncommitted writes or rollbacks.
 */
function readerView(reader: BetterSqlite3.Database, version: DataVersion, commits: OwnCommits | null): OutsideView {
  const state = () => version.current();
  // Where the store tells its own writes, its decoded records outlive them, but for those written.
  const records = new SqliteRecords(reader, commits && {
    noted: () => {
      commits.look();
      const now = state();
      commits.seen(now);
      return now;
    },
    since: (before) => commits.since(before),
  }, state);
  return {
    reads: readOperations(sqliteSession(reader, records, () => {})),
    state,
    during: (transaction) => transaction(),
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

/** Runs one write outside a transaction (its own commit), noting what it wrote once it committed. */
async function noted<T>(commits: OwnCommits | null, write: () => Promise<T>): Promise<T> {
  if (!commits) return write();
  commits.begin();
  try {
    const result = await write();
    commits.committed();
    return result;
  } catch (error) {
    commits.discard();
    throw error;
  }
}

type OwnCommits = ReturnType<typeof ownCommits>;

/** Tokens remembered for `writtenSince`, the most recent ones. */
const TOKENS_REMEMBERED = 64;

/**
 * This store's own commits, for `writtenSince`: what each wrote (`SqliteRecords.written`), numbered, and for each
 * state of the data seen (the reading connection's `PRAGMA data_version`), the number of the last commit then and the writing connection's `PRAGMA data_version`, which
 * moves only when another connection or process commits. The log answers for a token only while that has not
 * moved since; a token is noted after the first read of it, so it may stand for fewer commits than it saw (more
 * writes named, never fewer).
 */
function ownCommits(othersVersion: DataVersion, records: SqliteRecords) {
  const log = new WriteLog();
  const tokens = new Map<string, { commit: number; others: unknown }>();
  let commit = 0;
  let others: unknown = null;
  return {
    begin() {
      records.written = [];
    },
    committed() {
      const written = records.written ?? [];
      records.written = null;
      if (written.length > 0) log.add(++commit, written);
    },
    discard() {
      records.written = null;
    },
    look() {
      others = othersVersion.current();
    },
    knows(state: string): boolean {
      return tokens.has(state);
    },
    seen(state: string) {
      if (tokens.has(state)) return;
      tokens.set(state, { commit, others });
      if (tokens.size > TOKENS_REMEMBERED) tokens.delete(tokens.keys().next().value!);
    },
    since(state: string): StoredWrite[] | null {
      const noted = tokens.get(state);
      // A write under way may have committed already, and is not in the log until its promise settles.
      if (!noted || records.written !== null || othersVersion.current() !== noted.others) return null;
      return log.since(noted.commit);
    },
  };
}
