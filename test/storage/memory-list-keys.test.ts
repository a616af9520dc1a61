import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Condition, ListQuery, Scalar } from '../../src/ports/storage.js';
import { createMemoryStorage } from '../../src/storage/memory/index.js';

/** Values that one naive key would confuse: same text, other types, and texts looking like key parts. */
const KINDS: Scalar[] = [1, '1', true, 'true', false, 'false', null, 'null', '', 0, '0', -1.5, '-1.5', 'n1;', 's1:1', '1:1', 'z', 'x', 't', 'f'];

async function stores(maxIndexesPerCollection = 16) {
  const indexed = createMemoryStorage({ maxIndexesPerCollection });
  const plain = createMemoryStorage({ useIndexes: false });
  let n = 0;
  for (const kind of KINDS) {
    for (const other of KINDS.slice(0, 6)) {
      n++;
      const record = { kind, other, 'a:b': kind, a: other, b: kind, date: `2024-01-${String(1 + (n % 28)).padStart(2, '0')}` };
      await indexed.insert('things', record);
      await plain.insert('things', record);
    }
  }
  // A record whose field holds an array or object: no equality condition selects it.
  for (const store of [indexed, plain]) {
    await store.insert('things', { kind: [1], other: { 1: 1 }, date: '2024-02-01' });
  }
  return { indexed, plain };
}

const byDate: ListQuery['orderBy'] = [{ field: 'date', direction: 'desc' }];

async function sameAnswers(indexed: ReturnType<typeof createMemoryStorage>, plain: ReturnType<typeof createMemoryStorage>, query: ListQuery, label: string) {
  const [mine, reference] = await Promise.all([indexed.list('things', { ...query, withTotal: true }), plain.list('things', { ...query, withTotal: true })]);
  assert.deepEqual(mine.items.map((item) => item.id), reference.items.map((item) => item.id), label);
  assert.equal(mine.total, reference.total, label);
}

describe('memory store: partitions and indexes are told apart exactly', () => {
  it('selects the partition of each value, never that of a value of another type or spelling', async () => {
    const { indexed, plain } = await stores();
    for (const kind of KINDS) {
      const query = { where: [{ field: 'kind', op: 'eq', value: kind }] as Condition[], orderBy: byDate };
      await sameAnswers(indexed, plain, query, `kind = ${JSON.stringify(kind)}`);
      const found = await indexed.list('things', { ...query, limit: 1000 });
      assert.ok(found.items.length > 0 && found.items.every((item) => item.kind === kind), `kind = ${JSON.stringify(kind)}`);
      assert.equal(indexed.explain('things', query).strategy, 'index');
    }
    for (let at = 0; at + 1 < KINDS.length; at++) {
      const pair = [KINDS[at]!, KINDS[at + 1]!];
      const where: Condition[] = [{ field: 'kind', op: 'in', values: pair }, { field: 'other', op: 'in', values: [pair[1]!, '1', 1] }];
      await sameAnswers(indexed, plain, { where, orderBy: byDate }, `in ${JSON.stringify(pair)}`);
    }
  });

  it('finds the partition asked again anew once writes have emptied, dropped or made it', async () => {
    const indexed = createMemoryStorage();
    const plain = createMemoryStorage({ useIndexes: false });
    const both = async (write: (store: ReturnType<typeof createMemoryStorage>) => Promise<unknown>) => { await write(indexed); await write(plain); };
    const where: Condition[] = [{ field: 'kind', op: 'eq', value: 'a' }, { field: 'other', op: 'eq', value: 1 }];
    const check = async (label: string) => {
      await sameAnswers(indexed, plain, { where, orderBy: byDate }, label);
      await sameAnswers(indexed, plain, { where: [{ field: 'kind', op: 'eq', value: 'a' }, { field: 'other', op: 'eq', value: '1' }], orderBy: byDate }, `${label}, '1'`);
      await sameAnswers(indexed, plain, { where, orderBy: byDate }, `${label}, again`);
    };
    await both((store) => store.insert('things', { id: 1, kind: 'a', other: 1, date: '2024-01-01' }));
    await both((store) => store.insert('things', { id: 2, kind: 'a', other: '1', date: '2024-01-02' }));
    await check('one record each');
    await both((store) => store.remove('things', 1));
    await both((store) => store.insert('things', { id: 3, kind: 'a', other: 1, date: '2024-01-03' }));
    await check('the partition emptied, dropped and made anew');
    await both((store) => store.remove('things', 3));
    await check('the partition emptied and dropped');
    await both((store) => store.insert('things', { id: 5, kind: 'a', other: 1, date: '2024-01-05' }));
    await check('the partition made anew');
    await both((store) => store.update('things', 2, { other: 1 }));
    await check('a record moved into it');
    await both((store) => store.insert('things', { id: 4, kind: 'a', other: 1, date: '2024-01-04' }));
    await check('a record added to it');
    assert.equal((await indexed.list('things', { where, withTotal: true })).total, 3);
  });

  it('keeps indexes of different fields apart, however the names read when joined, and under a small LRU', async () => {
    for (const capacity of [1, 2, 16]) {
      const { indexed, plain } = await stores(capacity);
      const shapes: Condition[][] = [
        [{ field: 'a:b', op: 'eq', value: 1 }],
        [{ field: 'a', op: 'eq', value: 1 }, { field: 'b', op: 'eq', value: 1 }],
        [{ field: 'a', op: 'eq', value: '1' }],
        [{ field: 'b', op: 'eq', value: 1 }],
        [{ field: 'kind', op: 'in', values: [1, '1', true] }, { field: 'other', op: 'eq', value: 1 }],
      ];
      for (let round = 0; round < 3; round++) {
        for (const [at, where] of shapes.entries()) {
          await sameAnswers(indexed, plain, { where, orderBy: byDate, limit: 5 }, `capacity ${capacity}, shape ${at}, round ${round}`);
          await sameAnswers(indexed, plain, { where, orderBy: [{ field: 'date', direction: 'asc' }], offset: 2, limit: 3 }, `asc, shape ${at}`);
        }
      }
    }
  });

  it('asks the index of each list\'s own fields, order and term field, however often the shape changes', async () => {
    for (const capacity of [1, 3]) {
      const indexed = createMemoryStorage({ maxIndexesPerCollection: capacity });
      const plain = createMemoryStorage({ useIndexes: false });
      for (let n = 0; n < 60; n++) {
        const record = { kind: n % 3, date: `2024-03-${String(1 + (n % 28)).padStart(2, '0')}`, rank: (n * 7) % 11, categories: [n % 4, 10 + (n % 2)], tags: [n % 5] };
        await indexed.insert('things', record);
        await plain.insert('things', record);
      }
      const kind: Condition = { field: 'kind', op: 'eq', value: 1 };
      const queries: ListQuery[] = [
        { where: [kind], orderBy: [{ field: 'date', direction: 'desc' }] },
        { where: [kind], orderBy: [{ field: 'rank', direction: 'desc' }] },
        { where: [kind], orderBy: [{ field: 'id', direction: 'asc' }] },
        { where: [kind, { field: 'categories', op: 'containsAny', values: [2] }], orderBy: [{ field: 'date', direction: 'desc' }] },
        { where: [kind, { field: 'tags', op: 'containsAny', values: [2] }], orderBy: [{ field: 'date', direction: 'desc' }] },
        { where: [{ field: 'categories', op: 'containsAny', values: [2] }], orderBy: [{ field: 'date', direction: 'desc' }] },
      ];
      for (let round = 0; round < 2; round++) {
        for (const [at, query] of queries.entries()) {
          await sameAnswers(indexed, plain, { ...query, limit: 4 }, `capacity ${capacity}, query ${at}, round ${round}`);
          await sameAnswers(indexed, plain, { ...query, limit: 4 }, `capacity ${capacity}, query ${at} again`);
        }
      }
    }
  });

  it('finds the recently used indexes again, kept up to date by writes between, evicted or not', async () => {
    for (const capacity of [1, 3, 7, 16]) {
      const indexed = createMemoryStorage({ maxIndexesPerCollection: capacity });
      const plain = createMemoryStorage({ useIndexes: false });
      const record = (n: number) => ({ kind: n % 3, other: n % 4, date: `2024-03-${String(1 + (n % 28)).padStart(2, '0')}`, rank: (n * 7) % 11 });
      for (let n = 0; n < 40; n++) for (const store of [indexed, plain]) await store.insert('things', record(n));
      // More shapes than indexes found again without a signature, each asked with writes of every kind between.
      const shapes: ListQuery[] = [
        { where: [{ field: 'kind', op: 'eq', value: 1 }], orderBy: byDate },
        { where: [{ field: 'other', op: 'eq', value: 2 }], orderBy: byDate },
        { where: [{ field: 'kind', op: 'eq', value: 2 }, { field: 'other', op: 'eq', value: 1 }], orderBy: byDate },
        { where: [{ field: 'other', op: 'eq', value: 3 }, { field: 'kind', op: 'eq', value: 0 }], orderBy: byDate },
        { where: [{ field: 'kind', op: 'eq', value: 0 }], orderBy: [{ field: 'rank', direction: 'asc' }] },
        { where: [{ field: 'rank', op: 'eq', value: 3 }], orderBy: byDate },
        { where: [{ field: 'kind', op: 'eq', value: 1 }], orderBy: [{ field: 'id', direction: 'desc' }] },
        { where: [{ field: 'other', op: 'eq', value: 0 }], orderBy: [{ field: 'rank', direction: 'desc' }] },
      ];
      let added: number | null = null;
      for (let round = 0; round < 4; round++) {
        for (const [at, query] of shapes.entries()) {
          await sameAnswers(indexed, plain, { ...query, limit: 5 }, `capacity ${capacity}, shape ${at}, round ${round}`);
          const id = 1 + ((round * 11 + at * 5) % 40);
          const change = round % 3 === 0 ? { kind: (at + round) % 3 } : round % 3 === 1 ? { other: at % 4, rank: round } : { date: `2024-04-0${1 + (at % 9)}` };
          for (const store of [indexed, plain]) await store.update('things', id, change);
          if (at === 3) {
            const [mine, reference] = [await indexed.insert('things', record(100 + round)), await plain.insert('things', record(100 + round))];
            assert.equal(mine.id, reference.id);
            added = mine.id as number;
          }
          if (at === 6 && added !== null) {
            for (const store of [indexed, plain]) assert.equal(await store.remove('things', added), true);
            added = null;
          }
          await sameAnswers(indexed, plain, { ...query, limit: 5 }, `capacity ${capacity}, shape ${at}, round ${round}, after a write`);
          // The first shape again, its index among the recent ones (or evicted meanwhile), a record moved since.
          for (const store of [indexed, plain]) await store.update('things', 1 + ((at * 7 + round) % 40), { kind: 1, date: `2024-05-0${1 + (at % 9)}` });
          await sameAnswers(indexed, plain, { ...shapes[0]!, limit: 5 }, `capacity ${capacity}, the first shape after shape ${at}, round ${round}`);
        }
      }
    }
  });

  it('sees a write in the partitions it picks', async () => {
    const { indexed, plain } = await stores();
    const where: Condition[] = [{ field: 'kind', op: 'eq', value: 'true' }];
    await sameAnswers(indexed, plain, { where, orderBy: byDate }, 'before');
    for (const store of [indexed, plain]) {
      const [first] = (await store.list('things', { where, orderBy: byDate, limit: 1 })).items;
      await store.update('things', first!.id, { kind: true });
    }
    await sameAnswers(indexed, plain, { where, orderBy: byDate }, 'after');
    await sameAnswers(indexed, plain, { where: [{ field: 'kind', op: 'eq', value: true }], orderBy: byDate }, 'after, the new value');
  });
});

describe('list queries: what is wrong is still named exactly', () => {
  const store = createMemoryStorage();
  const rejects = (query: unknown, message: string) => assert.rejects(store.list('things', query as ListQuery), (error: Error) => {
    assert.equal((error as { code?: string }).code, 'invalid_query');
    assert.equal(error.message, message);
    return true;
  });

  it('names the condition or key at fault, nested ones included', async () => {
    await rejects({ where: [{ field: 'a', op: 'eq', value: 1 }, { op: 'or', conditions: [{ field: 'b', op: 'eq', value: 2 }, { field: 'c', op: 'eq', value: {} }] }] },
      'where[1].conditions[1].value must be a string, finite number, boolean or null.');
    await rejects({ where: [{ op: 'not', condition: { field: '', op: 'eq', value: 1 } }] }, 'where[0].condition.field must be a non-empty string.');
    await rejects({ where: [{ field: 'a', op: 'in', values: [1, Number.NaN] }] }, 'where[0].values must be an array of scalars.');
    await rejects({ where: [{ field: 'a', op: 'like', value: 'x' }] }, 'where[0].op "like" is not a known operator.');
    await rejects({ where: [{ field: 'a', op: 'eq', value: 1 }, null] }, 'where[1] is not a condition.');
    await rejects({ where: [{ field: 'a', op: 'eq', value: 1 }, , { field: 'b', op: 'eq', value: 1 }] }, 'where[1] is not a condition.');
    await rejects({ orderBy: [{ field: 'date', direction: 'desc' }, { field: 'id', direction: 'up' }] }, 'orderBy[1].direction must be "asc" or "desc".');
    await rejects({ orderBy: [{ rank: [{ field: 'a', op: 'eq' }] }] }, 'orderBy[0].rank[0].value must be a string, finite number, boolean or null.');
  });

  it('accepts what is right', async () => {
    const { items } = await store.list('things', {
      where: [{ op: 'and', conditions: [{ field: 'a', op: 'containsAny', values: [1, 'x'] }, { op: 'not', condition: { field: 'b', op: 'textContains', value: 'q' } }] }],
      orderBy: [{ rank: [{ field: 'a', op: 'eq', value: 1 }] }, { field: 'date', direction: 'asc' }],
    });
    assert.deepEqual(items, []);
  });
});
