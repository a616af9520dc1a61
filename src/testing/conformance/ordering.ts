import assert from 'node:assert/strict';
import { describe, it } from '../runner.js';
import type { Condition, NewRecord, SortKey } from '../../ports/storage.js';
import type { MakeStore } from './support.js';
import { idsOf, seed, withStore } from './support.js';

const FIXTURE: NewRecord[] = [
  { title: 'b', date: '2024-01-02T00:00:00', position: 2, flag: true },
  { title: 'a', date: '2024-01-01T00:00:00', position: 1, flag: false },
  { title: 'B', date: '2024-01-02T00:00:00', position: 2 },
  { title: 'c', date: null, position: 1, flag: true },
  { title: 'a', position: 3, flag: false },
  { title: 'ä', date: '2024-01-03T00:00:00', position: 1, flag: null },
];

const idIs = (...ids: number[]): Condition[] => ids.map((value) => ({ field: 'id', op: 'eq', value }));

const CASES: [string, SortKey[] | undefined, number[]][] = [
  ['by ascending id when no order is given', undefined, [1, 2, 3, 4, 5, 6]],
  ['by descending id', [{ field: 'id', direction: 'desc' }], [6, 5, 4, 3, 2, 1]],
  ['strings by code unit, ties by ascending id', [{ field: 'title', direction: 'asc' }], [3, 2, 5, 1, 4, 6]],
  ['descending strings, ties by descending id', [{ field: 'title', direction: 'desc' }], [6, 4, 1, 5, 2, 3]],
  ['null and missing first when ascending', [{ field: 'date', direction: 'asc' }], [4, 5, 2, 1, 3, 6]],
  ['null and missing last when descending', [{ field: 'date', direction: 'desc' }], [6, 3, 1, 2, 5, 4]],
  ['booleans after null, false before true', [{ field: 'flag', direction: 'asc' }], [3, 6, 2, 5, 1, 4]],
  ['two keys, ties by id in the last direction', [
    { field: 'position', direction: 'asc' },
    { field: 'date', direction: 'desc' },
  ], [6, 2, 4, 3, 1, 5]],
  ['two keys in opposite directions', [
    { field: 'position', direction: 'desc' },
    { field: 'title', direction: 'asc' },
  ], [5, 3, 1, 2, 4, 6]],
  ['an explicit id key against the other direction', [
    { field: 'date', direction: 'desc' },
    { field: 'id', direction: 'asc' },
  ], [6, 1, 3, 2, 4, 5]],
  ['position in a list of ids, the rest after', [{ rank: idIs(4, 1, 6) }], [4, 1, 6, 2, 3, 5]],
  ['a repeated list entry keeps its first position', [{ rank: idIs(2, 2, 1) }], [2, 1, 3, 4, 5, 6]],
  ['position in a list of strings, ties by id', [{
    rank: [{ field: 'title', op: 'eq', value: 'c' }, { field: 'title', op: 'eq', value: 'a' }],
  }], [4, 2, 5, 1, 3, 6]],
  ['rank first, then a field', [{ rank: idIs(3, 5) }, { field: 'date', direction: 'desc' }], [3, 5, 6, 1, 2, 4]],
  ['rank by text matches, then a field', [
    { rank: [{ field: 'title', op: 'textContains', value: 'A' }] },
    { field: 'position', direction: 'asc' },
  ], [2, 5, 4, 6, 1, 3]],
  ['rank by the first condition that holds', [{
    rank: [
      { field: 'flag', op: 'eq', value: true },
      { op: 'or', conditions: [{ field: 'position', op: 'eq', value: 1 }, { field: 'title', op: 'eq', value: 'b' }] },
    ],
  }, { field: 'id', direction: 'desc' }], [4, 1, 6, 2, 5, 3]],
];

export function orderingTests(makeStore: MakeStore): void {
  describe('ordering', () => {
    it('orders as the port defines, with deterministic ties', async () => {
      await withStore(makeStore, async (store) => {
        await seed(store, 'things', FIXTURE);
        for (const [label, orderBy, expected] of CASES) {
          assert.deepEqual(idsOf(await store.list('things', orderBy ? { orderBy } : {})), expected, label);
        }
      });
    });

    it('keeps orders right when values change', async () => {
      await withStore(makeStore, async (store) => {
        await seed(store, 'things', FIXTURE);
        const byDate: SortKey[] = [{ field: 'date', direction: 'desc' }];
        assert.deepEqual(idsOf(await store.list('things', { orderBy: byDate })), [6, 3, 1, 2, 5, 4]);
        await store.update('things', 4, { date: '2025-01-01T00:00:00' });
        await store.update('things', 6, { date: undefined });
        await store.remove('things', 1);
        await store.insert('things', { date: '2024-01-02T00:00:00' });
        assert.deepEqual(idsOf(await store.list('things', { orderBy: byDate })), [4, 7, 3, 2, 6, 5]);
        assert.deepEqual(idsOf(await store.list('things', { orderBy: byDate, offset: 1, limit: 2 })), [7, 3]);
      });
    });
  });

  describe('paging', () => {
    const numbered = (count: number): NewRecord[] => Array.from({ length: count }, (_, index) => ({ n: index + 1, group: index % 3 }));
    const byN: SortKey[] = [{ field: 'n', direction: 'desc' }];

    it('applies offset and limit after ordering, and counts without them', async () => {
      await withStore(makeStore, async (store) => {
        await seed(store, 'things', numbered(25));
        const first = await store.list('things', { orderBy: byN, limit: 10, withTotal: true });
        assert.deepEqual(idsOf(first), [25, 24, 23, 22, 21, 20, 19, 18, 17, 16]);
        assert.equal(first.total, 25);
        const last = await store.list('things', { orderBy: byN, offset: 20, limit: 10, withTotal: true });
        assert.deepEqual(idsOf(last), [5, 4, 3, 2, 1]);
        assert.equal(last.total, 25);
        assert.deepEqual(await store.list('things', { orderBy: byN, offset: 30, limit: 10, withTotal: true }), { items: [], total: 25 });
        assert.deepEqual(await store.list('things', { limit: 0, withTotal: true }), { items: [], total: 25 });
        assert.deepEqual(idsOf(await store.list('things', { offset: 22 })), [23, 24, 25]);
      });
    });

    it('reports a total only when asked', async () => {
      await withStore(makeStore, async (store) => {
        await seed(store, 'things', numbered(3));
        const result = await store.list('things', { limit: 1 });
        assert.equal('total' in result, false);
        assert.equal('total' in (await store.list('things', { limit: 1, withTotal: false })), false);
      });
    });

    it('counts matches of filtered lists', async () => {
      await withStore(makeStore, async (store) => {
        await seed(store, 'things', numbered(25));
        const result = await store.list('things', {
          where: [{ field: 'n', op: 'gt', value: 10 }, { field: 'group', op: 'in', values: [0, 1] }],
          orderBy: byN,
          offset: 2,
          limit: 3,
          withTotal: true,
        });
        assert.deepEqual(idsOf(result), [22, 20, 19]);
        assert.equal(result.total, 10);
      });
    });

    it('pages through ties without repeating or skipping records', async () => {
      await withStore(makeStore, async (store) => {
        await seed(store, 'things', numbered(23));
        for (const direction of ['asc', 'desc'] as const) {
          const orderBy: SortKey[] = [{ field: 'group', direction }];
          const whole = idsOf(await store.list('things', { orderBy }));
          const paged: number[] = [];
          for (let offset = 0; offset < 23; offset += 4) paged.push(...idsOf(await store.list('things', { orderBy, offset, limit: 4 })));
          assert.deepEqual(paged, whole);
          assert.equal(new Set(paged).size, 23);
        }
      });
    });
  });
}
