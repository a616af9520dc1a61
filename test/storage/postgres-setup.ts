/**
 * The PostgreSQL of one test file: a server (`startTestPostgres`), a pool on it for the tests' own statements,
 * schema names of their own, all ended after the file's tests.
 */
import { after, it } from 'node:test';
import pg from 'pg';
import { startTestPostgres, type TestPostgres } from './postgres-server.js';

export interface PostgresForTests {
  readonly server: TestPostgres;
  /** Ended after the tests, before the server stops. A connection the server drops while idle is no error. */
  readonly pool: pg.Pool;
  /** A schema name not used before, also in a database kept across runs (`QUIRE_TEST_POSTGRES_URL`). */
  freshSchema(): string;
  /** Runs `close` after the tests, before the pool ends and the server stops; the last given runs first. */
  closeFirst(close: () => unknown): void;
}

export interface PostgresForTestsOptions {
  /** Schema names begin with it. */
  schemaPrefix: string;
  /** The most connections of `pool`. */
  poolSize?: number;
  /** Whether the tests restart the server (then it must be a private one). */
  restarts?: boolean;
}

/**
 * Starts the server for the tests of the calling file (or suite) and stops it after them. With no server to be had,
 * the tests are one skipped test named `title`, and the answer is null.
 */
export async function postgresForTests(title: string, options: PostgresForTestsOptions): Promise<PostgresForTests | null> {
  const outcome = await startTestPostgres();
  if ('skip' in outcome) {
    it(title, { skip: outcome.skip }, () => {});
    return null;
  }
  const { server } = outcome;
  if (options.restarts && !server.restart) {
    it(title, { skip: 'needs a private server (QUIRE_TEST_POSTGRES_URL is set)' }, () => {});
    return null;
  }
  const pool = new pg.Pool({ connectionString: server.connectionString, max: options.poolSize ?? 2 });
  pool.on('error', () => {});
  const closers: (() => unknown)[] = [];
  after(async () => {
    for (const close of closers.reverse()) await close();
    await pool.end();
    await server.stop();
  });
  const run = `${Date.now().toString(36)}_${process.pid}`;
  let schemas = 0;
  return {
    server,
    pool,
    freshSchema: () => `${options.schemaPrefix}_${run}_${++schemas}`,
    closeFirst: (close) => void closers.push(close),
  };
}
