import type pg from 'pg';
import { holding } from './availability.js';
import type { Migration, SchemaContext } from './schema.js';
import { MIGRATIONS } from './schema.js';

/** The advisory-lock class quire's locks use (the second key tells them apart). */
export const LOCK_CLASS = 0x71756972;
const MIGRATION_LOCK = 0;

/** A quoted identifier. */
export function quoteIdentifier(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** A stable 32-bit number for a schema name: the second key of its write lock. */
export function lockKeyOf(schemaName: string): number {
  let hash = 0x811c9dc5;
  for (const character of schemaName) {
    hash ^= character.codePointAt(0)!;
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash | 0) === MIGRATION_LOCK ? 1 : hash | 0;
}

/**
 * Brings the schema up to date in one transaction, holding an advisory lock so processes opening the same
 * database at once apply each migration once. Refuses a schema that a newer version has migrated further.
 * Resolves to the schema's name (`schemaName`, or the connection's current schema when that is undefined).
 */
export async function migrate(pool: pg.Pool, schemaName: string | undefined, migrations: Migration[] = MIGRATIONS): Promise<string> {
  const latest = migrations.at(-1)?.version ?? 0;
  const client = await pool.connect();
  return holding(client, async (held) => {
    await client.query('BEGIN');
    try {
      await client.query('SELECT pg_advisory_xact_lock($1, $2)', [LOCK_CLASS, MIGRATION_LOCK]);
      const name = schemaName ?? (await client.query<{ name: string | null }>('SELECT current_schema() AS name')).rows[0]?.name;
      if (!name) throw new Error('The connection has no current schema: pass the `schema` option.');
      const schema = quoteIdentifier(name);
      const existing = await client.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [name]);
      if (existing.rowCount === 0) await client.query(`CREATE SCHEMA ${schema}`);
      await client.query(`CREATE TABLE IF NOT EXISTS ${schema}.quire_migrations (
        version integer PRIMARY KEY,
        name text NOT NULL,
        applied_at timestamptz NOT NULL DEFAULT now()
      )`);
      const current = Number((await client.query<{ version: number }>(
        `SELECT coalesce(max(version), 0) AS version FROM ${schema}.quire_migrations`,
      )).rows[0]!.version);
      if (current > latest) {
        throw new Error(`Schema ${name} has version ${current}, newer than the ${latest} this version of quire knows.`);
      }
      const pending = migrations.filter((migration) => migration.version > current);
      if (pending.length > 0) {
        const context: SchemaContext = { schema, trigramOps: await trigramOperatorClass(client) };
        for (const migration of pending) {
          for (const statement of migration.statements(context)) await client.query(statement);
          await client.query(`INSERT INTO ${schema}.quire_migrations (version, name) VALUES ($1, $2)`, [migration.version, migration.name]);
        }
      }
      await client.query('COMMIT');
      return name;
    } catch (error) {
      await client.query('ROLLBACK').catch((rollbackError: Error) => { held.broken = rollbackError; });
      throw error;
    }
  });
}

/** Installs pg_trgm when allowed (it is a trusted extension), and names its GIN operator class. */
async function trigramOperatorClass(client: pg.PoolClient): Promise<string | null> {
  await client.query('SAVEPOINT quire_trigram');
  try {
    await client.query('CREATE EXTENSION IF NOT EXISTS pg_trgm');
    await client.query('RELEASE SAVEPOINT quire_trigram');
  } catch {
    await client.query('ROLLBACK TO SAVEPOINT quire_trigram');
    await client.query('RELEASE SAVEPOINT quire_trigram');
  }
  const { rows } = await client.query<{ name: string }>(
    `SELECT quote_ident(n.nspname) || '.gin_trgm_ops' AS name
       FROM pg_opclass c JOIN pg_namespace n ON n.oid = c.opcnamespace JOIN pg_am a ON a.oid = c.opcmethod
      WHERE c.opcname = 'gin_trgm_ops' AND a.amname = 'gin'`,
  );
  return rows[0]?.name ?? null;
}

export async function schemaVersion(pool: Pick<pg.Pool, 'query'>, schema: string): Promise<number> {
  const { rows } = await pool.query<{ version: number }>(`SELECT coalesce(max(version), 0) AS version FROM ${schema}.quire_migrations`);
  return Number(rows[0]!.version);
}
