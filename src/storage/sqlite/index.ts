import { randomBytes } from 'node:crypto';
import Database from 'better-sqlite3';
import type BetterSqlite3 from 'better-sqlite3';
import type { ListQuery, StoragePort } from '../../ports/storage.js';
import { Mutex } from '../mutex.js';
import { checkQuery } from '../query-check.js';
import { foldText } from '../sql/records.js';
import { readOperations, runScoped, transactionHandle, writeOperations } from '../sql/session.js';
import { FOLD_FUNCTION } from './dialect.js';
import { migrate, schemaVersion } from './migrate.js';
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
  /** A database file (created when missing), or `':memory:'`. The store opens it in WAL mode and closes it. */
  | { path: string; busyTimeoutMs?: number }
  /** A host's open better-sqlite3 connection. The store leaves its settings alone and never closes it. */
  | { database: SqliteConnection };

export interface SqliteStorage extends StoragePort {
  /** The connection, for a host's own maintenance (not for writing quire's tables). */
  readonly database: SqliteConnection;
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
 * Reads are not queued: on the store's single connection, a read outside a transaction sees a running
 * transaction's uncommitted writes. Transactions start with `BEGIN IMMEDIATE`, so several processes sharing a
 * file take turns (each waits up to `busyTimeoutMs` for another's transaction).
 */
export function sqliteStorage(options: SqliteStorageOptions): SqliteStorage {
  const ownsConnection = !('database' in options);
  const db = 'database' in options ? options.database as BetterSqlite3.Database : openFile(options.path, options.busyTimeoutMs ?? 5000);
  try {
    // Takes effect only on a database that has no tables yet: its text (and so every index) then compares by
    // UTF-16 code unit, the port's string order. An existing UTF-8 database compares by code point, which
    // differs only between characters above U+FFFF and those from U+E000 to U+FFFF.
    db.pragma("encoding = 'UTF-16be'");
    db.function(FOLD_FUNCTION, { deterministic: true }, (value: unknown) => (typeof value === 'string' ? foldText(value) : ''));
    migrate(db);
  } catch (error) {
    if (ownsConnection) db.close();
    throw error;
  }

  const records = new SqliteRecords(db);
  let rollbacks = 0;
  const session = sqliteSession(db, records, () => {
    rollbacks++;
    records.cache.forget();
  });
  const reads = readOperations(session);
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
    const changes = totalChanges.get() as number;
    if (changes - changesAtLastOptimize >= OPTIMIZE_AFTER_CHANGES) {
      db.pragma('optimize=0x10002');
      changesAtLastOptimize = changes;
    }
    return result;
  };
  db.pragma('optimize=0x10002');
  /**
   * The change token: `PRAGMA data_version` changes when another connection (in any process) has committed since
   * this one last looked, and `total_changes()` counts every row this connection wrote — inside transactions
   * too, and never going back on a rollback. Reads on this connection see a running transaction's writes, so
   * the token must move with them (counting changes as they happen does), and again when they are undone:
   * `rollbacks` counts the transactions and savepoints rolled back. (A single write runs synchronously, so
   * nobody can read between its statements.)
   */
  const dataVersion = db.prepare('PRAGMA data_version').pluck();
  const instance = randomBytes(6).toString('base64url');

  return {
    database: db,
    get: reads.get,
    list: reads.list,
    insert: (collection, record) => writeLock.run(async () => optimizeWhenDue(await writes.insert(collection, record))),
    update: (collection, id, patch) => writeLock.run(async () => optimizeWhenDue(await writes.update(collection, id, patch))),
    remove: (collection, id) => writeLock.run(async () => optimizeWhenDue(await writes.remove(collection, id))),
    transaction: (work) => writeLock.run(async () => {
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
        rollbacks++;
        records.cache.forget();
        throw error;
      } finally {
        records.text.holding = false;
      }
    }),
    changeToken: async () => `${instance}.${dataVersion.get() as number}.${totalChanges.get() as number}.${rollbacks}`,
    schemaVersion: () => schemaVersion(db),
    schemaCurrent: async () => schemaVersion(db) === MIGRATIONS[MIGRATIONS.length - 1]!.version,
    backup: async (destination) => {
      await db.backup(destination);
    },
    explain: (collection, query) => records.explain(collection, checkQuery(query)),
    close: () => writeLock.run(() => {
      if (closed) return;
      closed = true;
      if (ownsConnection) db.close();
    }),
  };
}

function openFile(path: string, busyTimeoutMs: number): BetterSqlite3.Database {
  const db = new Database(path, { timeout: busyTimeoutMs });
  try {
    db.pragma('journal_mode = WAL');
    // Statistics from a sample of each index are as good for choosing plans and keep `optimize` quick.
    db.pragma('analysis_limit = 1000');
    // With WAL, NORMAL loses no committed data on a crash of the process, only (at worst) on a power loss.
    db.pragma('synchronous = NORMAL');
  } catch (error) {
    db.close();
    throw error;
  }
  return db;
}
