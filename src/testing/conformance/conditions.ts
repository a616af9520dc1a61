import assert from 'node:assert/strict';
import { describe, it } from '../runner.js';
import type { Condition, NewRecord, StoragePort, TextSearch } from '../../ports/storage.js';
import type { MakeStore } from './support.js';
import { idsOf, seed, withStore } from './support.js';

const FIXTURE: NewRecord[] = [
  { kind: 'post', status: 'publish', n: 1, label: 'Alpha', date: '2024-01-01T10:00:00', tags: [1, 2], flag: true },
  { kind: 'post', status: 'draft', n: 2, label: 'beta', date: '2024-02-01T10:00:00', tags: [2, 3], flag: false },
  { kind: 'page', status: 'publish', n: 3, label: 'Gamma ray', date: '2024-03-01T10:00:00', tags: [], flag: true },
  { kind: 'page', status: null, n: '3', label: '100% sure', date: '2023-12-31T23:59:59', tags: ['1'] },
  { kind: 'post', n: 10, label: 'under_score', tags: [3] },
  { kind: 'note', status: 'trash', n: -1, label: 'ÉLAN vital', date: '2024-01-01T10:00:00', tags: [1, 2, 3], flag: false },
  { kind: 'post', status: 'publish', n: 2.5, label: 42, date: '2024-02-01T10:00:00', flag: true },
];
const ALL = [1, 2, 3, 4, 5, 6, 7];
/** More values than SQLite takes as parameters of one statement: long lists must work all the same. */
const NUMBERS = Array.from({ length: 40_000 }, (_, index) => 1_000 + index);
const WORDS = NUMBERS.map((number) => `word ${number}`);

/** Each case: conditions (all must hold) and the ids expected, in id order. */
const CASES: [string, Condition[], number[]][] = [
  ['eq on a string', [{ field: 'kind', op: 'eq', value: 'post' }], [1, 2, 5, 7]],
  ['eq null matches null and missing', [{ field: 'status', op: 'eq', value: null }], [4, 5]],
  ['eq is strict about types (number)', [{ field: 'n', op: 'eq', value: 3 }], [3]],
  ['eq is strict about types (string)', [{ field: 'n', op: 'eq', value: '3' }], [4]],
  ['eq on booleans', [{ field: 'flag', op: 'eq', value: false }], [2, 6]],
  ['ne includes missing and null', [{ field: 'status', op: 'ne', value: 'publish' }], [2, 4, 5, 6]],
  ['ne on booleans', [{ field: 'flag', op: 'ne', value: true }], [2, 4, 5, 6]],
  ['ne null', [{ field: 'status', op: 'ne', value: null }], [1, 2, 3, 6, 7]],
  ['lt on numbers ignores strings', [{ field: 'n', op: 'lt', value: 3 }], [1, 2, 6, 7]],
  ['lte on numbers', [{ field: 'n', op: 'lte', value: 3 }], [1, 2, 3, 6, 7]],
  ['gt on numbers', [{ field: 'n', op: 'gt', value: 2 }], [3, 5, 7]],
  ['gte on numbers', [{ field: 'n', op: 'gte', value: 2 }], [2, 3, 5, 7]],
  ['gt on strings ignores numbers', [{ field: 'n', op: 'gt', value: '2' }], [4]],
  ['lt on dates skips missing', [{ field: 'date', op: 'lt', value: '2024-01-31T00:00:00' }], [1, 4, 6]],
  ['gte on dates', [{ field: 'date', op: 'gte', value: '2024-02-01T10:00:00' }], [2, 3, 7]],
  ['a date window', [
    { field: 'date', op: 'gt', value: '2024-01-01T10:00:00' },
    { field: 'date', op: 'lte', value: '2024-02-01T10:00:00' },
  ], [2, 7]],
  ['ranges against null match nothing', [{ field: 'n', op: 'lt', value: null }], []],
  ['ranges on booleans', [{ field: 'flag', op: 'lt', value: true }], [2, 6]],
  ['in', [{ field: 'status', op: 'in', values: ['publish', 'draft'] }], [1, 2, 3, 7]],
  ['in with null', [{ field: 'status', op: 'in', values: ['publish', null] }], [1, 3, 4, 5, 7]],
  ['in nothing', [{ field: 'status', op: 'in', values: [] }], []],
  ['in is strict about types', [{ field: 'n', op: 'in', values: ['3', 10] }], [4, 5]],
  ['notIn', [{ field: 'status', op: 'notIn', values: ['publish', 'draft'] }], [4, 5, 6]],
  ['notIn nothing', [{ field: 'status', op: 'notIn', values: [] }], ALL],
  ['containsAny', [{ field: 'tags', op: 'containsAny', values: [1] }], [1, 6]],
  ['containsAny is strict about types', [{ field: 'tags', op: 'containsAny', values: ['1', 3] }], [2, 4, 5, 6]],
  ['containsAny of nothing', [{ field: 'tags', op: 'containsAny', values: [] }], []],
  ['containsAll', [{ field: 'tags', op: 'containsAll', values: [1, 2] }], [1, 6]],
  ['containsAll of nothing', [{ field: 'tags', op: 'containsAll', values: [] }], ALL],
  ['containsNone includes missing arrays', [{ field: 'tags', op: 'containsNone', values: [2] }], [3, 4, 5, 7]],
  ['containsNone of nothing', [{ field: 'tags', op: 'containsNone', values: [] }], ALL],
  ['textContains ignores case', [{ field: 'label', op: 'textContains', value: 'A' }], [1, 2, 3, 6]],
  ['textContains beyond ASCII', [{ field: 'label', op: 'textContains', value: 'élan' }], [6]],
  ['textContains treats % literally', [{ field: 'label', op: 'textContains', value: '1%' }], []],
  ['textContains finds a literal %', [{ field: 'label', op: 'textContains', value: '0% s' }], [4]],
  ['textContains treats _ literally', [{ field: 'label', op: 'textContains', value: '1_0' }], []],
  ['textContains finds a literal _', [{ field: 'label', op: 'textContains', value: 'r_s' }], [5]],
  ['textContains reads non-strings as empty', [{ field: 'label', op: 'textContains', value: '4' }], []],
  ['textContains of nothing matches all', [{ field: 'label', op: 'textContains', value: '' }], ALL],
  ['textEquals ignores case', [{ field: 'label', op: 'textEquals', value: 'gamma RAY' }], [3]],
  ['textEquals needs the whole value', [{ field: 'label', op: 'textEquals', value: 'gamma' }], []],
  ['textEquals of nothing matches non-strings', [{ field: 'label', op: 'textEquals', value: '' }], [7]],
  ['several conditions all hold', [{ field: 'kind', op: 'eq', value: 'post' }, { field: 'n', op: 'gt', value: 1 }], [2, 5, 7]],
  ['two conditions on one field', [
    { field: 'status', op: 'in', values: ['publish', 'draft'] },
    { field: 'status', op: 'eq', value: 'draft' },
  ], [2]],
  ['or', [{ op: 'or', conditions: [{ field: 'kind', op: 'eq', value: 'page' }, { field: 'status', op: 'eq', value: 'draft' }] }], [2, 3, 4]],
  ['and inside a list', [{
    op: 'and',
    conditions: [
      { field: 'kind', op: 'eq', value: 'post' },
      { op: 'or', conditions: [{ field: 'status', op: 'eq', value: 'publish' }, { field: 'status', op: 'eq', value: null }] },
    ],
  }], [1, 5, 7]],
  ['not', [{ op: 'not', condition: { field: 'kind', op: 'eq', value: 'post' } }], [3, 4, 6]],
  ['or of nothing', [{ op: 'or', conditions: [] }], []],
  ['and of nothing', [{ op: 'and', conditions: [] }], ALL],
  ['not of an empty and', [{ op: 'not', condition: { op: 'and', conditions: [] } }], []],
  ['nested or of ands with not', [{
    op: 'or',
    conditions: [
      { op: 'and', conditions: [{ field: 'kind', op: 'eq', value: 'post' }, { field: 'flag', op: 'eq', value: true }] },
      { op: 'and', conditions: [{ field: 'kind', op: 'eq', value: 'page' }, { op: 'not', condition: { field: 'status', op: 'eq', value: 'publish' } }] },
    ],
  }], [1, 4, 7]],
  // No stored text below holds a NUL (PostgreSQL cannot store one): values with one are compared literally.
  ['eq with a NUL matches nothing', [{ field: 'kind', op: 'eq', value: 'po\0st' }], []],
  ['ne with a NUL matches everything', [{ field: 'kind', op: 'ne', value: 'post\0' }], ALL],
  ['in skips values with a NUL', [{ field: 'status', op: 'in', values: ['publish\0', 'draft'] }], [2]],
  ['notIn of a value with a NUL', [{ field: 'status', op: 'notIn', values: ['draft\0'] }], ALL],
  ['textContains with a NUL', [{ field: 'label', op: 'textContains', value: 'al\0pha' }], []],
  ['textContains with a trailing NUL', [{ field: 'label', op: 'textContains', value: 'ray\0' }], []],
  ['textEquals with a NUL', [{ field: 'label', op: 'textEquals', value: 'beta\0' }], []],
  ['lt a bound with a NUL', [{ field: 'date', op: 'lt', value: '2024-02-01T10:00:00\0' }], [1, 2, 4, 6, 7]],
  ['lte a bound with a NUL', [{ field: 'date', op: 'lte', value: '2024-01-31\0' }], [1, 4, 6]],
  ['gt a bound with a NUL', [{ field: 'date', op: 'gt', value: '2024-02-01T10:00:00\0' }], [3]],
  ['gte a bound with a NUL', [{ field: 'date', op: 'gte', value: '2024-02-01\0x' }], [2, 3, 7]],
  ['containsAny skips values with a NUL', [{ field: 'tags', op: 'containsAny', values: ['1\0', 3] }], [2, 5, 6]],
  ['containsAll of a value with a NUL', [{ field: 'tags', op: 'containsAll', values: [1, '1\0'] }], []],
  ['containsNone of a value with a NUL', [{ field: 'tags', op: 'containsNone', values: ['2\0'] }], ALL],
  ['eq on id', [{ field: 'id', op: 'eq', value: 3 }], [3]],
  ['eq on id is strict', [{ field: 'id', op: 'eq', value: '3' }], []],
  ['in on id skips unknown ids', [{ field: 'id', op: 'in', values: [5, 1, 99] }], [1, 5]],
  ['two id lists intersect', [{ field: 'id', op: 'in', values: [1, 2, 3] }, { field: 'id', op: 'in', values: [2, 3, 4] }], [2, 3]],
  ['id and another field', [{ field: 'id', op: 'in', values: [1, 2, 3] }, { field: 'kind', op: 'eq', value: 'page' }], [3]],
  ['ne and ranges on id', [{ field: 'id', op: 'ne', value: 1 }, { field: 'id', op: 'lte', value: 3 }], [2, 3]],
  ['a long in is strict about types', [{ field: 'n', op: 'in', values: [...NUMBERS, '3', 10] }], [4, 5]],
  ['a long in of strings', [{ field: 'status', op: 'in', values: [...WORDS, 'draft', 'trash'] }], [2, 6]],
  ['a long in with booleans and null', [{ field: 'flag', op: 'in', values: [...NUMBERS, ...WORDS, false, null] }], [2, 4, 5, 6]],
  ['a long notIn', [{ field: 'n', op: 'notIn', values: [...NUMBERS, 1, 2, '3'] }], [3, 5, 6, 7]],
  ['a long in on id', [{ field: 'id', op: 'in', values: [...NUMBERS, 2, 5] }], [2, 5]],
  ['a long notIn on id', [{ field: 'id', op: 'notIn', values: [...NUMBERS, 2, 5] }], [1, 3, 4, 6, 7]],
];

const SEARCH_FIXTURE: NewRecord[] = [
  { title: 'zeta alpha', excerpt: '', content: '' },
  { title: 'alpha beta', excerpt: '', content: '' },
  { title: 'gamma', excerpt: '', content: 'lorem alpha' },
  { title: 'beta alpha gamma', excerpt: '', content: '' },
  { title: 'Delta', excerpt: 'ALPHA in the excerpt' },
  { title: 'epsilon', excerpt: 'nothing', content: 'nothing' },
];
const TEXT_FIELDS = ['title', 'excerpt', 'content'];

const SEARCH_CASES: [string, Omit<TextSearch, 'fields'>, number[]][] = [
  ['a term in any field, ignoring case', { terms: ['alpha'] }, [1, 2, 3, 4, 5]],
  ['an excluded term', { terms: ['alpha'], excludedTerms: ['beta'] }, [1, 3, 5]],
  ['a phrase is one term', { terms: ['alpha beta'] }, [2]],
  ['every term must match, in any field', { terms: ['alpha', 'gamma'] }, [3, 4]],
  ['no terms match everything', { terms: [] }, [1, 2, 3, 4, 5, 6]],
  ['only exclusions', { terms: [], excludedTerms: ['alpha', 'nothing'] }, []],
  ['only an exclusion', { terms: [], excludedTerms: ['beta'] }, [1, 3, 5, 6]],
  ['a term with a NUL', { terms: ['al\0pha'] }, []],
  ['a long term with a NUL', { terms: ['alpha\0 beta'] }, []],
  ['an exclusion with a NUL', { terms: ['alpha'], excludedTerms: ['be\0ta'] }, [1, 2, 3, 4, 5]],
  ['equals with a NUL', { terms: ['gamma\0'], match: 'equals' }, []],
  ['equals needs a whole field', { terms: ['GAMMA'], match: 'equals' }, [3]],
  ['equals against any field', { terms: ['lorem alpha'], match: 'equals' }, [3]],
  ['equals finds no partial values', { terms: ['alpha'], match: 'equals' }, []],
  ['equals exclusions', { terms: [], excludedTerms: ['gamma', 'nothing'], match: 'equals' }, [1, 2, 4, 5]],
];

export function conditionTests(makeStore: MakeStore): void {
  describe('conditions', () => {
    const check = async (store: StoragePort, where: Condition[], expected: number[], label: string) => {
      const result = await store.list('things', { where, withTotal: true });
      assert.deepEqual(idsOf(result), expected, label);
      assert.equal(result.total, expected.length, label);
    };

    it('supports every operator as the port defines it', async () => {
      await withStore(makeStore, async (store) => {
        await seed(store, 'things', FIXTURE);
        for (const [label, where, expected] of CASES) await check(store, where, expected, label);
      });
    });

    it('gives the same answers after the records were rewritten', async () => {
      await withStore(makeStore, async (store) => {
        await seed(store, 'things', FIXTURE.map(() => ({ kind: 'placeholder' })));
        for (const [, where] of CASES) {
          await store.list('things', { where, limit: 2 });
          await store.list('things', { where, orderBy: [{ field: 'date', direction: 'desc' }], limit: 2 });
        }
        for (const [index, record] of FIXTURE.entries()) {
          const id = index + 1;
          const current = (await store.get('things', id))!;
          const patch: Record<string, unknown> = { ...record };
          for (const field of Object.keys(current)) if (!(field in record) && field !== 'id') patch[field] = undefined;
          await store.update('things', id, patch);
        }
        for (const [label, where, expected] of CASES) await check(store, where, expected, label);
      });
    });

    it('searches terms over the chosen fields', async () => {
      await withStore(makeStore, async (store) => {
        await seed(store, 'docs', SEARCH_FIXTURE);
        for (const [label, search, expected] of SEARCH_CASES) {
          const result = await store.list('docs', { search: { fields: TEXT_FIELDS, ...search }, withTotal: true });
          assert.deepEqual(idsOf(result), expected, label);
          assert.equal(result.total, expected.length, label);
        }
        const titlesOnly = await store.list('docs', { search: { fields: ['title'], terms: ['alpha'] } });
        assert.deepEqual(idsOf(titlesOnly), [1, 2, 4]);
      });
    });

    it('combines search with conditions, order and paging', async () => {
      await withStore(makeStore, async (store) => {
        await seed(store, 'docs', SEARCH_FIXTURE.map((record, index) => ({ ...record, group: index % 2 })));
        const result = await store.list('docs', {
          where: [{ field: 'group', op: 'eq', value: 1 }],
          search: { fields: TEXT_FIELDS, terms: ['ALPHA'], excludedTerms: ['zeta'] },
          orderBy: [{ field: 'title', direction: 'desc' }],
          limit: 1,
          withTotal: true,
        });
        assert.deepEqual(idsOf(result), [4]);
        assert.equal(result.total, 2);
      });
    });
  });
}
