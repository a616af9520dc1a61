import pg from 'pg';
import type { ListQuery, StoragePort } from '../../ports/storage.js';
import { storageError } from '../errors.js';
import { Mutex } from '../mutex.js';
import { checkQuery } from '../query-check.js';
import type { StringRule } from '../sql/records.js';
import { readOperations, runScoped, transactionHandle } from '../sql/session.js';
import { LOCK_CLASS, lockKeyOf, migrate, quoteIdentifier, schemaVersion } from './migrate.js';
import { MIGRATIONS } from './schema.js';
import { postgresSession, PostgresRecords } from './records.js';

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
  /** The store makes its own pool (`max` connections, default 10) and ends it on `close()`. */
  | { connectionString: string; max?: number }
  /** A host's pool. The store never ends it. */
  | { pool: PostgresPool }
) & {
  /** The schema holding quire's tables, created when missing. Default: the connection's current schema. */
  schema?: string;
};

export interface PostgresStorage extends StoragePort {
  readonly pool: PostgresPool;
  /** The schema the tables live in. */
  readonly schema: string;
  schemaVersion(): Promise<number>;
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
  const ownsPool = !('pool' in options);
  const pool = 'pool' in options ? options.pool as pg.Pool : ownPool(options.connectionString, options.max ?? 10);
  let schemaName: string;
  try {
    schemaName = await migrate(pool, options.schema);
  } catch (error) {
    if (ownsPool) await pool.end();
    throw error;
  }
  const schema = quoteIdentifier(schemaName);
  const records = new PostgresRecords(schema);
  const reads = readOperations(postgresSession(pool, records));
  const writeLock = new Mutex();
  const lockStatement = `BEGIN; SELECT pg_advisory_xact_lock(${LOCK_CLASS}, ${lockKeyOf(schemaName)})`;
  let closed = false;

  async function transaction<T>(work: (tx: StoragePort) => Promise<T>): Promise<T> {
    return writeLock.run(async () => {
      const client = await pool.connect();
      let broken: Error | undefined;
      try {
        await client.query(lockStatement);
        const session = postgresSession(client, records);
        const result = await runScoped(work, (isOpen) => transactionHandle(session, isOpen, postgresStrings));
        await session.commit();
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch((rollbackError: Error) => { broken = rollbackError; });
        throw error;
      } finally {
        client.release(broken);
      }
    });
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
    changeToken: () => records.generation(pool),
    schemaVersion: () => schemaVersion(pool, schema),
    schemaCurrent: async () => (await schemaVersion(pool, schema)) === MIGRATIONS[MIGRATIONS.length - 1]!.version,
    async explain(collection, query) {
      const checked = checkQuery(query);
      const { sql, params } = records.pageStatement(collection, checked, checked.withTotal);
      const { rows } = await pool.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${sql}`, params);
      return rows.map((row) => row['QUERY PLAN']);
    },
    close: () => writeLock.run(async () => {
      if (closed) return;
      closed = true;
      if (ownsPool) await pool.end();
    }),
  };
}

function ownPool(connectionString: string, max: number): pg.Pool {
  const pool = new pg.Pool({ connectionString, max });
  // An idle connection that breaks (a server restart, say) is dropped from the pool; the next query opens
  // another. Without a listener the error would end the process.
  pool.on('error', () => {});
  return pool;
}
