/**
 * Reads inside a transaction of a SQLite store written on its own thread (src/storage/sqlite/writing.ts): what the
 * transaction has not written is read on the main thread, the rest on the thread, and every answer is what the
 * transaction sees.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { Worker } from 'node:worker_threads';
import Database from 'better-sqlite3';
import type { ListQuery, StoragePort } from '../../src/ports/storage.js';
import { createMemoryStorage } from '../../src/storage/memory/index.js';
import { sqliteStorage } from '../../src/storage/sqlite/index.js';
import { writerThreadOf } from '../../src/storage/sqlite/writer-thread.js';
import { seededRandom } from '../../src/testing/conformance/support.js';

const folder = mkdtempSync(path.join(tmpdir(), 'quire-sqlite-tx-reads-'));
after(() => rmSync(folder, { recursive: true, force: true }));
let files = 0;
const freshFile = () => path.join(folder, `store-${++files}.db`);

/** The requests posted to the store's writing thread while `work` runs, by operation. */
async function requestsDuring(work: () => Promise<unknown>): Promise<string[]> {
  const post = Worker.prototype.postMessage;
  const requests: string[] = [];
  Worker.prototype.postMessage = function (this: Worker, message: unknown, ...rest: unknown[]) {
    const request = (message as { request?: { op: string; collection?: string } }).request;
    if (request) requests.push(request.collection ? `${request.op} ${request.collection}` : request.op);
    return (post as (...args: unknown[]) => void).call(this, message, ...rest);
  } as typeof Worker.prototype.postMessage;
  try {
    await work();
  } finally {
    Worker.prototype.postMessage = post;
  }
  return requests;
}

describe('sqlite transaction reads', () => {
  it('reads what the transaction has not written on the main thread, a record it wrote as the write answered, and lists it may have changed on the thread', async () => {
    const store = sqliteStorage({ path: freshFile() });
    try {
      const post = await store.insert('posts', { type: 'post', title: 'one' });
      await store.insert('posts', { type: 'post', title: 'two' });
      await store.insert('terms', { name: 'news' });
      const requests = await requestsDuring(() => store.transaction(async (tx) => {
        assert.equal((await tx.get('posts', post.id))!.title, 'one');
        assert.equal((await tx.list('posts', { where: [{ field: 'type', op: 'eq', value: 'post' }] })).items.length, 2);
        await tx.update('posts', post.id, { title: 'one, edited' });
        assert.equal((await tx.get('posts', post.id))!.title, 'one, edited', 'its own write');
        assert.equal((await tx.get('posts', 2))!.title, 'two', 'a record of the collection it did not write');
        assert.deepEqual((await tx.list('posts', { orderBy: [{ field: 'id', direction: 'asc' }] })).items.map((item) => item.title), ['one, edited', 'two']);
        // A list that cannot select the record written, before or after its write.
        assert.deepEqual((await tx.list('posts', { where: [{ field: 'type', op: 'eq', value: 'page' }], withTotal: true })), { items: [], total: 0 });
        await tx.update('posts', 2, { type: 'page' });
        assert.deepEqual((await tx.list('posts', { where: [{ field: 'type', op: 'eq', value: 'page' }] })).items.map((item) => item.title), ['two']);
        assert.equal((await tx.list('terms', {})).items[0]!.name, 'news', 'a collection it did not write');
        const inserted = await tx.insert('terms', { name: 'sport' });
        assert.equal((await tx.get('terms', inserted.id))!.name, 'sport');
        assert.equal((await tx.get('terms', 1))!.name, 'news');
      }));
      assert.deepEqual(requests, ['begin', 'update posts', 'list posts', 'update posts', 'list posts', 'insert terms', 'commit']);
    } finally {
      await store.close();
    }
  });

  it('answers a record it wrote as the write left it, not as its caller changed it, and as a savepoint rolled back left it', async () => {
    const store = sqliteStorage({ path: freshFile() });
    try {
      const post = await store.insert('posts', { title: 'one', tags: [1] });
      const requests = await requestsDuring(() => store.transaction(async (tx) => {
        const updated = await tx.update('posts', post.id, { title: 'two' });
        updated.title = 'changed by its caller';
        (updated.tags as number[]).push(2);
        assert.deepEqual(await tx.get('posts', post.id), { id: post.id, title: 'two', tags: [1] });
        const inserted = await tx.insert('posts', { title: 'three' });
        inserted.title = 'changed by its caller';
        assert.equal((await tx.get('posts', inserted.id))!.title, 'three');
        const handedOut = (await tx.get('posts', inserted.id))!;
        handedOut.title = 'changed by a reader';
        assert.equal((await tx.get('posts', inserted.id))!.title, 'three', 'each read is a copy');
        await tx.transaction(async (savepoint) => {
          await savepoint.update('posts', post.id, { title: 'undone' });
          await savepoint.remove('posts', inserted.id);
          assert.equal(await savepoint.get('posts', inserted.id), null);
          throw new Error('undo');
        }).catch(() => {});
        assert.equal((await tx.get('posts', post.id))!.title, 'two', 'the write the savepoint undid');
        assert.equal((await tx.get('posts', inserted.id))!.title, 'three', 'the removal the savepoint undid');
        await tx.remove('posts', inserted.id);
        assert.equal(await tx.get('posts', inserted.id), null);
      }));
      // After the rollback, what the savepoint had written is read on the thread.
      assert.deepEqual(requests.filter((request) => request === 'get posts'), ['get posts', 'get posts']);
      assert.deepEqual(await store.get('posts', post.id), { id: post.id, title: 'two', tags: [1] });
    } finally {
      await store.close();
    }
  });

  it('reads only once its BEGIN holds the write lock, and fails as its BEGIN did without writing anything', async () => {
    const file = freshFile();
    const store = sqliteStorage({ path: file, busyTimeoutMs: 2000 });
    const other = new Database(file);
    try {
      const post = await store.insert('posts', { title: 'before' });
      // Another connection holds the write lock, and commits a change when it lets it go.
      other.exec('BEGIN IMMEDIATE');
      other.prepare("UPDATE quire_records SET data = jsonb_set(data, '$.title', 'committed while it waited') WHERE id = ?").run(post.id);
      setTimeout(() => other.exec('COMMIT'), 150);
      const seen = await store.transaction(async (tx) => (await tx.get('posts', post.id))!.title);
      assert.equal(seen, 'committed while it waited', 'the read waited for the BEGIN, which waited for the other commit');
      await store.transaction(async (tx) => {
        const written = await tx.update('posts', post.id, { title: 'written first' });
        assert.equal(written!.title, 'written first');
        assert.equal((await tx.list('posts', {})).items[0]!.title, 'written first');
      });

      const impatient = sqliteStorage({ path: file, busyTimeoutMs: 100 });
      try {
        await impatient.insert('posts', { title: 'starts its thread' });
        const term = await impatient.insert('terms', { name: 'news' });
        other.exec('BEGIN IMMEDIATE');
        let readFailed = false;
        await assert.rejects(impatient.transaction(async (tx) => {
          // Asked before the BEGIN has failed: refused on the thread, never written on their own.
          const writes = Promise.allSettled([tx.update('posts', post.id, { title: 'not written' }), tx.insert('posts', { title: 'not written' })]);
          await tx.get('terms', term.id).catch(() => { readFailed = true; });
          assert.ok((await writes).every((write) => write.status === 'rejected'));
          await tx.transaction(async (inner) => inner.insert('posts', { title: 'not written' })).catch(() => {});
          return 'done';
        }), /locked|busy/i);
        assert.ok(readFailed, 'a read of committed data waits for the BEGIN, and fails with it');
        other.exec('ROLLBACK');
        const titles = (await impatient.list('posts', {})).items.map((item) => item.title);
        assert.deepEqual(titles, ['written first', 'starts its thread']);
        assert.equal((await impatient.transaction(async (tx) => tx.insert('posts', { title: 'after' }))).title, 'after', 'the next transaction begins');
      } finally {
        await impatient.close();
      }
    } finally {
      if (other.inTransaction) other.exec('ROLLBACK');
      other.close();
      await store.close();
    }
  });

  it('has the thread refuse a transaction\'s writes, savepoints and commit where no transaction is open', async () => {
    const store = sqliteStorage({ path: freshFile() });
    try {
      const post = await store.insert('posts', { title: 'before' });
      const thread = writerThreadOf(store)!;
      const refused = await thread.with(async (run) => Promise.allSettled([
        run.call({ op: 'update', collection: 'posts', id: post.id, patch: { value: { set: { title: 'alone' }, removed: [] }, texts: [] }, alone: false }),
        run.call({ op: 'remove', collection: 'posts', id: post.id, alone: false }),
        run.call({ op: 'savepoint' }),
        run.call({ op: 'commit' }),
      ]), async () => []);
      assert.deepEqual(refused.map((answer) => answer.status === 'rejected' && (answer.reason as Error).message), Array(4).fill('no transaction is open on the writing thread'));
      assert.equal((await store.get('posts', post.id))!.title, 'before');
    } finally {
      await store.close();
    }
  });

  it('sees a commit made by another connection before the transaction began', async () => {
    const file = freshFile();
    const store = sqliteStorage({ path: file });
    const other = new Database(file);
    try {
      const post = await store.insert('posts', { title: 'before' });
      assert.equal((await store.get('posts', post.id))!.title, 'before');
      other.prepare("UPDATE quire_records SET data = jsonb_set(data, '$.title', 'elsewhere') WHERE id = ?").run(post.id);
      await store.transaction(async (tx) => {
        assert.equal((await tx.get('posts', post.id))!.title, 'elsewhere');
        assert.equal((await tx.list('posts', {})).items[0]!.title, 'elsewhere');
      });
    } finally {
      other.close();
      await store.close();
    }
  });

  it('answers as the memory store does, through random transactions of concurrent reads and writes (30 seeds)', async () => {
    for (let seed = 1; seed <= 30; seed++) await compareRandomTransactions(seed);
  });
});

const COLLECTIONS = ['posts', 'terms'] as const;

/** The same random transactions on both stores, every answer and the data after each compared. */
async function compareRandomTransactions(seed: number): Promise<void> {
  const random = seededRandom(seed);
  const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)]!;
  const stores: StoragePort[] = [createMemoryStorage(), sqliteStorage({ path: freshFile() })];
  try {
    for (const store of stores) {
      for (const collection of COLLECTIONS) {
        for (let index = 0; index < 4; index++) await store.insert(collection, { n: index, kind: index % 2 === 0 ? 'even' : 'odd' });
      }
    }
    // Each step's answer, or the code it failed with.
    const step = (tx: StoragePort, choice: number[]): Promise<unknown> => {
      const [kind, collectionIndex, id, value] = choice as [number, number, number, number];
      const collection = COLLECTIONS[collectionIndex]!;
      const noted = (what: string, answer: Promise<unknown>) => answer.then(
        (result) => [what, result],
        (error: { code?: string }) => [what, 'failed', error.code],
      );
      const query: ListQuery = value % 2 === 0
        ? { orderBy: [{ field: 'id', direction: 'asc' }], withTotal: true }
        : { where: [{ field: 'kind', op: 'eq', value: 'even' }], orderBy: [{ field: 'n', direction: 'desc' }, { field: 'id', direction: 'asc' }], limit: 3 };
      switch (kind) {
        case 0: case 1: return noted(`get ${collection} ${id}`, tx.get(collection, id));
        case 2: case 3: return noted(`list ${collection}`, tx.list(collection, query));
        case 4: return noted(`update ${collection} ${id}`, tx.update(collection, id, { n: value, kind: value % 3 === 0 ? 'even' : 'odd' }));
        case 5: return noted(`insert ${collection}`, tx.insert(collection, { n: value, kind: 'even' }));
        case 6: return noted(`insert ${collection} #${id}`, tx.insert(collection, { id, n: value, kind: 'odd' }));
        default: return noted(`remove ${collection} ${id}`, tx.remove(collection, id));
      }
    };
    for (let round = 0; round < 8; round++) {
      // The same choices for both stores: a transaction of steps, some asked together, one maybe in a savepoint
      // rolled back, the whole maybe rolled back.
      const plan = Array.from({ length: 4 + Math.floor(random() * 6) }, () => ({
        together: random() < 0.35,
        inner: random() < 0.15,
        choices: [0, 1].map(() => [Math.floor(random() * 8), Math.floor(random() * 2), 1 + Math.floor(random() * 10), Math.floor(random() * 9)]),
      }));
      const abandon = random() < 0.2;
      const logs: unknown[][] = [];
      for (const store of stores) {
        const log: unknown[] = [];
        logs.push(log);
        await store.transaction(async (tx) => {
          for (const { together, inner, choices } of plan) {
            if (inner) {
              await tx.transaction(async (savepoint) => {
                log.push(await step(savepoint, choices[0]!));
                throw new Error('undo');
              }).catch(() => log.push('rolled back to the savepoint'));
            } else if (together) {
              log.push(await Promise.all(choices.map((choice) => step(tx, choice))));
            } else {
              log.push(await step(tx, choices[0]!));
            }
          }
          if (abandon) throw new Error('abandoned');
        }).catch((error: Error) => log.push(error.message));
      }
      assert.deepEqual(logs[1], logs[0], `seed ${seed}, round ${round}: the answers in the transaction`);
      for (const collection of COLLECTIONS) {
        const [memory, sqlite] = await Promise.all(stores.map((store) => store.list(collection, { orderBy: [{ field: 'id', direction: 'asc' }] })));
        assert.deepEqual(sqlite, memory, `seed ${seed}, round ${round}: ${collection} after it`);
      }
    }
  } finally {
    for (const store of stores) await store.close?.();
  }
}
