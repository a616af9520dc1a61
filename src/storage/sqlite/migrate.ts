import type BetterSqlite3 from 'better-sqlite3';
import type { Migration } from './schema.js';
import { MIGRATIONS } from './schema.js';

/**
 * Brings the database's schema up to date, all in one write transaction, so two processes opening the same
 * file at once apply each migration once. Refuses a database that a newer version has migrated further.
 */
export function migrate(db: BetterSqlite3.Database, migrations: Migration[] = MIGRATIONS): void {
  const latest = migrations.at(-1)?.version ?? 0;
  db.transaction(() => {
    db.exec(`CREATE TABLE IF NOT EXISTS quire_migrations (
      version INTEGER PRIMARY KEY,
      name TEXT NOT NULL,
      applied_at TEXT NOT NULL
    )`);
    const { version: current } = db.prepare('SELECT coalesce(max(version), 0) AS version FROM quire_migrations').get() as { version: number };
    if (current > latest) {
      throw new Error(`This database has schema version ${current}, newer than the ${latest} this version of quire knows.`);
    }
    const record = db.prepare('INSERT INTO quire_migrations (version, name, applied_at) VALUES (?, ?, ?)');
    for (const migration of migrations) {
      if (migration.version <= current) continue;
      for (const statement of migration.statements) db.exec(statement);
      record.run(migration.version, migration.name, new Date().toISOString());
    }
  }).immediate();
}

export function schemaVersion(db: BetterSqlite3.Database): number {
  const row = db.prepare('SELECT coalesce(max(version), 0) AS version FROM quire_migrations').get() as { version: number };
  return row.version;
}
