import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { sqliteStorage } from '../../src/storage/sqlite/index.js';

const folder = mkdtempSync(join(tmpdir(), 'quire-sqlite-open-'));
after(() => rmSync(folder, { recursive: true, force: true }));

/**
 * Another process in a write transaction on a new file, as a second process starting at the same time is while it
 * makes the schema: SQLite answers the switch to WAL with SQLITE_BUSY at once rather than wait (a wait could
 * deadlock).
 */
function holdWriteLock(file: string, holdMs: number): Promise<{ released: Promise<void> }> {
  const script = `
    const Database = require('better-sqlite3');
    const db = new Database(${JSON.stringify(file)});
    db.exec('BEGIN IMMEDIATE'); db.exec('CREATE TABLE other (id INTEGER)');
    process.stdout.write('held\\n');
    setTimeout(() => { db.exec('ROLLBACK'); db.close(); }, ${holdMs});`;
  const child = spawn(process.execPath, ['-e', script], { cwd: process.cwd(), stdio: ['ignore', 'pipe', 'inherit'] });
  const released = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    child.stdout.once('data', () => resolve({ released }));
    child.once('error', reject);
  });
}

describe('opening a SQLite file', () => {
  it('waits for another process that holds the new file, instead of failing at the switch to WAL', async () => {
    const file = join(folder, 'held.db');
    new Database(file).close();
    const { released } = await holdWriteLock(file, 300);
    const storage = sqliteStorage({ path: file });
    try {
      const { items } = await storage.list('posts', {});
      assert.deepEqual(items, []);
    } finally {
      await storage.close?.();
      await released;
    }
  });

  it('still refuses once the busy timeout has passed', async () => {
    const file = join(folder, 'long.db');
    new Database(file).close();
    const { released } = await holdWriteLock(file, 1500);
    assert.throws(() => sqliteStorage({ path: file, busyTimeoutMs: 200 }), /database is locked/);
    await released;
  });
});
