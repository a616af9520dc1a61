/**
 * Pages of shared lists the SQLite store hands out again (src/storage/sqlite/record-cache.ts, `page`): a list asked
 * again by the same frozen query answers what reading it anew gives, whoever commits — the store itself, another
 * connection in the same task, another process — and a transaction's writes only once it committed.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import type { ListQuery, StoragePort, StoredRecord, StoredWrite } from '../../src/ports/storage.js';
import { checkQuery, freezeThrough } from '../../src/storage/query-check.js';
import { RecordCache } from '../../src/storage/sqlite/record-cache.js';
import { sqliteStorage } from '../../src/storage/sqlite/index.js';
import { seededRandom } from '../../src/testing/conformance/support.js';

const folder = mkdtempSync(path.join(tmpdir(), 'quire-sqlite-pages-'));
after(() => rmSync(folder, { recursive: true, force: true }));

/** The lists a site asks again and again: frozen all through, records only read. */
const PUBLISHED: ListQuery = freezeThrough({
  where: [{ field: 'type', op: 'eq', value: 'post' }, { field: 'status', op: 'eq', value: 'publish' }],
  orderBy: [{ field: 'date', direction: 'desc' }, { field: 'id', direction: 'desc' }], limit: 4, withTotal: true, shared: true,
});
const SECOND_PAGE: ListQuery = freezeThrough({ ...PUBLISHED, offset: 4, withTotal: false });
const DRAFTS: ListQuery = freezeThrough({ where: [{ field: 'status', op: 'eq', value: 'draft' }], limit: 10, withTotal: true, shared: true });
const QUERIES = [PUBLISHED, SECOND_PAGE, DRAFTS];

function post(index: number, status = 'publish') {
  return { type: 'post', status, date: `2024-02-${String(1 + (index % 28)).padStart(2, '0')}`, title: `Post ${index}` };
}

/** What the query lists, read by a connection of its own that keeps nothing between reads. */
function fresh(file: string, query: ListQuery) {
  const db = new Database(file, { readonly: true });
  try {
    const rows = db.prepare("SELECT id, json(data) AS data FROM quire_records WHERE collection = 'posts'").all() as { id: number; data: string }[];
    const records = rows.map((row) => ({ ...JSON.parse(row.data) as Record<string, unknown>, id: row.id }));
    const status = query === DRAFTS ? 'draft' : 'publish';
    const selected = records.filter((record) => record.status === status && (query === DRAFTS || record.type === 'post'));
    if (query !== DRAFTS) selected.sort((a, b) => (a.date === b.date ? b.id - a.id : String(b.date).localeCompare(String(a.date))));
    else selected.sort((a, b) => a.id - b.id);
    const offset = query.offset ?? 0;
    const items = selected.slice(offset, offset + query.limit!);
    return query.withTotal ? { items, total: selected.length } : { items };
  } finally {
    db.close();
  }
}

async function listedBy(store: StoragePort, query: ListQuery) {
  const { items, total } = await store.list('posts', query);
  const plain = items.map((item) => ({ ...item }));
  return query.withTotal ? { items: plain, total } : { items: plain };
}

describe('sqlite store: pages of shared lists handed out again', () => {
  it('answers as a fresh read does after every commit, its own, another connection\'s or another process\'s', async () => {
    const file = path.join(folder, 'random.db');
    const store = sqliteStorage({ path: file });
    const other = sqliteStorage({ path: file });
    const ids: number[] = [];
    for (let index = 0; index < 12; index++) ids.push((await store.insert('posts', post(index, index % 3 === 0 ? 'draft' : 'publish'))).id);
    const random = seededRandom(11);
    const host = new Database(file);
    const hostUpdate = host.prepare("UPDATE quire_records SET data = jsonb_set(data, '$.title', ?) WHERE collection = 'posts' AND id = ?");
    for (let step = 0; step < 120; step++) {
      for (const query of QUERIES) {
        const expected = fresh(file, query);
        // Read from the records kept, then handed out again twice: the page is kept the second time.
        for (let asked = 0; asked < 3; asked++) assert.deepEqual(await listedBy(store, query), expected, `step ${step}, asked ${asked + 1}: ${JSON.stringify(query)}`);
      }
      const id = ids[Math.floor(random() * ids.length)]!;
      const roll = random();
      if (roll < 0.4) await store.update('posts', id, { title: `own ${step}` });
      else if (roll < 0.55) await store.update('posts', id, { status: random() < 0.5 ? 'draft' : 'publish' });
      else if (roll < 0.65) await store.transaction(async (tx) => { await tx.update('posts', id, { title: `in a transaction ${step}` }); });
      else if (roll < 0.75) await other.update('posts', id, { title: `other ${step}` });
      else if (roll < 0.85) hostUpdate.run(`host ${step}`, id);
      else if (roll < 0.9) ids.push((await store.insert('posts', post(step))).id);
      else if (roll < 0.95) {
        if (await store.remove('posts', id)) ids.splice(ids.indexOf(id), 1);
      } else {
        const child = spawnSync(process.execPath, ['-e', `
          const Database = require('better-sqlite3');
          const db = new Database(process.argv[1]);
          db.prepare("UPDATE quire_records SET data = jsonb_set(data, '$.title', 'process') WHERE collection = 'posts' AND id = ?").run(Number(process.argv[2]));
          db.close();`, file, String(id)], { encoding: 'utf8' });
        assert.equal(child.status, 0, child.stderr);
      }
    }
    host.close();
    await other.close();
    await store.close();
  });

  it('sees another connection\'s commit made in the same task, between two calls', async () => {
    const file = path.join(folder, 'same-task.db');
    const store = sqliteStorage({ path: file });
    const first = await store.insert('posts', post(1));
    for (let asked = 0; asked < 3; asked++) await store.list('posts', PUBLISHED);
    const host = new Database(file);
    const rename = host.prepare("UPDATE quire_records SET data = jsonb_set(data, '$.title', ?) WHERE collection = 'posts' AND id = ?");
    for (let round = 0; round < 5; round++) {
      // Both calls made in one stretch of code, the commit between them.
      const before = store.list('posts', PUBLISHED);
      rename.run(`round ${round}`, first.id);
      const afterwards = store.list('posts', PUBLISHED);
      assert.notEqual((await before).items[0]!.title, `round ${round}`);
      assert.equal((await afterwards).items[0]!.title, `round ${round}`);
      assert.equal((await store.list('posts', PUBLISHED)).items[0]!.title, `round ${round}`);
    }
    host.close();
    await store.close();
  });

  it('shows a transaction\'s writes only once it committed, and at once then', async () => {
    const file = path.join(folder, 'under-way.db');
    const store = sqliteStorage({ path: file });
    const first = await store.insert('posts', post(1));
    await store.insert('posts', post(2));
    const titles = async () => (await store.list('posts', PUBLISHED)).items.map((item) => item.title);
    assert.deepEqual(await titles(), ['Post 2', 'Post 1']);
    let release!: () => void;
    const held = new Promise<void>((resolve) => { release = resolve; });
    let written!: () => void;
    const wrote = new Promise<void>((resolve) => { written = resolve; });
    const transaction = store.transaction(async (tx) => {
      await tx.update('posts', first.id, { title: 'not yet' });
      written();
      await held;
    });
    await wrote;
    try {
      assert.deepEqual(await titles(), ['Post 2', 'Post 1'], 'a write under way is not seen');
      assert.deepEqual(await titles(), ['Post 2', 'Post 1']);
    } finally {
      release();
      await transaction;
    }
    assert.deepEqual(await titles(), ['Post 2', 'not yet'], 'seen on the next read once committed');
    await store.close();
  });

  it('hands each caller an array of its own, and pages of other queries and collections apart', async () => {
    const store = sqliteStorage({ path: path.join(folder, 'arrays.db') });
    for (let index = 0; index < 6; index++) await store.insert('posts', post(index));
    await store.insert('pages', post(0));
    const first = await store.list('posts', PUBLISHED);
    const second = await store.list('posts', PUBLISHED);
    const third = await store.list('posts', PUBLISHED);
    assert.notEqual(second.items, first.items);
    assert.notEqual(third.items, second.items);
    assert.deepEqual(third.items, second.items);
    third.items.reverse();
    assert.deepEqual(second.items.map((item) => item.id), [6, 5, 4, 3]);
    first.items.length = 0;
    first.items.push({ id: 99 });
    assert.deepEqual((await store.list('posts', PUBLISHED)).items.map((item) => item.id), [6, 5, 4, 3]);
    assert.deepEqual((await store.list('posts', SECOND_PAGE)).items.map((item) => item.id), [2, 1]);
    assert.deepEqual((await store.list('pages', PUBLISHED)).items.map((item) => item.id), [1], 'another collection, the same query');
    assert.equal((await store.list('posts', PUBLISHED)).total, 6);
    assert.ok(Object.isFrozen(second.items[0]), 'records handed out shared are the kept ones, frozen');
    await store.close();
  });
});

describe('sqlite store: a page kept across the store\'s own commits', () => {
  it('is handed out again after writes that changed neither its list nor its records, and only then', () => {
    let state = 'first';
    let written: StoredWrite[] = [];
    const cache = new RecordCache(() => state, { noted: (now) => now, since: () => written });
    const query = checkQuery(PUBLISHED);
    assert.ok(Object.isFrozen(query));
    const record = (id: number, title = `Post ${id}`): StoredRecord => ({ id, ...post(id), title });
    let reads = 0;
    /** The page as the store's `list` hands it out: kept, or read from the entries (each read anew if missing). */
    const handOut = () => {
      cache.check();
      const kept = cache.page('posts', query);
      if (kept) return kept.items;
      const listed = cache.listed('posts', query, () => ({ ids: [3, 2], total: 2 }));
      const items = listed.ids.map((id) => {
        const found = cache.get('posts', id, true);
        if (found) return found;
        reads++;
        cache.set('posts', record(id), 100);
        return cache.get('posts', id, true)!;
      });
      cache.keepPage('posts', query, items, listed);
      return items;
    };
    const commit = (next: string, writes: StoredWrite[]) => {
      state = next;
      written = writes;
    };
    const first = handOut();
    assert.equal(reads, 2);
    assert.equal(handOut()[0], first[0]);
    const kept = handOut();
    commit('second', [{ collection: 'posts', id: 9, before: record(9), after: { ...record(9), title: 'elsewhere' } }]);
    cache.check();
    assert.ok(cache.page('posts', query), 'kept across a write to another record');
    const carried = handOut();
    assert.notEqual(carried, kept, 'a new array each time');
    assert.deepEqual(carried, kept);
    assert.equal(carried[0], kept[0], 'the same records');
    commit('third', [{ collection: 'posts', id: 3, before: record(3), after: record(3, 'renamed') }]);
    const renamed = handOut();
    assert.equal(renamed[0]!.title, 'Post 3', 'read anew: this stand-in store reads the old title');
    assert.equal(reads, 3, 'a record written is read again');
    assert.notEqual(renamed[0], kept[0]);
    handOut();
    commit('fourth', [{ collection: 'posts', id: 12, before: null, after: record(12) }]);
    let computed = 0;
    cache.check();
    assert.equal(cache.page('posts', query), undefined, 'an insert the list may select drops it');
    cache.listed('posts', query, () => {
      computed++;
      return { ids: [12, 3], total: 3 };
    });
    assert.equal(computed, 1);
  });
});
