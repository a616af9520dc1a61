import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import Database from 'better-sqlite3';
import { sqliteStorage } from '../../src/storage/sqlite/index.js';
import { SAMPLE } from '../wxr/fixture.js';
import { assertNoStackTrace, bin } from './helpers.js';

/** Permissions mean nothing to root: as root, the commands run as `nobody`. */
const asUser = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {};
const folder = mkdtempSync(join(tmpdir(), 'quire-sqlite-files-'));
chmodSync(folder, 0o755);
after(() => {
  chmodSync(folder, 0o755);
  for (const name of readdirSync(folder)) chmodSync(join(folder, name), 0o755);
  rmSync(folder, { recursive: true, force: true });
});

function quire(args: string[], input?: string) {
  const result = spawnSync(process.execPath, [bin, ...args], { cwd: folder, encoding: 'utf8', input, ...asUser, env: { ...process.env, QUIRE_ADMIN_APP_PASSWORD: '' } });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

function quireAsOwner(args: string[]) {
  const result = spawnSync(process.execPath, [bin, ...args], { cwd: folder, encoding: 'utf8' });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('the SQLite file of quire import, export and serve', () => {
  test('a store the user may only read is exported, also from a folder it may not write', async () => {
    const readOnly = join(folder, 'read-only');
    mkdirSync(readOnly);
    const data = join(readOnly, 'site.db');
    const storage = sqliteStorage({ path: data });
    const { createCms } = await import('../../src/cms.js');
    await createCms({ storage }).importWxr(SAMPLE);
    await storage.close();
    chmodSync(data, 0o444);
    chmodSync(readOnly, 0o555);
    const exported = quire(['export', '--data', data]);
    assert.equal(exported.code, 0, exported.stderr);
    assert.equal(exported.stdout.match(/<item>/g)?.length, 11);
    assert.deepEqual(readdirSync(readOnly), ['site.db']);
  });

  test('a folder the user may not write is named with the reason', () => {
    const closed = join(folder, 'closed');
    mkdirSync(closed);
    chmodSync(closed, 0o555);
    const refused = quire(['serve', '--port', '0', '--data', join(closed, 'site.db')]);
    assert.equal(refused.code, 1);
    assert.equal(refused.stderr, `quire: cannot create ${join(closed, 'site.db')}: permission denied to write in the folder ${closed}\n`);
  });

  test('another program\'s database is refused, naming the file, and left as it was', () => {
    const other = join(folder, 'notes.db');
    const database = new Database(other);
    database.exec('CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT); INSERT INTO notes (body) VALUES (\'keep me\')');
    database.close();
    for (const args of [['serve', '--port', '0'], ['import', 'missing.xml'], ['export']]) {
      const refused = quireAsOwner([...args, '--data', other]);
      assert.equal(refused.code, 1, args.join(' '));
      assert.equal(refused.stderr, `quire: ${other} is not a quire database: it holds another program's tables (notes). Choose another file.\n`);
      assertNoStackTrace(refused.stderr);
    }
    const after = new Database(other, { readonly: true });
    const tables = after.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all();
    after.close();
    assert.deepEqual(tables, ['notes']);
    assert.throws(() => sqliteStorage({ path: other }), /notes\.db is not a quire database/);
  });

  test('a missing file is not created by an export', () => {
    const missing = join(folder, 'nothing.db');
    const refused = quireAsOwner(['export', '--data', missing]);
    assert.equal(refused.code, 1);
    assert.equal(refused.stderr, `quire: cannot read ${missing}: there is no such file\n`);
    assert.ok(!existsSync(missing));
  });
});
