/**
 * List results kept across writes (src/storage/kept-lists.ts): a carried result is exactly what running the query
 * again gives, on random records, writes and queries; and the SQLite store that carries them answers as a second
 * connection running every query does, whoever writes.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import type { Condition, ListQuery, NewRecord, StoragePort, StoredWrite } from '../../src/ports/storage.js';
import { KeptLists } from '../../src/storage/kept-lists.js';
import { createMemoryStorage } from '../../src/storage/memory/index.js';
import { checkQuery } from '../../src/storage/query-check.js';
import { queryKey } from '../../src/storage/sqlite/query-key.js';
import { sqliteStorage } from '../../src/storage/sqlite/index.js';
import { seededRandom } from '../../src/testing/conformance/support.js';

const folder = mkdtempSync(path.join(tmpdir(), 'quire-kept-lists-'));
after(() => rmSync(folder, { recursive: true, force: true }));

const TYPES = ['post', 'page', 'revision', 'Post'];
const STATUSES = ['publish', 'draft', 'future', 'trash'];
const WORDS = ['alpha', 'beta', 'Gamma', 'delta', 'ALPHA beta'];

type Random = () => number;
const pick = <T>(random: Random, values: readonly T[]): T => values[Math.floor(random() * values.length)]!;

function randomFields(random: Random): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  if (random() < 0.9) fields.type = pick(random, TYPES);
  if (random() < 0.9) fields.status = random() < 0.1 ? null : pick(random, STATUSES);
  if (random() < 0.9) fields.date = `2024-01-${String(1 + Math.floor(random() * 9)).padStart(2, '0')}`;
  if (random() < 0.8) fields.title = `${pick(random, WORDS)} ${Math.floor(random() * 5)}`;
  if (random() < 0.7) fields.tags = Array.from({ length: Math.floor(random() * 3) }, () => 1 + Math.floor(random() * 4));
  if (random() < 0.7) fields.menu_order = random() < 0.2 ? '1' : Math.floor(random() * 3);
  if (random() < 0.5) fields.parent = Math.floor(random() * 4);
  if (random() < 0.5) fields.excerpt = pick(random, WORDS);
  return fields;
}

/** A change of a few fields: often only ones no query reads, as most writes to a site's other posts are. */
function randomPatch(random: Random): Record<string, unknown> {
  if (random() < 0.5) return { excerpt: `${pick(random, WORDS)} ${Math.floor(random() * 100)}`, comment_status: pick(random, ['open', 'closed']) };
  const all = randomFields(random);
  const patch: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(all)) if (random() < 0.4) patch[field] = value;
  if (random() < 0.1) patch.title = undefined;
  return patch;
}

const QUERIES: ListQuery[] = [
  { where: [{ field: 'type', op: 'eq', value: 'post' }, { field: 'status', op: 'eq', value: 'publish' }], orderBy: [{ field: 'date', direction: 'desc' }], limit: 3, withTotal: true },
  { where: [{ field: 'type', op: 'eq', value: 'post' }, { field: 'status', op: 'eq', value: 'publish' }], orderBy: [{ field: 'date', direction: 'desc' }], offset: 3, limit: 3 },
  { where: [{ field: 'type', op: 'in', values: ['post', 'page'] }, { field: 'status', op: 'in', values: ['publish', 'future'] }], orderBy: [{ field: 'title', direction: 'asc' }], limit: 4, withTotal: true },
  { where: [{ field: 'type', op: 'eq', value: 'revision' }, { field: 'parent', op: 'eq', value: 2 }], orderBy: [{ field: 'date', direction: 'desc' }], limit: 1, withTotal: true },
  { where: [{ field: 'status', op: 'ne', value: 'trash' }], orderBy: [{ field: 'menu_order', direction: 'asc' }], limit: 5, withTotal: true },
  { where: [{ field: 'tags', op: 'containsAny', values: [1, 2] }, { field: 'type', op: 'eq', value: 'post' }], limit: 5, withTotal: true },
  { where: [{ field: 'type', op: 'eq', value: 'post' }], search: { fields: ['title', 'excerpt'], terms: ['alpha'] }, limit: 5, withTotal: true },
  { where: [{ op: 'or', conditions: [{ field: 'status', op: 'eq', value: 'draft' }, { field: 'menu_order', op: 'gt', value: 1 }] }], withTotal: true },
  { where: [{ op: 'and', conditions: [{ field: 'type', op: 'eq', value: 'page' }, { op: 'not', condition: { field: 'parent', op: 'eq', value: 0 } }] }], orderBy: [{ rank: [{ field: 'status', op: 'eq', value: 'future' }] }], withTotal: true },
  { where: [{ field: 'status', op: 'eq', value: null }], withTotal: true },
  { where: [{ field: 'menu_order', op: 'in', values: [0, 1] }, { field: 'status', op: 'notIn', values: ['draft'] }], orderBy: [{ field: 'parent', direction: 'desc' }], limit: 6, withTotal: true },
  { where: [{ field: 'type', op: 'in', values: [] }], withTotal: true },
  { where: [{ field: 'id', op: 'gt', value: 5 }, { field: 'type', op: 'eq', value: 'post' }], limit: 4, withTotal: true },
];

const listed = async (store: StoragePort, query: ListQuery) => {
  const result = await store.list('posts', query);
  return { ids: result.items.map((item) => item.id), total: result.total };
};

/** One step of random writes, by `store` (a commit of one write, or a transaction of several). */
async function randomWrites(store: StoragePort, random: Random, ids: number[]): Promise<void> {
  const one = async (target: StoragePort) => {
    const roll = random();
    if (roll < 0.15 || ids.length < 4) ids.push((await target.insert('posts', randomFields(random) as NewRecord)).id);
    else if (roll < 0.22) {
      const id = ids.splice(Math.floor(random() * ids.length), 1)[0]!;
      await target.remove('posts', id);
    } else if (roll < 0.27) await target.insert('terms', { name: pick(random, WORDS) });
    else await target.update('posts', pick(random, ids), randomPatch(random));
  };
  if (random() < 0.2) await store.transaction(async (tx) => { for (let count = 1 + Math.floor(random() * 3); count > 0; count -= 1) await one(tx); });
  else await one(store);
}

describe('kept list results', () => {
  it('carries a result across writes only while it is what running the query gives (memory store, 20 seeds)', async () => {
    let carried = 0;
    let dropped = 0;
    for (let seed = 1; seed <= 20; seed += 1) {
      const random = seededRandom(seed);
      const store = createMemoryStorage();
      const ids: number[] = [];
      for (let index = 0; index < 14; index += 1) ids.push((await store.insert('posts', randomFields(random) as NewRecord)).id);
      const kept = new KeptLists(100);
      let token = await store.changeToken();
      for (let step = 0; step < 60; step += 1) {
        for (const query of QUERIES) {
          const checked = checkQuery(query);
          const key = queryKey('posts', checked)!;
          const now = await listed(store, query);
          const keptNow = kept.get(key);
          if (keptNow === undefined) kept.set(key, 'posts', checked, now);
          else {
            carried += 1;
            assert.deepEqual({ ids: [...keptNow.ids], total: keptNow.total }, now, `seed ${seed}, step ${step}: ${JSON.stringify(query)}`);
          }
        }
        await randomWrites(store, random, ids);
        const next = await store.changeToken();
        const writes = store.writtenSince(token);
        assert.ok(writes);
        const before = kept.size;
        kept.carry(writes);
        dropped += before - kept.size;
        token = next;
      }
    }
    // Both rules are at work: many results outlive writes, and many are dropped.
    assert.ok(carried > 5_000, `carried ${carried}`);
    assert.ok(dropped > 1_000, `dropped ${dropped}`);
  });

  it('drops what an insert or removal that may be selected, or a change of a field read, can change', () => {
    const kept = new KeptLists(10);
    const query = checkQuery({ where: [{ field: 'type', op: 'eq', value: 'post' }], orderBy: [{ field: 'date', direction: 'desc' }], limit: 2, withTotal: true });
    const key = queryKey('posts', query)!;
    const keep = () => kept.set(key, 'posts', query, { ids: [3, 2], total: 3 });
    const write = (before: object | null, after: object | null, collection = 'posts'): StoredWrite => ({ collection, id: 9, before: before && { id: 9, ...before }, after: after && { id: 9, ...after } });
    const carries = (writes: StoredWrite[]) => {
      keep();
      kept.carry(writes);
      return kept.get(key) !== undefined;
    };
    assert.equal(carries([write({ type: 'post', date: '1', excerpt: 'a' }, { type: 'post', date: '1', excerpt: 'b' })]), true, 'no field read changed');
    assert.equal(carries([write(null, { type: 'revision' })]), true, 'an insert the query cannot select');
    assert.equal(carries([write({ type: 'page' }, null)]), true, 'a removal of a record it did not select');
    assert.equal(carries([write(null, { type: 'post' }, 'terms')]), true, 'a write to another collection');
    assert.equal(carries([write(null, { type: 'post' })]), false, 'an insert that may be selected changes the total');
    assert.equal(carries([write(null, {})]), true, 'missing type: not selected');
    assert.equal(carries([write({ type: 'post', date: '1' }, null)]), false, 'a removal of one that may be selected');
    assert.equal(carries([write({ type: 'post', date: '1' }, { type: 'post', date: '2' })]), false, 'its order may change');
    assert.equal(carries([write({ type: 'page', date: '1' }, { type: 'post', date: '1' })]), false, 'it may now be selected');
    assert.equal(carries([write({ type: 'page' }, { type: 'pag\uD800' })]), false, 'a lone surrogate is not told apart');
    assert.equal(carries([write({ type: 'page' }, { type: 1 })]), false, 'a value of another kind is not told apart');
    assert.equal(carries([write({ type: 'post' }, { type: 'post', date: '1' })]), false, 'a field read, added');
    assert.equal(carries([write({ type: 'post', date: '1' }, { type: 'post' })]), false, 'a field read, removed');
    assert.equal(carries([write({ type: 'post', tags: [1] }, { type: 'post', tags: [1, 2] })]), true, 'a field not read');
    const many = Array.from({ length: 65 }, () => write({ type: 'page' }, { type: 'page', excerpt: 'x' }));
    assert.equal(carries(many.slice(0, 64)), true);
    assert.equal(carries(many), false, 'past 64 writes at once, nothing is carried');
  });

  it('checks a result asked for after many moves against every write since it was kept, and none before', () => {
    const kept = new KeptLists(10);
    const query = checkQuery({ where: [{ field: 'type', op: 'eq', value: 'post' }], orderBy: [{ field: 'date', direction: 'desc' }], limit: 2 });
    const other = checkQuery({ where: [{ field: 'type', op: 'eq', value: 'page' }], orderBy: [{ field: 'date', direction: 'desc' }], limit: 2 });
    const key = queryKey('posts', query)!;
    const otherKey = queryKey('posts', other)!;
    const keep = (which = key, checked = query) => kept.set(which, 'posts', checked, { ids: [3, 2] });
    const harmless: StoredWrite = { collection: 'posts', id: 8, before: { id: 8, type: 'page', excerpt: 'a' }, after: { id: 8, type: 'page', excerpt: 'b' } };
    const harmful: StoredWrite = { collection: 'posts', id: 9, before: null, after: { id: 9, type: 'post' } };
    const moves = (count: number, writes: StoredWrite[]) => {
      for (let move = 0; move < count; move++) kept.carry(writes);
    };

    keep();
    moves(3, [harmless]);
    moves(1, [harmful]);
    moves(3, [harmless]);
    assert.equal(kept.get(key), undefined, 'a write that may change it, among others');

    keep();
    moves(10, [harmless, harmless]);
    assert.deepEqual(kept.get(key), { ids: [3, 2] });
    moves(1, [harmful]);
    assert.equal(kept.get(key), undefined, 'a write after it was last asked for');

    // Past 64 writes waiting, the older half is let go with the results not asked for since; those asked go on.
    kept.clear();
    keep();
    keep(otherKey, other);
    moves(40, [harmless]);
    assert.deepEqual(kept.get(otherKey), { ids: [3, 2] });
    moves(30, [harmless]);
    assert.deepEqual(kept.get(otherKey), { ids: [3, 2] }, 'asked for within the writes kept');
    assert.equal(kept.get(key), undefined, 'not asked for in 70 writes, once more than 64 waited');
    for (let move = 0; move < 200; move++) {
      kept.carry([harmless]);
      if (move % 20 === 0) assert.deepEqual(kept.get(otherKey), { ids: [3, 2] }, `asked for every 20 writes (${move})`);
    }
    moves(1, [harmful]);
    assert.deepEqual(kept.get(otherKey), { ids: [3, 2] });
    moves(70, [harmless]);
    assert.equal(kept.size, 0);

    // A result kept after a write is not checked against it.
    keep(otherKey, other);
    moves(1, [harmful]);
    keep();
    moves(1, [harmless]);
    assert.deepEqual(kept.get(key), { ids: [3, 2] });
    assert.deepEqual(kept.get(otherKey), { ids: [3, 2] }, 'an insert of a post leaves the pages alone');
  });
});

describe('sqlite store: list results carried across its own commits', () => {
  it('answers every query as a second connection running it does, through random writes by it and by others', async () => {
    const file = path.join(folder, 'random.db');
    const store = sqliteStorage({ path: file });
    const other = sqliteStorage({ path: file });
    const random = seededRandom(37);
    const ids: number[] = [];
    for (let index = 0; index < 20; index += 1) ids.push((await store.insert('posts', randomFields(random) as NewRecord)).id);
    for (let step = 0; step < 300; step += 1) {
      for (const query of QUERIES) {
        const expected = await listed(other, query);
        assert.deepEqual(await listed(store, query), expected, `step ${step}: ${JSON.stringify(query)}`);
      }
      // Mostly its own writes; now and then one by another connection, which it cannot tell.
      await randomWrites(random() < 0.1 ? other : store, random, ids);
    }
    await store.close();
    await other.close();
  });

  it('sees a commit by another process at once', async () => {
    const file = path.join(folder, 'process.db');
    const store = sqliteStorage({ path: file });
    const published: ListQuery = { where: [{ field: 'type', op: 'eq', value: 'post' }, { field: 'status', op: 'eq', value: 'publish' }], orderBy: [{ field: 'date', direction: 'desc' }], limit: 2, withTotal: true };
    const ids: number[] = [];
    for (let index = 0; index < 4; index += 1) ids.push((await store.insert('posts', { type: 'post', status: 'publish', date: `2024-01-0${index + 1}` })).id);
    assert.deepEqual(await listed(store, published), { ids: [ids[3], ids[2]], total: 4 });
    // Its own write, which cannot change the result: carried.
    await store.update('posts', ids[0]!, { excerpt: 'kept' });
    assert.deepEqual(await listed(store, published), { ids: [ids[3], ids[2]], total: 4 });
    const script = `const Database = require('better-sqlite3'); const db = new Database(${JSON.stringify(file)});
      db.prepare("UPDATE quire_records SET data = jsonb_set(data, '$.status', 'draft') WHERE collection = 'posts' AND id = ?").run(${ids[3]});
      db.close();`;
    const child = spawnSync(process.execPath, ['-e', script], { cwd: process.cwd(), encoding: 'utf8' });
    assert.equal(child.status, 0, child.stderr);
    assert.deepEqual(await listed(store, published), { ids: [ids[2], ids[1]], total: 3 });
    await store.close();
  });

  for (const [where, file] of [['on its writing thread', 'under-way.db'], ['on the main thread', ':memory:']] as const) it(`sees a commit that lands while its promise has not settled, on the next read (writes ${where})`, async () => {
    const store = sqliteStorage({ path: file === ':memory:' ? file : path.join(folder, file) });
    const statusIs = (status: string): ListQuery => ({ where: [{ field: 'status', op: 'eq', value: status }] as Condition[], withTotal: true });
    const first = await store.insert('posts', { status: 'draft', title: 'a' });
    await store.insert('posts', { status: 'draft', title: 'b' });
    for (let turns = 0; turns < 6; turns += 1) {
      const status = `s${turns}`;
      assert.deepEqual(await listed(store, statusIs(status)), { ids: [], total: 0 });
      assert.equal((await store.get('posts', first.id))!.status !== status, true);
      // A read queued `turns` promise turns ahead of the write: some land between its commit and its promise settling.
      let chain: Promise<unknown> = Promise.resolve();
      for (let index = 0; index < turns; index += 1) chain = chain.then(() => {});
      const during = chain.then(() => Promise.all([store.get('posts', first.id), listed(store, statusIs(status))]));
      await Promise.all([during, store.update('posts', first.id, { status })]);
      assert.equal((await store.get('posts', first.id))!.status, status, `${turns} turns`);
      assert.deepEqual(await listed(store, statusIs(status)), { ids: [first.id], total: 1 }, `${turns} turns`);
    }
    await store.close();
  });
});
