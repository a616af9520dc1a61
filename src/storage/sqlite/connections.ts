import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import type BetterSqlite3 from 'better-sqlite3';
import { foldText } from '../sql/records.js';
import { FOLD_FUNCTION } from './dialect.js';
import { explainOpenFailure } from './migrate.js';

/** The store's writing connection; `privateFile` names the temporary file standing for `':memory:'`. */
export interface OpenedWriter {
  db: BetterSqlite3.Database;
  privateFile: string | null;
}

/**
 * Opens the file the store writes through, in WAL mode. `':memory:'` becomes a temporary file instead, whose
 * name is removed as soon as the reading connection has it open too (see `forgetPrivateFile`): a private
 * in-memory database cannot be opened by a second connection, and readers need their own.
 */
export function openWriter(file: string, busyTimeoutMs: number, readonly = false): OpenedWriter {
  if (readonly) return { db: openReadOnly(file, busyTimeoutMs), privateFile: null };
  const privateFile = file === ':memory:' ? temporaryFile() : null;
  const db = openDatabase(privateFile ?? file, { timeout: busyTimeoutMs }, false);
  try {
    enterWal(db, busyTimeoutMs);
    // Statistics from a sample of each index are as good for choosing plans and keep `optimize` quick.
    db.pragma('analysis_limit = 1000');
    // With WAL, NORMAL loses no committed data on a crash of the process, only (at worst) on a power loss; a
    // private file is gone with the process anyway.
    db.pragma(privateFile ? 'synchronous = OFF' : 'synchronous = NORMAL');
  } catch (error) {
    db.close();
    if (privateFile) forgetPrivateFile(privateFile);
    throw error;
  }
  return { db, privateFile };
}

/**
 * Switches the file to WAL mode. Several processes opening a new file at once can find the switch refused with
 * SQLITE_BUSY at once, without SQLite's own wait for another connection's lock, so it is tried again until the
 * busy timeout runs out. Opening is synchronous, so the waits between tries are too; they happen only then.
 */
function enterWal(db: BetterSqlite3.Database, busyTimeoutMs: number): void {
  const deadline = Date.now() + busyTimeoutMs;
  for (let waitMs = 2; ; waitMs = Math.min(waitMs * 2, 100)) {
    try {
      db.pragma('journal_mode = WAL');
      return;
    } catch (error) {
      if ((error as { code?: string }).code !== 'SQLITE_BUSY' || Date.now() >= deadline) throw error;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, waitMs);
    }
  }
}

/** An existing database opened for reading only (an export, a file this user may not write). */
function openReadOnly(file: string, busyTimeoutMs: number): BetterSqlite3.Database {
  const db = openDatabase(file, { timeout: busyTimeoutMs, readonly: true, fileMustExist: true }, true);
  try {
    // Reading a WAL database needs its -shm file, which SQLite cannot make in a folder it may not write.
    db.prepare('SELECT count(*) FROM sqlite_master').get();
  } catch (error) {
    db.close();
    if ((error as { code?: string }).code !== 'SQLITE_READONLY_DIRECTORY') throw error;
    throw Object.assign(new Error(`cannot read ${file}: SQLite needs to write beside it, in a folder this user may not write`), { code: 'SQLITE_READONLY_DIRECTORY' });
  }
  return db;
}

/** Opens a connection, saying why when the file cannot be opened (no folder, no permission). */
function openDatabase(file: string, options: BetterSqlite3.Options, readonly: boolean): BetterSqlite3.Database {
  try {
    return new Database(file, options);
  } catch (error) {
    throw new Error(explainOpenFailure(file, error as Error, readonly));
  }
}

/**
 * A read-only connection to the writer's file, which sees committed data only, or null when there can be none:
 * the writer is a host's in-memory connection, or its file is not in WAL mode (where a long transaction would
 * lock readers out until its commit).
 */
export function openReader(writer: BetterSqlite3.Database, busyTimeoutMs: number): BetterSqlite3.Database | null {
  if (writer.memory || String(writer.pragma('journal_mode', { simple: true })).toLowerCase() !== 'wal') return null;
  const main = (writer.pragma('database_list') as { name: string; file: string }[]).find((entry) => entry.name === 'main');
  if (!main?.file) return null;
  const reader = new Database(main.file, { readonly: true, fileMustExist: true, timeout: busyTimeoutMs });
  try {
    // Opens the write-ahead log and its index now, while their names still lead to them.
    reader.prepare('SELECT count(*) FROM sqlite_schema').get();
  } catch (error) {
    reader.close();
    throw error;
  }
  return reader;
}

/** A new file in a folder of its own under the system's temporary folder, or null when none can be made. */
function temporaryFile(): string | null {
  try {
    return path.join(mkdtempSync(path.join(tmpdir(), 'quire-memory-')), 'store.db');
  } catch {
    // The database stays in memory, without a second connection (see openReader).
    return null;
  }
}

/** Removes the temporary file behind `':memory:'` (and its log), which the open connections keep using. */
export function forgetPrivateFile(file: string): void {
  rmSync(path.dirname(file), { recursive: true, force: true });
}

/** Thrown by a connection's fold function, given `limit`, for a text longer than `limit.chars`. */
export class LongText extends Error {}

/**
 * The case folding text conditions use, as the SQL function their statements call. With `limit`, a longer text
 * is not folded here: the statement fails with `LongText`, to be run where the time does not matter.
 */
export function registerFold(connection: BetterSqlite3.Database, limit?: { chars: number }): void {
  connection.function(FOLD_FUNCTION, { deterministic: true }, (value: unknown) => {
    if (typeof value !== 'string') return '';
    if (limit && value.length > limit.chars) throw new LongText('a text to fold is too long for this thread');
    return foldText(value);
  });
}
