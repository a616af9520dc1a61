import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import Database from 'better-sqlite3';
import type { ListQuery, StoragePort } from '../../src/ports/storage.js';
import { sqliteStorage } from '../../src/storage/sqlite/index.js';
import { idsOf, seed } from '../../src/testing/conformance/support.js';

const folder = mkdtempSync(path.join(tmpdir(), 'quire-sqlite-isolation-'));
after(() => rmSync(folder, { recursive: true, force: true }));
let files = 0;
const freshFile = () => path.join(folder, `store-${++files}.db`);

const needle: ListQuery = { search: { fields: ['title'], terms: ['needle'] }, withTotal: true };

/** Runs a transaction that writes, then waits for `gate` (resolved by the caller) before it ends as `outcome` says. */
function openTransaction(store: StoragePort, outcome: 'commit' | 'fail', inside?: () => Promise<void>) {
  let finish!: () => void;
  const gate = new Promise<void>((resolve) => { finish = resolve; });
  let written!: () => void;
  const writesMade = new Promise<void>((resolve) => { written = resolve; });
  const done = store.transaction(async (tx) => {
    await tx.update('posts', 1, { title: 'needle uncommitted' });
    await tx.insert('posts', { title: 'another needle' });
    assert.equal((await tx.list('posts', needle)).total, 2, 'the transaction finds its own texts');
    await inside?.();
    written();
    await gate;
    if (outcome === 'fail') throw new Error('rolled back');
  });
  done.catch(() => {});
  return { writesMade, finish, done };
}

describe('sqlite store: isolation of reads', () => {
  it('reads a file beside a transaction on their own connection, search and change token included', async () => {
    const store = sqliteStorage({ path: freshFile() });
    await seed(store, 'posts', [{ title: 'one' }, { title: 'two' }]);
    const token = await store.changeToken();
    const running = openTransaction(store, 'commit');
    await running.writesMade;
    assert.deepEqual(await store.list('posts', needle), { items: [], total: 0 });
    assert.equal((await store.get('posts', 1))!.title, 'one');
    assert.equal(await store.changeToken(), token);
    running.finish();
    await running.done;
    assert.deepEqual(idsOf(await store.list('posts', needle)), [1, 3]);
    assert.notEqual(await store.changeToken(), token);
    await store.close();
  });

  it('gives \':memory:\' a private file that has no name on disk', async () => {
    const store = sqliteStorage({ path: ':memory:' });
    const [main] = store.database.pragma('database_list') as { file: string }[];
    assert.ok(main!.file !== '', 'a file, so that a second connection can read it');
    assert.equal(existsSync(main!.file), false);
    assert.equal(existsSync(path.dirname(main!.file)), false);
    await seed(store, 'posts', [{ title: 'one' }]);
    assert.equal((await store.get('posts', 1))!.title, 'one');
    await store.close();
  });

  it('opens a second connection for a host\'s connection to a file in WAL mode, and leaves it open on close', async () => {
    const file = freshFile();
    const host = new Database(file);
    host.pragma('journal_mode = WAL');
    const store = sqliteStorage({ database: host });
    await seed(store, 'posts', [{ title: 'one' }]);
    const running = openTransaction(store, 'fail');
    await running.writesMade;
    assert.deepEqual(await store.list('posts', needle), { items: [], total: 0 }, 'read at once, without the writes');
    running.finish();
    await assert.rejects(running.done, /rolled back/);
    assert.deepEqual(await store.list('posts', needle), { items: [], total: 0 });
    await store.close();
    assert.equal(host.open, true);
    host.close();
  });

  for (const [name, connect] of [
    ['in memory', () => new Database(':memory:')],
    ['to a file not in WAL mode', () => new Database(freshFile())],
  ] as const) {
    it(`holds reads back while a transaction runs on a host's connection ${name}, except its own work's`, async () => {
      const host = connect();
      const store = sqliteStorage({ database: host });
      await seed(store, 'posts', [{ title: 'one' }]);
      const token = await store.changeToken();
      let seenFromWork: string | undefined;
      const running = openTransaction(store, 'fail', async () => {
        // The work itself may read through the outer store (it sees its own writes there): no deadlock.
        seenFromWork = (await store.get('posts', 1))!.title as string;
      });
      await running.writesMade;
      assert.equal(seenFromWork, 'needle uncommitted');
      let answered = false;
      const outside = store.list('posts', needle).then((result) => { answered = true; return result; });
      const tokenOutside = store.changeToken();
      await delay(20);
      assert.equal(answered, false, 'a read outside waits for the transaction');
      running.finish();
      await assert.rejects(running.done, /rolled back/);
      assert.deepEqual(await outside, { items: [], total: 0 }, 'and never sees what it rolled back');
      assert.notEqual(await tokenOutside, token, 'a rollback moves this token, read after the transaction');
      assert.equal((await store.get('posts', 1))!.title, 'one');
      await store.close();
      host.close();
    });
  }
});
