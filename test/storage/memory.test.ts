import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { ListQuery, NewRecord } from '../../src/ports/storage.js';
import type { MemoryStorage } from '../../src/storage/memory/index.js';
import { createMemoryStorage } from '../../src/storage/memory/index.js';
import { runStorageConformance } from '../../src/testing/storage-conformance.js';
import { seed, seededRandom } from '../../src/testing/conformance/support.js';

runStorageConformance('memory', async () => createMemoryStorage());
runStorageConformance('memory without indexes', async () => createMemoryStorage({ useIndexes: false }));
runStorageConformance('memory keeping one index per collection', async () => createMemoryStorage({ maxIndexesPerCollection: 1 }));

const POSTS = 5000;

function postsLike(count: number): NewRecord[] {
  const random = seededRandom(7);
  const pick = <T>(items: T[]) => items[Math.floor(random() * items.length)]!;
  return Array.from({ length: count }, () => ({
    type: pick(['post', 'post', 'page']),
    status: pick(['publish', 'publish', 'draft', 'private']),
    author: 1 + Math.floor(random() * 5),
    date: `2024-${String(1 + Math.floor(random() * 12)).padStart(2, '0')}-${String(1 + Math.floor(random() * 28)).padStart(2, '0')}T12:00:00`,
    title: pick(['alpha', 'beta', 'gamma']),
    categories: [...new Set([1 + Math.floor(random() * 8), 1 + Math.floor(random() * 8)])],
    tags: random() < 0.5 ? [pick(['a', 'b', 'c'])] : 'not an array',
  }));
}

const published: ListQuery['where'] = [{ field: 'type', op: 'eq', value: 'post' }, { field: 'status', op: 'eq', value: 'publish' }];
const newestFirst: ListQuery['orderBy'] = [{ field: 'date', direction: 'desc' }];

describe('memory store: query plans', () => {
  let store: MemoryStorage;
  let plain: MemoryStorage;
  let publishedPosts: number;

  before(async () => {
    store = createMemoryStorage();
    plain = createMemoryStorage({ useIndexes: false });
    const records = postsLike(POSTS);
    await seed(store, 'posts', records);
    await seed(plain, 'posts', records);
    publishedPosts = records.filter((record) => record.type === 'post' && record.status === 'publish').length;
  });

  async function sameAsUnindexed(query: ListQuery): Promise<void> {
    assert.deepEqual(await store.list('posts', query), await plain.list('posts', query));
  }

  it('reads only the requested page of a typical list', async () => {
    const query: ListQuery = { where: published, orderBy: newestFirst, offset: 20, limit: 10, withTotal: true };
    assert.deepEqual(store.explain('posts', query), {
      strategy: 'index',
      index: { equalityFields: ['status', 'type'], orderField: 'date' },
      ordered: true,
      examined: 10,
    });
    assert.equal((await store.list('posts', query)).total, publishedPosts);
    await sameAsUnindexed(query);
    assert.equal(plain.explain('posts', query).examined, POSTS);
  });

  it('merges the partitions of an `in` list without reading skipped records', async () => {
    const query: ListQuery = {
      where: [{ field: 'type', op: 'eq', value: 'post' }, { field: 'status', op: 'in', values: ['publish', 'draft', 'private'] }],
      orderBy: newestFirst,
      offset: 30,
      limit: 10,
      withTotal: true,
    };
    const plan = store.explain('posts', query);
    assert.equal(plan.ordered, true);
    assert.equal(plan.examined, 10);
    await sameAsUnindexed(query);
  });

  it('turns ranges on the order field into bounds', async () => {
    const query: ListQuery = {
      where: [...published!, { field: 'date', op: 'lt', value: '2024-07-01T00:00:00' }, { field: 'date', op: 'gte', value: '2024-03-01T00:00:00' }],
      orderBy: newestFirst,
      offset: 10,
      limit: 10,
      withTotal: true,
    };
    assert.equal(store.explain('posts', query).examined, 10);
    await sameAsUnindexed(query);
  });

  it('checks other conditions record by record, stopping at the page unless a total is needed', async () => {
    const query: ListQuery = {
      where: [...published!, { field: 'author', op: 'ne', value: 3 }],
      orderBy: newestFirst,
      limit: 10,
    };
    const withoutTotal = store.explain('posts', query).examined;
    assert.ok(withoutTotal >= 10 && withoutTotal < 40, `examined ${withoutTotal}`);
    assert.equal(store.explain('posts', { ...query, withTotal: true }).examined, publishedPosts);
    await sameAsUnindexed({ ...query, withTotal: true });
  });

  it('reads only the records holding a term, through the element index', async () => {
    for (const where of [
      [...published!, { field: 'categories', op: 'containsAny', values: [3, 5] }],
      [...published!, { field: 'categories', op: 'containsAll', values: [3, 5] }],
      [...published!, { field: 'categories', op: 'containsNone', values: [3] }, { field: 'tags', op: 'containsAny', values: ['a', 1] }],
    ] as ListQuery['where'][]) {
      const query: ListQuery = { where, orderBy: newestFirst, offset: 3, limit: 10, withTotal: true };
      const { total } = await store.list('posts', query);
      assert.ok(total! > 0, JSON.stringify(where));
      assert.equal(store.explain('posts', query).examined, total, 'only matching records are read');
      await sameAsUnindexed(query);
      await sameAsUnindexed({ where, withTotal: true });
    }
  });

  it('keeps the element index right through writes and rollbacks', async () => {
    const own = createMemoryStorage();
    await seed(own, 'posts', postsLike(200));
    const query: ListQuery = { where: [...published!, { field: 'categories', op: 'containsAny', values: [99] }], orderBy: newestFirst, withTotal: true };
    const ids = async () => (await own.list('posts', query)).items.map((record) => record.id);
    assert.deepEqual(await ids(), [], 'the index is built by this first list');
    const [first, second] = (await own.list('posts', { where: published, orderBy: newestFirst, limit: 2 })).items;
    await own.update('posts', first!.id, { categories: [99] });
    await own.update('posts', second!.id, { categories: [99, 1] });
    assert.deepEqual(await ids(), [first!.id, second!.id]);
    await own.transaction(async (tx) => {
      await tx.remove('posts', first!.id);
      throw new Error('undo');
    }).catch(() => undefined);
    assert.deepEqual(await ids(), [first!.id, second!.id], 'a rolled-back removal leaves the record in the index');
    await own.update('posts', first!.id, { categories: [1] });
    await own.remove('posts', second!.id);
    assert.deepEqual(await ids(), []);
  });

  it('moves a rewritten record in every index only when one of its indexed values changed', async () => {
    const own = createMemoryStorage();
    await seed(own, 'posts', postsLike(120));
    const byTerm: ListQuery = { where: [...published!, { field: 'categories', op: 'containsAny', values: [7] }], orderBy: newestFirst, withTotal: true };
    const byStatus: ListQuery = { where: published, orderBy: newestFirst, limit: 5, withTotal: true };
    const holders: ListQuery = { where: [{ field: 'tags', op: 'containsAll', values: ['x', 'y'] }], withTotal: true };
    const answer = async () => Promise.all([byTerm, byStatus, holders].map(async (query) => {
      const { items, total } = await own.list('posts', query);
      return { ids: items.map((record) => record.id), total };
    }));
    const reference = createMemoryStorage({ useIndexes: false });
    const rows = (await own.list('posts')).items;
    for (const row of rows) await reference.insert('posts', row);
    const same = async () => {
      const expected = await Promise.all([byTerm, byStatus, holders].map(async (query) => {
        const { items, total } = await reference.list('posts', query);
        return { ids: items.map((record) => record.id), total };
      }));
      assert.deepEqual(await answer(), expected);
    };
    await same();
    const [first, second] = (await own.list('posts', byStatus)).items;
    const both = async (id: number, patch: Record<string, unknown>) => {
      await own.update('posts', id, patch);
      await reference.update('posts', id, patch);
      await same();
    };
    // Equal values in new arrays, then the same elements reordered, then other values: each read right.
    await both(first!.id, { categories: [...(first!.categories as number[])], title: 'retitled' });
    await both(first!.id, { categories: [7, 8], tags: ['y', 'x'] });
    await both(first!.id, { categories: [8, 7], tags: ['x', 'y'] });
    await both(second!.id, { tags: ['x', 'y', 'x'], date: first!.date });
    await both(second!.id, { status: 'draft' });
    await both(first!.id, { categories: [], tags: [] });
  });

  it('reads pinned ids directly', async () => {
    const query: ListQuery = { where: [{ field: 'id', op: 'in', values: [5, 50, 500, POSTS + 10] }, ...published!] };
    assert.deepEqual(store.explain('posts', query), { strategy: 'ids', ordered: false, examined: 3 });
    await sameAsUnindexed(query);
  });

  it('sorts the selected partition when the order has several keys', async () => {
    const query: ListQuery = { where: published, orderBy: [{ field: 'title', direction: 'asc' }, ...newestFirst!], limit: 5 };
    const plan = store.explain('posts', query);
    assert.equal(plan.strategy, 'index');
    assert.equal(plan.ordered, false);
    assert.equal(plan.examined, publishedPosts);
    await sameAsUnindexed(query);
  });

  it('scans when nothing narrows the collection and the order is not a single field', async () => {
    const query: ListQuery = { orderBy: [{ rank: [{ field: 'id', op: 'eq', value: 9 }] }], limit: 3 };
    assert.deepEqual(store.explain('posts', query), { strategy: 'scan', ordered: false, examined: POSTS });
    await sameAsUnindexed(query);
  });

  it('keeps indexes right through writes and rollbacks', async () => {
    const query: ListQuery = { where: published, orderBy: newestFirst, limit: 10, withTotal: true };
    await store.list('posts', query);
    const [newest] = (await store.list('posts', query)).items;
    const failure = new Error('undo');
    await assert.rejects(store.transaction(async (tx) => {
      await tx.update('posts', newest!.id, { status: 'draft' });
      await tx.insert('posts', { type: 'post', status: 'publish', date: '2030-01-01T00:00:00' });
      throw failure;
    }), (error) => error === failure);
    assert.equal((await store.list('posts', query)).items[0]!.id, newest!.id);
    await sameAsUnindexed(query);
  });
});

describe('memory store: isolation', () => {
  it('queues writes behind a running transaction, while reads see committed data only', async () => {
    const store = createMemoryStorage();
    await store.insert('posts', { title: 'a' });
    let release!: () => void;
    const gate = new Promise<void>((resolve) => { release = resolve; });
    let entered!: () => void;
    const inside = new Promise<void>((resolve) => { entered = resolve; });
    const running = store.transaction(async (tx) => {
      await tx.update('posts', 1, { title: 'uncommitted' });
      entered();
      await gate;
    });
    await inside;
    let outsideDone = false;
    const outside = store.insert('posts', { title: 'b' }).then(() => { outsideDone = true; });
    await new Promise((resolve) => setTimeout(resolve, 5));
    assert.equal(outsideDone, false);
    assert.equal(await store.get('posts', 2), null);
    assert.equal((await store.get('posts', 1))!.title, 'a');
    release();
    await running;
    await outside;
    assert.equal((await store.get('posts', 1))!.title, 'uncommitted');
    assert.equal((await store.get('posts', 2))!.title, 'b');
  });
});

describe('memory store: shared reads', () => {
  it('hands out its own records deeply frozen, and copies to every other read', async () => {
    const store = createMemoryStorage();
    await store.insert('posts', { title: 'x', tags: ['a'], meta: { deep: { n: 1 } } });
    const [shared] = (await store.list('posts', { shared: true })).items;
    assert.ok(Object.isFrozen(shared) && Object.isFrozen(shared!.tags) && Object.isFrozen((shared!.meta as { deep: object }).deep));
    assert.equal((await store.list('posts', { shared: true })).items[0], shared);
    const [copy] = (await store.list('posts')).items;
    assert.notEqual(copy, shared);
    assert.ok(!Object.isFrozen(copy) && !Object.isFrozen(copy!.tags));
    assert.throws(() => { (shared!.tags as string[]).push('b'); }, TypeError);
    assert.deepEqual((await store.get('posts', 1))!.tags, ['a']);
  });
});

describe('memory store: the writes a commit tells', () => {
  for (const steps of [3, 40]) {
    it(`names each record once, as before its first write and after its last (${steps} writes in one transaction)`, async () => {
      const store = createMemoryStorage();
      const first = await store.insert('posts', { title: 'first' });
      const second = await store.insert('posts', { title: 'second' });
      const token = await store.changeToken();
      await store.transaction(async (tx) => {
        for (let step = 0; step < steps; step += 1) {
          await tx.update('posts', step % 2 === 0 ? first.id : second.id, { title: `step ${step}` });
          if (step === 1) await tx.insert('tags', { name: 'new' });
        }
        await tx.remove('posts', second.id);
      });
      const writes = store.writtenSince(token)!;
      assert.deepEqual(writes.map((write) => [write.collection, write.id]), [['posts', first.id], ['posts', second.id], ['tags', 1]]);
      assert.deepEqual(writes[0]!.before, first);
      assert.equal(writes[0]!.after!.title, `step ${steps % 2 === 0 ? steps - 2 : steps - 1}`);
      assert.deepEqual(writes[1]!.before, second);
      assert.equal(writes[1]!.after, null);
      assert.deepEqual(writes[2], { collection: 'tags', id: 1, before: null, after: { name: 'new', id: 1 } });
      assert.equal((await store.insert('tags', { name: 'next' })).id, 2, 'the id counter was handed over');
    });
  }
});
