/**
 * Lists of the records holding a term, shaped as the posts lists ask for them (one type, one or several
 * statuses, a category or tag filter, newest first, a page and the total), which stores may answer from
 * dedicated indexes. Checked against the naive reference while records change, including the odd cases such
 * indexes must still get right: dates and terms of other types, repeated elements, records leaving a term.
 */
import assert from 'node:assert/strict';
import { describe, it } from '../runner.js';
import type { Condition, ListQuery, NewRecord, SortKey } from '../../ports/storage.js';
import { referenceList } from '../reference-model.js';
import { Generator, Mirror, plannedRollback, randomWrites } from './randomised.js';
import type { MakeStore } from './support.js';
import { seed, withStore } from './support.js';

const RECORDS = 1000;
const QUERIES = 250;

const TYPES = ['post', 'page', 'attachment'];
const STATUSES = ['publish', 'draft', 'pending', 'private', 'trash', 'future'];
const TERMS: (string | number)[] = [1, 2, 3, 4, 5, 6, '2'];

function termQuery(generator: Generator): ListQuery {
  const field = generator.pick(['categories', 'tags']);
  const values = [...new Set(generator.some(TERMS, 1, 3))];
  const where: Condition[] = [{ field: 'type', op: 'eq', value: generator.pick(TYPES) }];
  const statusRoll = generator.random();
  if (statusRoll < 0.5) where.push({ field: 'status', op: 'eq', value: generator.pick(STATUSES) });
  else if (statusRoll < 0.85) where.push({ field: 'status', op: 'in', values: generator.some(STATUSES, 1, 4) });
  const opRoll = generator.random();
  if (opRoll < 0.55) where.push({ field, op: 'containsAny', values: values.slice(0, 1) });
  else if (opRoll < 0.75) where.push({ field, op: 'containsAny', values });
  else if (opRoll < 0.9) where.push({ field, op: 'containsAll', values });
  else where.push({ field, op: 'containsNone', values: values.slice(0, 1) });
  const extraRoll = generator.random();
  if (extraRoll < 0.15) where.push({ field: 'author', op: 'eq', value: generator.int(1, 8) });
  else if (extraRoll < 0.25) where.push({ field: 'date', op: generator.pick(['lt', 'gte'] as const), value: generator.pick(generator.dates) });
  else if (extraRoll < 0.3) where.push({ field: generator.pick(['categories', 'tags']), op: 'containsNone', values: [generator.pick(TERMS)] });
  else if (extraRoll < 0.35) where.push({ field: 'id', op: 'notIn', values: [generator.int(1, RECORDS)] });
  const direction = generator.pick(['asc', 'desc', 'desc'] as const);
  const orderBy: SortKey[] = generator.random() < 0.8
    ? [{ field: 'date', direction }]
    : [{ field: 'date', direction }, { field: 'id', direction }];
  const query: ListQuery = { where, orderBy, offset: generator.pick([0, 0, 10, 20, 200]), limit: generator.pick([1, 10, 10, 100]) };
  if (generator.random() < 0.8) query.withTotal = true;
  return query;
}

/** A posts-like record; one in ten has a date or term array of an unexpected shape. */
function termRecord(generator: Generator): NewRecord {
  const record = generator.record();
  record.type = generator.pick(TYPES);
  record.status = generator.pick(STATUSES);
  record.categories = generator.some(TERMS, 0, 3);
  if (generator.random() < 0.1) {
    switch (generator.int(0, 5)) {
      case 0: record.date = null; break;
      case 1: delete record.date; break;
      case 2: record.date = generator.int(0, 5); break;
      case 3: record.categories = 'not an array'; break;
      case 4: record.tags = [[2], { 2: 2 }, null, true, 2, 2]; break;
      default: record.type = null;
    }
  }
  return record;
}

export function termListTests(makeStore: MakeStore): void {
  describe('lists of the records holding a term', () => {
    it(`answers ${QUERIES} posts-like term lists over ${RECORDS} changing records like the reference`, async () => {
      await withStore(makeStore, async (store) => {
        const generator = new Generator(20261127);
        const mirror = new Mirror(store, 'posts');
        await mirror.load(Array.from({ length: RECORDS }, () => termRecord(generator)));
        for (let round = 0; round < QUERIES; round++) {
          const query = termQuery(generator);
          const actual = await store.list('posts', query);
          assert.deepEqual(actual, referenceList(mirror.model.values(), query), `query #${round}: ${JSON.stringify(query)}`);
          if (round % 5 === 4) {
            await randomWrites(mirror, store, generator, 10);
            // Move a record between terms, dates and statuses, as editing a post does.
            await mirror.update(store, mirror.anyId(generator), {
              categories: generator.some(TERMS, 0, 2), date: generator.pick(generator.dates), status: generator.pick(STATUSES),
            });
          }
          if (round % 50 === 25) await plannedRollback(mirror, store, generator, 20);
        }
      });
    });

    it('counts a record holding several of the wanted terms once', async () => {
      await withStore(makeStore, async (store) => {
        await seed(store, 'posts', [
          { type: 'post', status: 'publish', date: '2024-01-01T00:00:00', categories: [1, 2, 2] },
          { type: 'post', status: 'publish', date: '2024-01-02T00:00:00', categories: [2] },
          { type: 'post', status: 'publish', date: '2024-01-03T00:00:00', categories: ['1'] },
          { type: 'post', status: 'draft', date: '2024-01-04T00:00:00', categories: [1] },
        ]);
        const newest: SortKey[] = [{ field: 'date', direction: 'desc' }];
        const listed = await store.list('posts', {
          where: [{ field: 'type', op: 'eq', value: 'post' }, { field: 'status', op: 'eq', value: 'publish' },
            { field: 'categories', op: 'containsAny', values: [1, 2] }],
          orderBy: newest, limit: 10, withTotal: true,
        });
        assert.deepEqual(listed.items.map((item) => item.id), [2, 1]);
        assert.equal(listed.total, 2);
        const single = await store.list('posts', {
          where: [{ field: 'type', op: 'eq', value: 'post' }, { field: 'categories', op: 'containsAny', values: [2] }],
          orderBy: newest, limit: 1, withTotal: true,
        });
        assert.deepEqual(single.items.map((item) => item.id), [2]);
        assert.equal(single.total, 2);
      });
    });
  });
}
