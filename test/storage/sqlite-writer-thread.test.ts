import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import type { StoragePort } from '../../src/ports/storage.js';
import { sqliteStorage } from '../../src/storage/sqlite/index.js';
import { headerWatch, ownCommits } from '../../src/storage/sqlite/own-commits.js';
import { SqliteRecords } from '../../src/storage/sqlite/records.js';
import { ownStep, WalHeader } from '../../src/storage/sqlite/wal-header.js';
import { localWriting, oneAtATime, threadWriting } from '../../src/storage/sqlite/writing.js';
import { WriterThread, writerThreadOf } from '../../src/storage/sqlite/writer-thread.js';
import { runStorageConformance } from '../../src/testing/storage-conformance.js';
import { sqlStoreChecks } from './sql-store-checks.js';

const folder = mkdtempSync(path.join(tmpdir(), 'quire-sqlite-thread-'));
after(() => rmSync(folder, { recursive: true, force: true }));
let files = 0;
const freshFile = () => path.join(folder, `store-${++files}.db`);

runStorageConformance('sqlite, a file written on its own thread', async () => sqliteStorage({ path: freshFile() }));
sqlStoreChecks(async () => sqliteStorage({ path: freshFile() }));

/** 8 MiB of text, as an author's two largest fields may hold each. */
const SIZE = 8 * 1024 * 1024;
const fill = (unit: string) => unit.repeat(Math.ceil(SIZE / unit.length)).slice(0, SIZE);

/** This thread's CPU time so far (Linux: its scheduler statistics), in milliseconds; null elsewhere. */
function mainThreadCpuMs(): number | null {
  try {
    return Number(readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'latin1').split(' ')[0]) / 1e6;
  } catch {
    return null;
  }
}

/**
 * The main thread's CPU time within the longest gap between ticks of a 5 ms timer while `work` runs, and the
 * calls of `JSON.parse` and `JSON.stringify` on a megabyte or more made on this thread meanwhile. CPU time, not
 * wall time: on a busy machine a gap also holds time spent waiting for a core.
 */
async function mainThreadHold(work: () => Promise<unknown>): Promise<{ cpuMs: number | null; longJson: number }> {
  const { parse, stringify } = JSON;
  let longJson = 0;
  JSON.parse = ((text: string, reviver?: Parameters<typeof parse>[1]) => {
    if (typeof text === 'string' && text.length >= 1024 * 1024) longJson += 1;
    return parse(text, reviver);
  }) as typeof JSON.parse;
  JSON.stringify = ((value: unknown, ...rest: unknown[]) => {
    const text = (stringify as (...args: unknown[]) => string)(value, ...rest);
    if (typeof text === 'string' && text.length >= 1024 * 1024) longJson += 1;
    return text;
  }) as typeof JSON.stringify;
  let longest = 0;
  let last = mainThreadCpuMs();
  const ticker = setInterval(() => {
    const now = mainThreadCpuMs();
    if (now !== null && last !== null) longest = Math.max(longest, now - last);
    last = now;
  }, 5);
  try {
    await work();
  } finally {
    clearInterval(ticker);
    JSON.parse = parse;
    JSON.stringify = stringify;
  }
  const now = mainThreadCpuMs();
  if (now !== null && last !== null) longest = Math.max(longest, now - last);
  return { cpuMs: now === null ? null : longest, longJson };
}

describe('sqlite store on a file: a record of two 8 MiB texts', () => {
  it('is written, read, listed and searched without holding the main thread 50 ms at a time', async () => {
    const store = sqliteStorage({ path: freshFile() });
    try {
      await store.insert('posts', { type: 'post', title: 'Small', content: 'small' });
      const content = fill('"Quoted", ');
      const excerpt = fill('\u201ctwo-byte\u2019 ');
      let id = 0;
      const holds = [
        await mainThreadHold(async () => ({ id } = await store.insert('posts', { type: 'post', title: 'Large', content }))),
        await mainThreadHold(() => store.transaction(async (tx) => {
          await tx.update('posts', id, { excerpt });
          await tx.insert('revisions', { parent: id, content, excerpt });
        })),
        await mainThreadHold(async () => assert.equal((await store.get('posts', id))?.excerpt, excerpt)),
        await mainThreadHold(async () => assert.equal((await store.list('posts', { orderBy: [{ field: 'id', direction: 'asc' }] })).items[1]!.content, content)),
        await mainThreadHold(async () => {
          const found = await store.list('posts', { where: [{ field: 'excerpt', op: 'textContains', value: 'TWO-BYTE\u2019' }] });
          assert.deepEqual(found.items.map((item) => item.id), [id]);
        }),
      ];
      for (const [step, hold] of holds.entries()) {
        assert.equal(hold.longJson, 0, `step ${step}: no JSON of a megabyte made or read on the main thread`);
        if (hold.cpuMs !== null) assert.ok(hold.cpuMs < 50, `step ${step}: ${hold.cpuMs.toFixed(1)} ms of main-thread CPU between two ticks`);
      }
      const reopened = new Database(store.database.prepare('PRAGMA database_list').all().map((row) => (row as { file: string }).file)[0]!, { readonly: true });
      const stored = reopened.prepare("SELECT json(data) AS data FROM quire_records WHERE collection = 'posts' AND id = ?").get(id) as { data: string };
      reopened.close();
      assert.deepEqual(JSON.parse(stored.data), { type: 'post', title: 'Large', content, excerpt });
    } finally {
      await store.close();
    }
  });
});

describe('sqlite store on a file: its writing thread', () => {
  it('is where writes run, and ends with the store', async () => {
    const store = sqliteStorage({ path: freshFile() });
    const thread = writerThreadOf(store);
    assert.ok(thread, 'a store on its own file writes on a thread');
    await store.insert('posts', { title: 'a' });
    assert.equal(thread.state, 'running');
    await store.close();
    assert.equal(thread.state, 'closed', 'closing the store ends its thread');
    assert.equal(writerThreadOf(sqliteStorage({ path: ':memory:' })), null, 'a private database is written on the main thread');
  });

  it('stopping in a transaction fails that transaction with store_unavailable, loses nothing committed, and writes go on', async () => {
    const store = sqliteStorage({ path: freshFile() });
    try {
      const kept = await store.insert('posts', { title: 'kept' });
      const token = await store.changeToken();
      const thread = writerThreadOf(store)!;
      await assert.rejects(store.transaction(async (tx) => {
        await tx.insert('posts', { title: 'lost' });
        await thread.terminate();
        await tx.update('posts', kept.id, { title: 'changed' });
      }), (error: { code?: string }) => error.code === 'store_unavailable');
      assert.deepEqual((await store.list('posts')).items.map((item) => item.title), ['kept']);
      const later = await store.insert('posts', { title: 'after' });
      assert.equal(later.id, 2, 'the rolled-back insert took no id');
      await store.transaction(async (tx) => { await tx.update('posts', kept.id, { title: 'renamed' }); });
      assert.deepEqual((await store.list('posts')).items.map((item) => item.title), ['renamed', 'after']);
      const written = store.writtenSince(token);
      assert.ok(written === null || written.length === 2, 'the writes since are all named, or none');
    } finally {
      await store.close();
    }
  });

  it('stopping between writes: the next ones run on the main thread', async () => {
    const store = sqliteStorage({ path: freshFile() });
    try {
      const first = await store.insert('posts', { title: 'one', content: fill('x') });
      await writerThreadOf(store)!.terminate();
      const second = await store.insert('posts', { title: 'two' });
      assert.equal((await store.get('posts', first.id))?.content, fill('x'), 'a large row is read on the main thread then');
      assert.deepEqual((await store.list('posts')).items.map((item) => item.id), [first.id, second.id]);
    } finally {
      await store.close();
    }
  });

  it('closing while a write runs lets it finish first', async () => {
    const store = sqliteStorage({ path: freshFile() });
    const writing = store.insert('posts', { title: 'large', content: fill('y') });
    const closing = store.close();
    const written = await writing;
    await closing;
    assert.equal(written.id, 1);
    await assert.rejects(store.insert('posts', { title: 'late' }));
  });
});

describe('sqlite writing thread that cannot start', () => {
  it('leaves the writes to the main thread', async () => {
    const file = freshFile();
    const store = sqliteStorage({ path: file });
    await store.insert('posts', { title: 'seed' });
    const db = store.database as unknown as Database.Database;
    const broken = new WriterThread(file, 1000, { entry: new URL('./no-such-worker.js', import.meta.url) });
    assert.equal(await broken.with(async () => 'there', async () => 'here'), 'here');
    assert.equal(broken.state, 'unavailable');
    assert.equal(broken.unavailable?.code, 'store_unavailable');
    const header = WalHeader.open(file)!;
    const commits = ownCommits(headerWatch(header));
    const local = localWriting(db, new SqliteRecords(db), commits, (run) => run(), () => {});
    const writing: Pick<StoragePort, 'insert' | 'transaction'> = oneAtATime(threadWriting(broken, local, commits));
    const inserted = await writing.insert('posts', { title: 'here' });
    await writing.transaction(async (tx) => { await tx.update('posts', inserted.id, { title: 'there' }); });
    assert.deepEqual((await store.list('posts')).items.map((item) => item.title), ['seed', 'there']);
    header.close();
    await broken.close();
    await store.close();
  });
});

describe('sqlite store: large rows read elsewhere', () => {
  it('are read again when the data moved while they were read', async () => {
    const file = freshFile();
    const store = sqliteStorage({ path: file });
    const reader = new Database(file, { readonly: true });
    try {
      const { id } = await store.insert('posts', { title: 'first', content: fill('a') });
      let reads = 0;
      let selects = 0;
      const version = reader.prepare('PRAGMA data_version').pluck();
      const records = new SqliteRecords(reader, null, () => String(version.get()), {
        minBytes: 1024,
        read: async (collection, ids) => {
          reads += 1;
          // A commit lands while the rows are read: what was read may belong to another state.
          if (reads === 1) await store.update('posts', id, { title: 'second' });
          return ids.map((one) => ({ id: one, record: { id: one, title: reads === 1 ? 'stale' : 'fresh' }, size: 1 }));
        },
        foldLimit: { chars: Infinity },
        select: async () => {
          selects += 1;
          if (selects === 1) await store.update('posts', id, { title: 'third' });
          return { ids: [id] };
        },
      });
      assert.deepEqual(await records.get('posts', id), { id, title: 'fresh' });
      assert.equal(reads, 2);
      const listed = await records.list('posts', { conditions: [], orderBy: [{ field: 'id', direction: 'asc' }], offset: 0, limit: null, withTotal: true, shared: false });
      assert.deepEqual(listed, { items: [{ id, title: 'fresh' }], total: 1 });
      const search = { conditions: [{ field: 'content', op: 'textContains' as const, value: 'a' }], orderBy: [], offset: 0, limit: null, withTotal: false, shared: false };
      assert.deepEqual(await records.list('posts', search), { items: [{ id, title: 'fresh' }] }, 'a search\'s ids are selected elsewhere, and again once the data moved');
      assert.equal(selects, 2);
      assert.equal(reads, 3, 'the record is read again: the data moved');
      assert.deepEqual(await records.list('posts', search), { items: [{ id, title: 'fresh' }] });
      assert.equal(selects, 2, 'the ids selected elsewhere are kept until the data moves');
    } finally {
      reader.close();
      await store.close();
    }
  });
});

describe('sqlite writing thread: steps of its own commits', () => {
  /** A WAL-index header (wal-header.ts) with change counter `change` and some other field `frames`. */
  const header = (change: number, frames: number) => {
    const bytes = Buffer.alloc(48);
    bytes.writeUInt32LE(change, 8);
    bytes[12] = 1;
    bytes.writeUInt32LE(frames, 16);
    return bytes.toString('latin1');
  };

  it('are known only where the change counter moved by one for a commit that changed rows, or not at all', () => {
    assert.deepEqual(ownStep(header(4, 10), header(5, 12), true), { from: header(4, 10), to: header(5, 12) });
    assert.deepEqual(ownStep(header(0xffffffff, 10), header(0, 2), true), { from: header(0xffffffff, 10), to: header(0, 2) });
    assert.equal(ownStep(header(4, 10), header(6, 14), true), null, 'another commit landed after it');
    assert.equal(ownStep(header(4, 10), header(4, 10), true), null, 'a commit of changed rows that moved nothing is not believed');
    assert.deepEqual(ownStep(header(4, 10), header(4, 10), false), { from: header(4, 10), to: header(4, 10) });
    assert.equal(ownStep(header(4, 10), header(5, 12), false), null, 'nothing changed here, so another commit did');
    assert.equal(ownStep(null, header(5, 12), true), null);
    assert.equal(ownStep(header(4, 10), null, true), null);
  });

  it('lead a token to the header now only through the store\'s own steps', () => {
    const shm = { now: header(1, 1) };
    const watch = headerWatch({ read: () => shm.now } as unknown as WalHeader);
    const mark = watch.mark();
    assert.equal(watch.unchangedSince(mark), true);
    watch.step({ from: header(1, 1), to: header(2, 3) });
    shm.now = header(2, 3);
    assert.equal(watch.unchangedSince(mark), true, 'its own commit');
    shm.now = header(3, 4);
    assert.equal(watch.unchangedSince(mark), false, 'a commit by someone else');
    watch.step({ from: header(3, 4), to: header(4, 6) });
    shm.now = header(4, 6);
    assert.equal(watch.unchangedSince(mark), false, 'still: the way from the mark is broken');
    assert.equal(watch.unchangedSince(header(3, 4)), true);
    watch.step(null);
    assert.equal(watch.unchangedSince(null), false, 'a mark that could not be read');
  });
});
