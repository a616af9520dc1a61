import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { sqliteStorage, type SqliteStorage } from '../../src/storage/sqlite/index.js';
import { runStorageConformance } from '../../src/testing/storage-conformance.js';
import { WalHeader } from '../../src/storage/sqlite/wal-header.js';
import { WriterThread, writerThreadOf, type WriterState } from '../../src/storage/sqlite/writer-thread.js';

const folder = mkdtempSync(path.join(tmpdir(), 'quire-sqlite-lifecycle-'));
after(() => rmSync(folder, { recursive: true, force: true }));
let files = 0;
const freshFile = () => path.join(folder, `store-${++files}.db`);
/** Short, so that the tests see the thread stop; far longer than a write on a busy machine is not needed. */
const IDLE_MS = 40;

const open = (idleMs = IDLE_MS): { store: SqliteStorage; thread: WriterThread; file: string } => {
  const file = freshFile();
  const store = sqliteStorage({ path: file, writerIdleMs: idleMs });
  return { store, thread: writerThreadOf(store)!, file };
};

/**
 * Resolves when the thread is in `state`, in the turn it moved there (a start or stop has then only begun: what
 * the test does next happens during it).
 */
function until(thread: WriterThread, state: WriterState, withinMs = 20_000): Promise<void> {
  if (thread.state === state) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      thread.onState = null;
      reject(new Error(`the thread is ${thread.state}, not ${state}, after ${withinMs} ms`));
    }, withinMs);
    thread.onState = (now) => {
      if (now !== state) return;
      thread.onState = null;
      clearTimeout(timer);
      resolve();
    };
  });
}

// Every answer the same with the thread stopping whenever it has no work, and starting again for the next.
runStorageConformance('sqlite, a file whose writing thread stops as soon as it is idle', async () => sqliteStorage({ path: freshFile(), writerIdleMs: 0 }));

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const titles = async (store: SqliteStorage) => (await store.list('posts', { orderBy: [{ field: 'id', direction: 'asc' }] })).items.map((item) => item.title);
const LARGE = 'z'.repeat(1024 * 1024 + 10);

describe('sqlite writing thread: started when needed', () => {
  it('is not started by opening the store, reads of small rows, lists without text conditions or change tokens', async () => {
    const { store, thread } = open();
    try {
      assert.equal(thread.state, 'idle');
      await store.get('posts', 1);
      await store.list('posts', { where: [{ field: 'title', op: 'eq', value: 'a' }] });
      await store.changeToken();
      store.writtenSince(await store.changeToken());
      assert.equal(thread.state, 'idle');
      assert.equal(thread.starts, 0);
    } finally {
      await store.close();
    }
  });

  it('is not started by writes the port refuses, which fail as they would on it', async () => {
    const { store, thread } = open();
    try {
      const refused = async (write: Promise<unknown>, code: string) => {
        await assert.rejects(write, (error: { code?: string }) => error.code === code);
      };
      await refused(store.insert('posts', [] as never), 'invalid_record');
      await refused(store.insert('posts', { id: -1, title: 'a' }), 'invalid_record');
      await refused(store.insert('posts', { title: () => 'not JSON' } as never), 'invalid_record');
      await refused(store.update('posts', 1, { id: 2 }), 'invalid_record');
      await refused(store.update('posts', 1, { title: Symbol('not JSON') } as never), 'invalid_record');
      assert.equal(await store.update('posts', 0, { title: 'no such id' }), null);
      assert.equal(await store.remove('posts', -3), false);
      assert.equal(thread.state, 'idle');
      assert.equal(thread.starts, 0);
      assert.equal((await store.insert('posts', { title: 'accepted' })).id, 1);
      assert.equal(thread.starts, 1);
      await refused(store.update('posts', 1, { id: 5 }), 'invalid_record');
      assert.deepEqual(await titles(store), ['accepted']);
    } finally {
      await store.close();
    }
  });

  it('starts with the first write, which runs on it, and stops after the idle period', async () => {
    const { store, thread } = open();
    try {
      const written = store.insert('posts', { title: 'first' });
      await until(thread, 'starting');
      assert.equal((await written).id, 1);
      assert.equal(thread.state, 'running');
      assert.equal(thread.starts, 1);
      await until(thread, 'idle');
      assert.equal(thread.stops, 1);
      assert.deepEqual(await titles(store), ['first']);
    } finally {
      await store.close();
    }
  });

  it('starts for a read of a row over a mebibyte and for a list with a text condition', async () => {
    const { store, thread } = open();
    try {
      const { id } = await store.insert('posts', { title: 'large', content: LARGE });
      await until(thread, 'idle');
      assert.equal((await store.get('posts', id))?.content, LARGE);
      assert.equal(thread.starts, 2, 'the large row was read on the thread');
      await until(thread, 'idle');
      const found = await store.list('posts', { where: [{ field: 'title', op: 'textContains', value: 'LAR' }] });
      assert.deepEqual(found.items.map((item) => item.id), [id]);
      assert.equal(thread.starts, 3, 'the search ran on the thread');
    } finally {
      await store.close();
    }
  });

  it('never stops with the idle period set to Infinity', async () => {
    const { store, thread } = open(Infinity);
    try {
      await store.insert('posts', { title: 'kept running' });
      await sleep(IDLE_MS * 3);
      assert.equal(thread.state, 'running');
    } finally {
      await store.close();
    }
  });

  it('refuses an idle period that is not a number of milliseconds a timer can wait', () => {
    for (const bad of [-1, Number.NaN, 2 ** 31, '30000', null]) {
      assert.throws(() => sqliteStorage({ path: freshFile(), writerIdleMs: bad as number }), (error: Error) => error instanceof RangeError
        && error.message.startsWith('sqliteStorage: writerIdleMs must be a number of milliseconds from 0 to 2147483647, or Infinity'));
    }
  });
});

describe('sqlite writing thread: no write lost or reordered across a start or stop', () => {
  it('writes given while it starts wait for it, and land in the order given', async () => {
    const { store, thread } = open();
    try {
      const first = store.insert('posts', { title: 'p0' });
      await until(thread, 'starting');
      const rest = Array.from({ length: 9 }, (_, index) => store.insert('posts', { title: `p${index + 1}` }));
      const transaction = store.transaction(async (tx) => {
        await tx.insert('posts', { title: 'in a transaction' });
        return tx.update('posts', 1, { title: 'p0, changed' });
      });
      const ids = (await Promise.all([first, ...rest])).map((post) => post.id);
      assert.deepEqual(ids, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
      assert.equal((await transaction)?.title, 'p0, changed');
      assert.equal(thread.starts, 1);
      assert.deepEqual(await titles(store), ['p0, changed', ...Array.from({ length: 9 }, (_, index) => `p${index + 1}`), 'in a transaction']);
    } finally {
      await store.close();
    }
  });

  it('writes given while it stops wait for the stop, then start it again', async () => {
    const { store, thread } = open();
    try {
      await store.insert('posts', { title: 'before' });
      await until(thread, 'stopping');
      const during = [store.insert('posts', { title: 'during 1' }), store.update('posts', 1, { title: 'before, changed' }), store.insert('posts', { title: 'during 2' })];
      await Promise.all(during);
      assert.equal(thread.stops, 1);
      assert.equal(thread.starts, 2);
      assert.deepEqual(await titles(store), ['before, changed', 'during 1', 'during 2']);
    } finally {
      await store.close();
    }
  });

  it('a transaction longer than the idle period is not cut', async () => {
    const { store, thread } = open();
    try {
      await store.insert('posts', { title: 'one' });
      const committed = await store.transaction(async (tx) => {
        await tx.insert('posts', { title: 'two' });
        await sleep(IDLE_MS * 4);
        assert.equal(thread.state, 'running', 'still running in the transaction');
        await tx.insert('posts', { title: 'three' });
        await sleep(IDLE_MS * 2);
        return (await tx.list('posts')).items.length;
      });
      assert.equal(committed, 3);
      assert.equal(thread.stops, 0);
      assert.equal(thread.starts, 1);
      assert.deepEqual(await titles(store), ['one', 'two', 'three']);
      await until(thread, 'idle');
    } finally {
      await store.close();
    }
  });

  it('backups and reads on the thread hold it like writes', async () => {
    const { store, thread } = open();
    try {
      await store.insert('posts', { title: 'large', content: LARGE });
      await until(thread, 'idle');
      const copy = `${freshFile()}.backup`;
      await Promise.all([store.backup(copy), store.get('posts', 1), store.insert('posts', { title: 'small' })]);
      assert.equal(thread.starts, 2);
      const copied = new Database(copy, { readonly: true });
      assert.equal((copied.prepare("SELECT count(*) FROM quire_records WHERE collection = 'posts'").pluck().get() as number) >= 1, true);
      copied.close();
    } finally {
      await store.close();
    }
  });
});

describe('sqlite writing thread: the store\'s own commits across a stop and start', () => {
  it('leaves the WAL and its header as they were when it stops', async () => {
    const { store, thread, file } = open();
    const header = WalHeader.open(file)!;
    try {
      await store.insert('posts', { title: 'one' });
      const before = header.read();
      const walBytes = statSync(`${file}-wal`).size;
      await until(thread, 'idle');
      assert.equal(header.read(), before, 'closing the thread\'s connection neither checkpoints nor restarts the log');
      assert.ok(existsSync(`${file}-wal`) && statSync(`${file}-wal`).size === walBytes);
    } finally {
      header.close();
      await store.close();
    }
  });

  it('carries the steps of its commits: writes since a token taken before a stop are all named after a restart', async () => {
    const { store, thread } = open();
    try {
      const { id } = await store.insert('posts', { title: 'one' });
      const token = await store.changeToken();
      await store.update('posts', id, { title: 'two' });
      await until(thread, 'idle');
      await store.insert('posts', { title: 'three' });
      assert.equal(thread.starts, 2);
      const written = store.writtenSince(token);
      assert.ok(written, 'every commit since the token is the store\'s own: it can tell');
      assert.deepEqual(written.map((write) => [write.id, write.after?.title]), [[id, 'two'], [2, 'three']]);
      assert.equal((await store.get('posts', id))?.title, 'two');
    } finally {
      await store.close();
    }
  });

  it('a commit by another connection while it is stopped breaks the chain: no stale read after the restart', async () => {
    const { store, thread, file } = open();
    const other = new Database(file);
    try {
      const { id } = await store.insert('posts', { title: 'mine' });
      await store.insert('posts', { title: 'second' });
      const token = await store.changeToken();
      assert.equal((await store.get('posts', id))?.title, 'mine');
      assert.deepEqual(await titles(store), ['mine', 'second']);
      await until(thread, 'idle');
      other.prepare("UPDATE quire_records SET data = jsonb_set(data, '$.title', 'theirs') WHERE collection = 'posts' AND id = ?").run(id);
      await store.update('posts', 2, { title: 'second, changed' });
      assert.equal(thread.starts, 2);
      assert.equal(store.writtenSince(token), null, 'a commit not its own lies between: it cannot tell');
      assert.equal((await store.get('posts', id))?.title, 'theirs');
      assert.deepEqual(await titles(store), ['theirs', 'second, changed']);
    } finally {
      other.close();
      await store.close();
    }
  });
});

describe('sqlite writing thread: statistics', () => {
  it('counts the rows changed towards its next PRAGMA optimize across its stops', async () => {
    const { store, thread, file } = open();
    const indexStatistics = () => {
      const reading = new Database(file, { readonly: true });
      try {
        return reading.prepare("SELECT stat FROM sqlite_stat1 WHERE idx = 'quire_records_id'").pluck().get();
      } finally {
        reading.close();
      }
    };
    try {
      // A hundred posts change some 500 rows (their text index's included), half what an optimize waits for.
      for (let run = 0; run < 3; run++) {
        await store.transaction(async (tx) => {
          for (let index = 0; index < 100; index++) await tx.insert('posts', { title: `post ${index}`, content: 'a few words' });
        });
        await until(thread, 'idle');
      }
      assert.equal(thread.starts, 3);
      assert.ok(indexStatistics(), 'the planner\'s statistics were gathered, though no run of the thread changed 1,000 rows');
    } finally {
      await store.close();
    }
  });
});

describe('sqlite writing thread: closing', () => {
  it('while idle, before it ever started, and after it stopped', async () => {
    const never = open();
    await never.store.close();
    assert.equal(never.thread.state, 'closed');
    assert.equal(never.thread.starts, 0);
    const stopped = open();
    await stopped.store.insert('posts', { title: 'one' });
    await until(stopped.thread, 'idle');
    await stopped.store.close();
    assert.equal(stopped.thread.state, 'closed');
    await assert.rejects(stopped.store.insert('posts', { title: 'late' }));
    assert.equal(stopped.thread.starts, 1, 'a closed store never starts it again');
    const reopened = sqliteStorage({ path: stopped.file });
    assert.deepEqual(await titles(reopened), ['one']);
    await reopened.close();
  });

  it('while it starts: the write that started it lands first', async () => {
    const { store, thread, file } = open();
    const writing = store.insert('posts', { title: 'landed' });
    await until(thread, 'starting');
    const closing = store.close();
    assert.equal((await writing).id, 1);
    await closing;
    assert.equal(thread.state, 'closed');
    const reopened = sqliteStorage({ path: file });
    assert.deepEqual(await titles(reopened), ['landed']);
    await reopened.close();
  });

  it('while it starts for a read: the read is answered, the thread ends', async () => {
    const { store, thread } = open();
    await store.transaction(async (tx) => { await tx.insert('posts', { title: 'large', content: LARGE }); });
    await until(thread, 'idle');
    const reading = store.get('posts', 1);
    await until(thread, 'starting');
    const closing = store.close();
    assert.equal((await reading)?.content, LARGE);
    await closing;
    assert.equal(thread.state, 'closed');
  });

  it('while it stops', async () => {
    const { store, thread, file } = open();
    await store.insert('posts', { title: 'one' });
    await until(thread, 'stopping');
    await store.close();
    assert.equal(thread.state, 'closed');
    assert.equal(thread.starts, 1);
    const reopened = sqliteStorage({ path: file });
    assert.deepEqual(await titles(reopened), ['one']);
    await reopened.close();
  });

  it('a WriterThread closed while it starts ends the run it started and runs no work there', async () => {
    const { store, file } = open();
    await store.insert('posts', { title: 'one' });
    const thread = new WriterThread(file, 1000, { idleMs: IDLE_MS });
    const work = thread.with(async (run) => run.call({ op: 'get', collection: 'posts', id: 1 }), async () => 'not run');
    await until(thread, 'starting');
    await thread.close();
    assert.equal(await work, 'not run');
    assert.equal(thread.state, 'closed');
    await store.close();
  });
});

describe('sqlite writing thread: the process', () => {
  it('is not kept alive by the thread or its idle timer', async () => {
    const file = freshFile();
    const script = `
      const { sqliteStorage } = await import(${JSON.stringify(new URL('../../src/storage/sqlite/index.ts', import.meta.url).href)});
      const store = sqliteStorage({ path: ${JSON.stringify(file)}, writerIdleMs: 600000 });
      await store.insert('posts', { title: 'written' });
      console.log('written');`;
    const started = Date.now();
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { timeout: 120_000 });
    assert.equal(stdout.trim(), 'written');
    assert.ok(Date.now() - started < 60_000, 'the process ended long before the idle period');
    const reopened = sqliteStorage({ path: file });
    assert.deepEqual(await titles(reopened), ['written']);
    await reopened.close();
  });
});
