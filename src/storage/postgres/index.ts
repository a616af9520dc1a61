import pg from 'pg';
import type { ListQuery, StoragePort, StoredWrite } from '../../ports/storage.js';
import { storageError } from '../errors.js';
import { Mutex } from '../mutex.js';
import { checkQuery } from '../query-check.js';
import type { StringRule } from '../sql/records.js';
import { readOperations, runScoped, transactionHandle } from '../sql/session.js';
import { beginLocked, classified, classifying, connectClient, holding, runWithin } from './availability.js';
import { LOCK_CLASS, lockKeyOf, migrate, quoteIdentifier, schemaVersion } from './migrate.js';
import type { Queryable } from './long-records.js';
import { OwnCommits } from './own-commits.js';
import { MIGRATIONS } from './schema.js';
import { PostgresRecords } from './records.js';
import { postgresSession } from './session.js';

/**
 * A node-postgres `Pool`, described by the members quire's declarations mention, so that projects using the
 * store compile without the driver's type package.
 */
export interface PostgresPool {
  query(text: string, values?: unknown[]): Promise<unknown>;
  connect(): Promise<unknown>;
  end(): Promise<void>;
}

export type PostgresStorageOptions = (
  /**
   * The store makes its own pool (`max` connections, default 10) and ends it on `close()`. `connectTimeoutMs`
   * (default 5000; 0: no limit): how long a query waits for a connection (a free one, or a new one being made)
   * before failing with `store_unavailable`.
   */
  | { connectionString: string; max?: number; connectTimeoutMs?: number }
  /** A host's pool. The store never ends it. */
  | { pool: PostgresPool }
) & {
  /** The schema holding quire's tables, created when missing. Default: the connection's current schema. */
  schema?: string;
  /**
   * How long a write waits for its turn — behind this process's other writes, then for the schema's advisory
   * lock — before failing with `store_unavailable`, in milliseconds (default 5000; 0 waits without limit).
   */
  lockTimeoutMs?: number;
  /**
   * A write transaction whose process sends no statement for this long is ended by the server, releasing the
   * lock (a frozen or stalled process), in milliseconds; 0 leaves the server's setting (default 60000).
   */
  idleTransactionTimeoutMs?: number;
};

export interface PostgresStorage extends StoragePort {
  readonly pool: PostgresPool;
  /** The schema the tables live in. */
  readonly schema: string;
  /** A token that changes whenever the stored data may have (the response cache's key); every quire store has one. */
  changeToken(): Promise<string>;
  /** This store's own writes since `token` while no other connection or process committed since (own-commits.ts). */
  writtenSince(token: string): StoredWrite[] | null;
  schemaVersion(): Promise<number>;
  /** Resolves when the database answers `SELECT 1`; rejects with `store_unavailable` when it cannot. */
  ping(): Promise<void>;
  /** The plan PostgreSQL chooses for a list's page query (with its total, when asked), one line per row. */
  explain(collection: string, query?: ListQuery): Promise<string[]>;
  close(): Promise<void>;
}

/** PostgreSQL text cannot hold NUL, and jsonb refuses unpaired surrogates: refuse them as records, up front. */
const postgresStrings: StringRule = (value, where) => {
  if (value.includes('\u0000')) throw storageError('invalid_record', `${where} holds a NUL character, which PostgreSQL cannot store.`);
  if (/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(value)) {
    throw storageError('invalid_record', `${where} holds an unpaired surrogate, which PostgreSQL cannot store.`);
  }
};

/**
 * A store in a PostgreSQL database (see docs/storage.md), safe for several processes sharing one database:
 * ids come from a counter row in the database, every write runs in a transaction holding an advisory lock for
 * the schema (so transactions, in any process, never interleave, and check-then-write inside one is safe), and
 * nothing is cached in the process. Reads outside transactions go straight to the pool and see committed data.
 */
export async function postgresStorage(options: PostgresStorageOptions): Promise<PostgresStorage> {
  const lockTimeoutMs = milliseconds(options.lockTimeoutMs, 5000, 'lockTimeoutMs') || Infinity;
  const idleTransactionTimeoutMs = milliseconds(options.idleTransactionTimeoutMs, 60_000, 'idleTransactionTimeoutMs');
  const ownsPool = !('pool' in options);
  const pool = 'pool' in options
    ? hostPool(options.pool as pg.Pool)
    : ownPool(options.connectionString, options.max ?? 10, milliseconds(options.connectTimeoutMs, 5000, 'connectTimeoutMs'));
  let schemaName: string;
  try {
    schemaName = await migrate(pool, options.schema);
  } catch (error) {
    if (ownsPool) await pool.end();
    throw classified(error);
  }
  const schema = quoteIdentifier(schemaName);
  const records = new PostgresRecords(schema);
  const reader = classifying(pool);
  const reads = readOperations(postgresSession(reader, records, (work) => inSnapshot(pool, work)));
  const writeLock = new Mutex();
  const commits = new OwnCommits();
  const lockKeys = [LOCK_CLASS, lockKeyOf(schemaName)] as const;
  let closed = false;

  function transaction<T>(work: (tx: StoragePort) => Promise<T>): Promise<T> {
    return runWithin(writeLock, lockTimeoutMs, (leftMs) => onOwnConnection(pool, async (db) => {
      await beginLocked(db, lockKeys, leftMs(), idleTransactionTimeoutMs);
      const session = postgresSession(db, records);
      const result = await runScoped(work, (isOpen) => transactionHandle(session, isOpen, postgresStrings));
      commits.committed(await session.commit());
      return result;
    }));
  }

  return {
    pool,
    schema: schemaName,
    get: reads.get,
    list: reads.list,
    insert: (collection, record) => transaction((tx) => tx.insert(collection, record)),
    update: (collection, id, patch) => transaction((tx) => tx.update(collection, id, patch)),
    remove: (collection, id) => transaction((tx) => tx.remove(collection, id)),
    transaction,
    async changeToken() {
      const token = await records.generation(reader);
      commits.seen(token);
      return token;
    },
    writtenSince: (token) => commits.since(token),
    schemaVersion: () => schemaVersion(reader, schema),
    async ping() {
      await reader.query('SELECT 1');
    },
    schemaCurrent: async () => (await schemaVersion(reader, schema)) === MIGRATIONS[MIGRATIONS.length - 1]!.version,
    async explain(collection, query) {
      const checked = checkQuery(query);
      const { sql, params } = records.pageStatement(collection, checked, checked.withTotal);
      const { rows } = await reader.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${sql}`, params);
      return rows.map((row) => row['QUERY PLAN']);
    },
    close: () => writeLock.run(async () => {
      if (closed) return;
      closed = true;
      if (ownsPool) await pool.end();
    }),
  };
}

/** Runs `work` on a connection of its own inside one read-only snapshot (REPEATABLE READ). */
function inSnapshot<T>(pool: pg.Pool, work: (db: Queryable) => Promise<T>): Promise<T> {
  return onOwnConnection(pool, async (db) => {
    await db.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const result = await work(db);
    await db.query('COMMIT');
    return result;
  });
}

/** Runs a transaction's `work` on a connection checked out of the pool for it, rolling back when it fails. */
async function onOwnConnection<T>(pool: pg.Pool, work: (db: Queryable) => Promise<T>): Promise<T> {
  const client = await connectClient(pool);
  return holding(client, async (held) => {
    try {
      return await work(classifying(client));
    } catch (error) {
      if (!held.broken) await client.query('ROLLBACK').catch((rollbackError: Error) => { held.broken = rollbackError; });
      throw classified(error);
    }
  });
}

function milliseconds(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    throw new RangeError(`postgresStorage: ${name} must be a number of milliseconds of at least 0.`);
  }
  return value;
}

/**
 * A host's pool that has no 'error' listener gets one that ignores the errors: an idle connection breaking (a
 * server restart) would otherwise end the process. A host listening itself is left alone.
 */
function hostPool(pool: pg.Pool): pg.Pool {
  if (typeof pool.on === 'function' && typeof pool.listenerCount === 'function' && pool.listenerCount('error') === 0) {
    pool.on('error', () => {});
  }
  return pool;
}

function ownPool(connectionString: string, max: number, connectTimeoutMs: number): pg.Pool {
  const pool = new pg.Pool({ connectionString, max, connectionTimeoutMillis: connectTimeoutMs, keepAlive: true });
  // An idle connection that breaks (a server restart, say) is dropped from the pool; the next query opens
  // another. Without a listener the error would end the process.
  pool.on('error', () => {});
  return pool;
}
