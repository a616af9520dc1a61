/**
 * A list query frozen all through is checked once and recognised when asked again (query-check.ts); the memory
 * store then keeps its index choice, the SQLite store its results key. Every list still reads the store's current
 * state, and a query that is not frozen all through is read anew on every call.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import type { Condition, ListQuery, StoragePort } from '../../src/ports/storage.js';
import { checkQuery } from '../../src/storage/query-check.js';
import { createMemoryStorage } from '../../src/storage/memory/index.js';
import { sqliteStorage } from '../../src/storage/sqlite/index.js';

const folder = mkdtempSync(path.join(tmpdir(), 'quire-frozen-queries-'));
after(() => rmSync(folder, { recursive: true, force: true }));

function frozenThrough<T>(value: T): T {
  if (value !== null && typeof value === 'object') {
    for (const child of Object.values(value)) frozenThrough(child);
    Object.freeze(value);
  }
  return value;
}

const published = (): ListQuery => ({
  where: [{ field: 'type', op: 'eq', value: 'post' }, { field: 'status', op: 'eq', value: 'publish' }],
  orderBy: [{ field: 'date', direction: 'desc' }],
  offset: 0,
  limit: 2,
  withTotal: true,
  shared: true,
});

const titles = async (store: StoragePort, query: ListQuery) => {
  const { items, total } = await store.list('posts', query);
  return { titles: items.map((item) => item.title), total };
};

describe('checkQuery: frozen queries', () => {
  it('hands the same frozen checked query for a query frozen all through, a fresh one otherwise', () => {
    const frozen = frozenThrough(published());
    const checked = checkQuery(frozen);
    assert.equal(checkQuery(frozen), checked);
    assert.ok(Object.isFrozen(checked) && Object.isFrozen(checked.conditions));
    const open = published();
    assert.notEqual(checkQuery(open), checkQuery(open));
    const outsideOnly = Object.freeze(published());
    assert.notEqual(checkQuery(outsideOnly), checkQuery(outsideOnly));
    assert.throws(() => checkQuery(frozenThrough({ where: [{ field: 'x', op: 'nope' }] } as unknown as ListQuery)));
  });
});

for (const [name, open] of [
  ['memory', () => createMemoryStorage()],
  ['sqlite', () => sqliteStorage({ path: path.join(folder, `${Math.random().toString(36).slice(2)}.db`) })],
] as const) {
  describe(`${name} store: frozen queries`, () => {
    it('reads the current state for a frozen query asked again', async () => {
      const store: StoragePort = open();
      const post = (title: string, date: string, status = 'publish') => store.insert('posts', { type: 'post', status, title, date });
      await post('one', '2026-01-01');
      await post('two', '2026-01-02');
      const query = frozenThrough(published());
      for (let round = 0; round < 2; round++) assert.deepEqual(await titles(store, query), { titles: ['two', 'one'], total: 2 });
      const three = await post('three', '2026-01-03');
      assert.deepEqual(await titles(store, query), { titles: ['three', 'two'], total: 3 });
      await store.update('posts', three.id, { status: 'draft' });
      assert.deepEqual(await titles(store, query), { titles: ['two', 'one'], total: 2 });
      await post('draft', '2026-01-04', 'draft');
      assert.deepEqual(await titles(store, query), { titles: ['two', 'one'], total: 2 });
      await store.close?.();
    });

    it('reads a query frozen on the outside only as it is at each call', async () => {
      const store: StoragePort = open();
      await store.insert('posts', { type: 'post', status: 'publish', title: 'one', date: '2026-01-01' });
      await store.insert('posts', { type: 'post', status: 'draft', title: 'two', date: '2026-01-02' });
      const where: Condition[] = [{ field: 'status', op: 'eq', value: 'publish' }];
      const query = Object.freeze({ ...published(), where });
      assert.deepEqual(await titles(store, query), { titles: ['one'], total: 1 });
      where[0] = { field: 'status', op: 'eq', value: 'draft' };
      assert.deepEqual(await titles(store, query), { titles: ['two'], total: 1 });
      await store.close?.();
    });
  });
}
