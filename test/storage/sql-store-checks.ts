/**
 * Checks for the SQL stores beyond the conformance suite: the places where SQL's own rules (collations, LIKE
 * wildcards, JSON paths, NULL logic, integer columns) could leak through if a store got its translation wrong.
 * Every answer is compared with the naive reference model.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Condition, ListQuery, NewRecord, StoragePort } from '../../src/ports/storage.js';
import { referenceList } from '../../src/testing/reference-model.js';
import type { MakeStore } from '../../src/testing/conformance/support.js';
import { seed, seededRandom, withStore } from '../../src/testing/conformance/support.js';

const TRICKY_TEXTS = [
  'İstanbul', 'ΣΊΣΥΦΟΣ σοφός', 'Straße', 'STRASSE', '😀 Émoji 😀', 'a%b_c\\d', 'x"y', "O'Brien", 'ǅungla',
  'ﬁne print', 'K is Kelvin', 'Ⅻ o’clock', 'naïve café', 'NAÏVE CAFÉ', 'plain ascii', '', '   ', 'ÅÄÖ åäö',
];

async function sameAsReference(store: StoragePort, collection: string, records: NewRecord[], queries: ListQuery[]): Promise<void> {
  const stored = await seed(store, collection, records);
  for (const query of queries) {
    assert.deepEqual(await store.list(collection, query), referenceList(stored, query), JSON.stringify(query));
  }
}

/** Totals of lists the stores answer from their counts per type and status, checked against the records. */
async function sameTotals(store: StoragePort, values: { type: unknown[]; status: unknown[] }, where: string): Promise<void> {
  const { items: all } = await store.list('posts');
  const strings = (list: unknown[]) => list.filter((value): value is string => typeof value === 'string');
  const queries: ListQuery[] = [{}, { limit: 0 }];
  for (const type of strings(values.type)) {
    queries.push({ where: [{ field: 'type', op: 'eq', value: type }] });
    queries.push({ where: [{ field: 'type', op: 'eq', value: type }, { field: 'status', op: 'in', values: strings(values.status) }], limit: 2 });
    for (const status of strings(values.status)) {
      queries.push({ where: [{ field: 'status', op: 'eq', value: status }, { field: 'type', op: 'eq', value: type }], offset: 1, limit: 3 });
    }
  }
  queries.push({ where: [{ field: 'status', op: 'in', values: strings(values.status).slice(0, 2) }, { field: 'status', op: 'in', values: strings(values.status).slice(1) }] });
  queries.push({ where: [{ field: 'type', op: 'in', values: [] }] });
  for (const query of queries) {
    const answer = await store.list('posts', { ...query, orderBy: [{ field: 'date', direction: 'desc' }], withTotal: true });
    const expected = referenceList(all, { ...query, orderBy: [{ field: 'date', direction: 'desc' }], withTotal: true });
    assert.deepEqual(answer, expected, `${where}: ${JSON.stringify(query)}`);
  }
}

export function sqlStoreChecks(makeStore: MakeStore): void {
  describe('totals from counts', () => {
    it('stay exact through inserts, updates, removes, rollbacks and savepoints', async () => {
      const random = seededRandom(23);
      const values = {
        type: ['post', 'page', 'Post', 'pa\uE000ge', '😀', 7, true, null, undefined, ['post']],
        status: ['publish', 'draft', '', 'dr\uFFFDaft', 0, false, null, undefined, { status: 'publish' }],
      };
      const pick = <T>(items: T[]) => items[Math.floor(random() * items.length)]!;
      const record = (): NewRecord => ({ type: pick(values.type), status: pick(values.status), date: `2024-01-${String(1 + Math.floor(random() * 28)).padStart(2, '0')}` });
      await withStore(makeStore, async (store) => {
        await seed(store, 'posts', Array.from({ length: 60 }, record));
        await store.insert('others', { type: 'post', status: 'publish' });
        await sameTotals(store, values, 'after seeding');
        let next = 61;
        const someId = () => 1 + Math.floor(random() * next);
        for (let round = 0; round < 6; round++) {
          await store.update('posts', someId(), { type: pick(values.type), status: pick(values.status) });
          await store.update('posts', someId(), { status: pick(values.status) });
          await store.update('posts', someId(), { title: 'only the title' });
          await store.remove('posts', someId());
          await store.insert('posts', record());
          next++;
          await assert.rejects(store.transaction(async (tx) => {
            await tx.insert('posts', record());
            await tx.update('posts', someId(), { status: pick(values.status) });
            await tx.remove('posts', someId());
            throw new Error('undone');
          }));
          await store.transaction(async (tx) => {
            await tx.update('posts', someId(), { type: pick(values.type) });
            await assert.rejects(tx.transaction(async (inner) => {
              await inner.insert('posts', record());
              await inner.update('posts', someId(), { type: undefined, status: pick(values.status) });
              throw new Error('inner undone');
            }));
            await tx.insert('posts', record());
            await sameTotals(tx, values, `inside round ${round}`);
          });
          next += 3;
          await sameTotals(store, values, `after round ${round}`);
        }
        assert.deepEqual(await store.list('others', { withTotal: true, where: [{ field: 'type', op: 'eq', value: 'post' }] }), { items: [{ id: 1, type: 'post', status: 'publish' }], total: 1 });
      });
    });
  });

  describe('SQL translation', () => {
    it('folds case exactly as JavaScript does, with and without text indexes', async () => {
      const random = seededRandom(11);
      const pick = <T>(items: T[]) => items[Math.floor(random() * items.length)]!;
      const records: NewRecord[] = Array.from({ length: 120 }, () => ({
        title: `${pick(TRICKY_TEXTS)} ${pick(TRICKY_TEXTS)}`,
        content: pick(TRICKY_TEXTS),
        note: pick(TRICKY_TEXTS),
        ...(random() < 0.2 ? { excerpt: 7 } : { excerpt: pick(TRICKY_TEXTS) }),
      }));
      const needles = [
        'i̇stanbul', 'İSTANBUL', 'istanbul', 'σίσυφος', 'ΣΟΦΌΣ', 'sofos', 'straße', 'strasse', 'STRASSE', '😀 é', 'émoji',
        '%', '_', 'a%b', 'b_c', '\\d', 'c\\', '"y', "o'b", 'ǆ', 'ǅ', 'ﬁ', 'fi', 'k is', 'ⅻ', 'ïve c', 'AFÉ', 'åä', ' ', '   ',
        'plain', 'xyz', 'ascii',
      ];
      const queries: ListQuery[] = [];
      for (const needle of needles) {
        for (const field of ['title', 'content', 'excerpt', 'note']) {
          queries.push({ where: [{ field, op: 'textContains', value: needle }], withTotal: true });
          queries.push({ where: [{ field, op: 'textEquals', value: needle }] });
        }
        queries.push({ search: { fields: ['title', 'excerpt', 'content'], terms: [needle] }, orderBy: [{ field: 'title', direction: 'asc' }] });
        queries.push({ search: { fields: ['title', 'note'], terms: ['a'], excludedTerms: [needle] }, withTotal: true, limit: 5 });
      }
      for (const text of TRICKY_TEXTS) {
        queries.push({ search: { fields: ['title', 'content', 'note'], terms: [text.toUpperCase()], match: 'equals' } });
      }
      await withStore(makeStore, (store) => sameAsReference(store, 'texts', records, queries));
    });

    it('reads fields whatever their names', async () => {
      const names = ['a.b', 'with "quotes"', "it's", 'back\\slash', 'spaces here', '$', '[0]', '__proto__', 'ünï', '-- ;'];
      const records: NewRecord[] = Array.from({ length: 30 }, (_, index) => {
        const record: NewRecord = {};
        for (const [position, name] of names.entries()) {
          if ((index + position) % 4 !== 0) Object.defineProperty(record, name, { value: (index * (position + 3)) % 7, enumerable: true });
          else Object.defineProperty(record, name, { value: [index % 3, `t${index % 5}`], enumerable: true });
        }
        return record;
      });
      const queries: ListQuery[] = names.flatMap((field): ListQuery[] => [
        { where: [{ field, op: 'eq', value: 3 }] },
        { where: [{ field, op: 'gte', value: 4 }], orderBy: [{ field, direction: 'desc' }] },
        { where: [{ field, op: 'in', values: [1, 2, null] }], orderBy: [{ field, direction: 'asc' }], limit: 7 },
        { where: [{ field, op: 'containsAny', values: [2, 't1'] }] },
        { where: [{ field, op: 'containsAll', values: [0, 't0'] }] },
        { where: [{ field, op: 'textEquals', value: '' }] },
      ]);
      await withStore(makeStore, (store) => sameAsReference(store, 'names', records, queries));
    });

    it('keeps values of different types apart in every operator', async () => {
      const values: unknown[] = [
        0, 1, 1.5, -2, 1e21, '1', '0', '', 'a', 'true', 'null', true, false, null, [], [1], ['1'], [true], [[1]], [{ a: 1 }],
        [1, 1.0, '1'], { a: 1 }, {}, [null], ['[1]'], '[1]', '{"a":1}',
      ];
      const records: NewRecord[] = values.map((value) => ({ value, type: value, status: value, author: value, sticky: value, tags: value, categories: value }));
      records.push({}, { other: 1 });
      const scalars = [0, 1, 1.5, '1', '', 'a', 'true', '[1]', '{"a":1}', true, false, null];
      const queries: ListQuery[] = [];
      // `type`, `status`, `author` and `sticky` have columns of their own in both stores, `tags` and `categories`
      // an index of their elements; `value` has neither.
      for (const field of ['value', 'type', 'status', 'author', 'sticky', 'tags', 'categories']) {
        for (const value of scalars) {
          for (const op of ['eq', 'ne', 'lt', 'lte', 'gt', 'gte'] as const) queries.push({ where: [{ field, op, value }] });
          queries.push({ where: [{ op: 'not', condition: { field, op: 'gt', value } }] });
        }
        queries.push({ where: [{ field, op: 'in', values: scalars }] });
        queries.push({ where: [{ field, op: 'notIn', values: [1, '1', true, null] }] });
        for (const item of [1, '1', 0, 'a', '[1]']) {
          queries.push({ where: [{ field, op: 'containsAny', values: [item] }] });
          queries.push({ where: [{ field, op: 'containsNone', values: [item, 2] }] });
          queries.push({ where: [{ field, op: 'containsAll', values: [item, 1] }] });
        }
        queries.push({ where: [{ field, op: 'textContains', value: '1' }] });
        queries.push({ where: [{ field, op: 'textEquals', value: 'TRUE' }] });
        queries.push({ where: [{ op: 'not', condition: { field, op: 'textContains', value: 'A' } }] });
      }
      await withStore(makeStore, (store) => sameAsReference(store, 'mixed', records, queries));
    });

    it('compares ids with any bound', async () => {
      const records: NewRecord[] = Array.from({ length: 12 }, (_, index) => ({ n: index }));
      const bounds = [2.5, 3, -1, 0, 1e20, -1e20, Number.MAX_SAFE_INTEGER, '3', true, null];
      const queries: ListQuery[] = bounds.flatMap((value) => (['eq', 'ne', 'lt', 'lte', 'gt', 'gte'] as const)
        .map((op): ListQuery => ({ where: [{ field: 'id', op, value: value as never }] })));
      queries.push(
        { where: [{ field: 'id', op: 'in', values: [1.5, 2, '3', 4, null, 1e20] }] },
        { where: [{ field: 'id', op: 'notIn', values: [1, 2.5, '3'] }] },
        { where: [{ field: 'id', op: 'containsNone', values: [1] }] },
        { where: [{ field: 'id', op: 'textEquals', value: '' }] },
        { orderBy: [{ rank: [{ field: 'id', op: 'eq', value: 5 }, { field: 'id', op: 'gt', value: 9.5 }] }, { field: 'n', direction: 'desc' }] },
      );
      await withStore(makeStore, (store) => sameAsReference(store, 'ids', records, queries));
    });

    it('keeps the port\'s two-valued logic under nested negation', async () => {
      const records: NewRecord[] = [
        { a: 1, b: 'x' }, { a: null, b: 'y' }, { b: 'x' }, { a: 2 }, {}, { a: [1], b: ['x'] }, { a: '1', b: null },
      ];
      const leaves: Condition[] = [
        { field: 'a', op: 'eq', value: 1 }, { field: 'a', op: 'gt', value: 0 }, { field: 'a', op: 'in', values: [1, null] },
        { field: 'b', op: 'textContains', value: 'x' }, { field: 'a', op: 'containsAny', values: [1] },
        { field: 'b', op: 'notIn', values: ['x'] }, { field: 'b', op: 'eq', value: null },
      ];
      const queries: ListQuery[] = [];
      for (const first of leaves) {
        for (const second of leaves) {
          queries.push({ where: [{ op: 'not', condition: { op: 'or', conditions: [first, { op: 'not', condition: second }] } }] });
          queries.push({ where: [{ op: 'not', condition: { op: 'and', conditions: [{ op: 'not', condition: first }, second] } }] });
          queries.push({ orderBy: [{ rank: [{ op: 'not', condition: first }, second] }] });
        }
      }
      await withStore(makeStore, (store) => sameAsReference(store, 'logic', records, queries));
    });
  });
}
