import { accessSync, constants, existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
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

/**
 * A database file quire did not make, with tables of its own, is another program's: adding quire's tables to it
 * would go unnoticed. (A host that shares its own database on purpose passes its connection instead.)
 */
export function refuseForeignDatabase(db: BetterSqlite3.Database, path: string): void {
  const tables = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name").all() as { name: string }[])
    .map((row) => row.name);
  if (tables.length === 0 || tables.includes('quire_migrations')) return;
  const named = tables.slice(0, 3).join(', ') + (tables.length > 3 ? `, and ${tables.length - 3} more` : '');
  throw new Error(`${path} is not a quire database: it holds another program's tables (${named}). Choose another file.`);
}

/** Without writing, a database can only be read at the schema this version of quire writes. */
export function requireCurrentSchema(db: BetterSqlite3.Database, path: string, migrations: Migration[] = MIGRATIONS): void {
  const latest = migrations.at(-1)?.version ?? 0;
  const hasTable = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'quire_migrations'").get() !== undefined;
  const current = hasTable ? schemaVersion(db) : 0;
  if (current !== latest) {
    throw new Error(`${path} has schema version ${current}, not the ${latest} this version of quire reads; open it once for writing to bring it up to date.`);
  }
}

/** SQLite's "unable to open database file" names neither the file nor the reason; this says which applies. */
export function explainOpenFailure(path: string, error: Error, readonly: boolean): string {
  const folder = dirname(resolve(path));
  if (readonly && !existsSync(path)) return `cannot read ${path}: there is no such file`;
  if (!existsSync(folder)) return `cannot open ${path}: the folder ${folder} does not exist`;
  const writable = (target: string) => {
    try {
      accessSync(target, constants.W_OK);
      return true;
    } catch {
      return false;
    }
  };
  if (!readonly && !existsSync(path) && !writable(folder)) {
    return `cannot create ${path}: permission denied to write in the folder ${folder}`;
  }
  try {
    accessSync(path, constants.R_OK);
  } catch {
    return `cannot open ${path}: permission denied to read it`;
  }
  return `cannot open ${path}: ${error.message}`;
}
