import assert from 'node:assert/strict';
import { describe, it } from '../runner.js';
import type { Condition, ListQuery, NewRecord, SortKey, StoragePort, StoredRecord } from '../../ports/storage.js';
import { referenceList } from '../reference-model.js';
import type { MakeStore } from './support.js';
import { seed, seededRandom, withStore } from './support.js';

const RECORDS = 5000;
const QUERIES = 300;

const TYPES = ['post', 'post', 'post', 'page', 'attachment'];
const STATUSES = ['publish', 'publish', 'publish', 'draft', 'pending', 'private', 'trash', 'future'];
const WORDS = ['alpha', 'beta', 'gamma', 'Delta', 'echo', 'fox', 'Golf', 'hotel', 'india', 'juliet'];
const RANGE_OPS = ['lt', 'lte', 'gt', 'gte'] as const;
const ARRAY_OPS = ['containsAny', 'containsAll', 'containsNone'] as const;

/** Random records, conditions and queries over a posts-like shape, all from one seeded generator. */
export class Generator {
  readonly random: () => number;
  readonly dates: string[];

  constructor(seedValue: number) {
    this.random = seededRandom(seedValue);
    // Few distinct dates, so orderings meet many ties.
    this.dates = Array.from({ length: 300 }, () => {
      const day = new Date(Date.UTC(2020, 0, 1) + this.int(0, 1500) * 86_400_000 + this.int(0, 3) * 3_600_000);
      return day.toISOString().slice(0, 19);
    });
  }

  int(min: number, max: number): number {
    return min + Math.floor(this.random() * (max - min + 1));
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(0, items.length - 1)]!;
  }

  some<T>(items: readonly T[], min: number, max: number): T[] {
    const count = this.int(min, max);
    return Array.from({ length: count }, () => this.pick(items));
  }

  words(min: number, max: number): string {
    return this.some(WORDS, min, max).join(' ');
  }

  record(): NewRecord {
    const record: NewRecord = {
      type: this.pick(TYPES),
      status: this.pick(STATUSES),
      author: this.int(1, 8),
      date: this.pick(this.dates),
      modified: this.pick(this.dates),
      title: this.words(1, 3),
      content: this.words(0, 6),
      slug: `slug-${this.int(1, 400)}`,
      menu_order: this.int(0, 4),
      parent: this.random() < 0.7 ? 0 : this.int(1, 60),
      sticky: this.random() < 0.1,
      categories: [...new Set(this.some([1, 2, 3, 4, 5, 6], 0, 3))],
      tags: [...new Set(this.some([1, 2, 3, 4, 5, 6, 7, 8], 0, 3))],
    };
    const roll = this.random();
    if (roll < 0.3) record.format = this.pick(['standard', 'aside']);
    else if (roll < 0.4) record.format = null;
    if (this.random() < 0.05) delete record.modified;
    return record;
  }

  patch(): Record<string, unknown> {
    const full = this.record();
    const patch: Record<string, unknown> = {};
    for (const field of this.some(Object.keys(full), 1, 3)) patch[field] = full[field];
    if (this.random() < 0.3) patch[this.pick(['format', 'modified', 'sticky', 'tags'])] = undefined;
    return patch;
  }

  simpleCondition(): Condition {
    switch (this.int(0, 19)) {
      case 0: return { field: 'type', op: 'eq', value: this.pick(TYPES) };
      case 1: return { field: 'status', op: 'in', values: this.some(STATUSES, 1, 4) };
      case 2: return { field: 'status', op: 'eq', value: this.pick(STATUSES) };
      case 3: return { field: 'author', op: 'in', values: this.some([1, 2, 3, 4, 5, 6, 7, 8], 1, 3) };
      case 4: return { field: 'author', op: 'eq', value: this.int(1, 8) };
      case 5: return { field: 'sticky', op: 'eq', value: this.random() < 0.5 };
      case 6: return { field: 'format', op: 'eq', value: this.pick(['standard', 'aside', null]) };
      case 7: return { field: 'status', op: 'notIn', values: this.some(STATUSES, 0, 2) };
      case 8: return { field: 'author', op: 'ne', value: this.int(1, 8) };
      case 9: return { field: 'date', op: this.pick(RANGE_OPS), value: this.pick(this.dates) };
      case 10: return { field: 'modified', op: this.pick(RANGE_OPS), value: this.pick(this.dates) };
      case 11: return { field: 'menu_order', op: this.pick(RANGE_OPS), value: this.int(0, 4) };
      case 12: return { field: 'menu_order', op: 'eq', value: this.int(0, 4) };
      case 13: return { field: 'parent', op: 'in', values: [0, this.int(1, 60), this.int(1, 60)] };
      case 14: return { field: 'categories', op: this.pick(ARRAY_OPS), values: this.some([1, 2, 3, 4, 5, 6], 0, 3) };
      case 15: return { field: 'tags', op: this.pick(ARRAY_OPS), values: this.some([1, 2, 3, 4, 5, 6, 7, 8], 0, 2) };
      case 16: return { field: 'title', op: 'textContains', value: this.pick(WORDS).slice(0, 3).toUpperCase() };
      case 17: return { field: 'slug', op: 'in', values: Array.from({ length: this.int(1, 20) }, () => `slug-${this.int(1, 400)}`) };
      case 18: return { field: 'id', op: 'in', values: Array.from({ length: this.int(1, 40) }, () => this.int(1, RECORDS + 200)) };
      default: return { field: 'id', op: this.pick(RANGE_OPS), value: this.int(1, RECORDS) };
    }
  }

  condition(): Condition {
    const roll = this.random();
    if (roll < 0.08) return { op: 'or', conditions: [this.simpleCondition(), this.simpleCondition()] };
    if (roll < 0.12) return { op: 'not', condition: this.simpleCondition() };
    if (roll < 0.15) return { op: 'and', conditions: [this.simpleCondition(), { op: 'not', condition: this.simpleCondition() }] };
    return this.simpleCondition();
  }

  orderBy(): SortKey[] | undefined {
    switch (this.int(0, 13)) {
      case 0: return undefined;
      case 1: case 2: return [{ field: 'date', direction: 'desc' }];
      case 3: return [{ field: 'date', direction: 'asc' }];
      case 4: return [{ field: 'modified', direction: 'desc' }];
      case 5: return [{ field: 'title', direction: this.pick(['asc', 'desc'] as const) }];
      case 6: return [{ field: 'slug', direction: 'asc' }];
      case 7: return [{ field: 'menu_order', direction: this.pick(['asc', 'desc'] as const) }];
      case 8: return [{ field: 'id', direction: 'desc' }];
      case 9: return [{ field: 'author', direction: 'asc' }, { field: 'date', direction: 'desc' }];
      case 10: return [{ field: 'date', direction: 'desc' }, { field: 'id', direction: 'desc' }];
      case 11: return [{ rank: Array.from({ length: this.int(1, 15) }, () => ({ field: 'id', op: 'eq', value: this.int(1, RECORDS) })) }];
      case 12: return [{ rank: [{ field: 'title', op: 'textContains', value: this.pick(WORDS) }] }, { field: 'date', direction: 'desc' }];
      default: return [{ field: 'parent', direction: 'asc' }, { field: 'menu_order', direction: 'asc' }];
    }
  }

  query(): ListQuery {
    const query: ListQuery = {};
    const conditionCount = this.pick([0, 1, 2, 2, 3, 3, 4]);
    if (conditionCount > 0) query.where = Array.from({ length: conditionCount }, () => this.condition());
    if (this.random() < 0.2) {
      query.search = {
        fields: ['title', 'content'],
        terms: this.some(WORDS, 0, 2),
        excludedTerms: this.some(WORDS, 0, 1),
        match: this.random() < 0.15 ? 'equals' : 'contains',
      };
    }
    const orderBy = this.orderBy();
    if (orderBy) query.orderBy = orderBy;
    const offset = this.pick([0, 0, 0, 5, 10, 20, 50, this.int(0, 300)]);
    if (offset > 0) query.offset = offset;
    const limit = this.pick([undefined, 0, 1, 10, 10, 10, 25, 100]);
    if (limit !== undefined) query.limit = limit;
    if (this.random() < 0.6) query.withTotal = true;
    return query;
  }
}

/** The store and a plain map kept in step by applying the same writes to both. */
export class Mirror {
  readonly model = new Map<number, StoredRecord>();
  private highestId = 0;

  constructor(readonly store: StoragePort, readonly collection: string) {}

  async load(records: NewRecord[]): Promise<void> {
    for (const stored of await seed(this.store, this.collection, records)) this.remember(stored);
  }

  async insert(target: StoragePort, record: NewRecord): Promise<void> {
    const stored = await target.insert(this.collection, record);
    assert.ok(stored.id > this.highestId, 'ids grow');
    assert.deepEqual(stored, { ...record, id: stored.id });
    this.remember(stored);
  }

  async update(target: StoragePort, id: number, patch: Record<string, unknown>): Promise<void> {
    const expected: Record<string, unknown> = { ...this.model.get(id)! };
    for (const [field, value] of Object.entries(patch)) {
      if (value === undefined) delete expected[field];
      else expected[field] = value;
    }
    assert.deepEqual(await target.update(this.collection, id, patch), expected);
    this.model.set(id, expected as StoredRecord);
  }

  async remove(target: StoragePort, id: number): Promise<void> {
    assert.equal(await target.remove(this.collection, id), true);
    this.model.delete(id);
  }

  /** Returns a function that puts the model back as it is now (after a rolled-back transaction). */
  checkpoint(): () => void {
    const saved = new Map(this.model);
    const savedHighestId = this.highestId;
    return () => {
      this.model.clear();
      for (const [id, record] of saved) this.model.set(id, record);
      this.highestId = savedHighestId;
    };
  }

  anyId(generator: Generator): number {
    return generator.pick([...this.model.keys()]);
  }

  private remember(stored: StoredRecord): void {
    this.highestId = Math.max(this.highestId, stored.id);
    this.model.set(stored.id, stored);
  }
}

export async function randomWrites(mirror: Mirror, target: StoragePort, generator: Generator, count: number): Promise<void> {
  for (let step = 0; step < count; step++) {
    const roll = generator.random();
    if (roll < 0.6) await mirror.update(target, mirror.anyId(generator), generator.patch());
    else if (roll < 0.8) await mirror.insert(target, generator.record());
    else await mirror.remove(target, mirror.anyId(generator));
  }
}

/** Random writes in a transaction that then fails: the store must keep none of them, and the mirror forgets them. */
export async function plannedRollback(mirror: Mirror, store: StoragePort, generator: Generator, count: number): Promise<void> {
  const restore = mirror.checkpoint();
  const failure = new Error('planned rollback');
  await assert.rejects(store.transaction(async (tx) => {
    await randomWrites(mirror, tx, generator, count);
    throw failure;
  }), (error) => error === failure);
  restore();
}

export function randomisedTests(makeStore: MakeStore): void {
  describe('randomised queries against a naive reference', () => {
    it(`answers ${QUERIES} random queries over ${RECORDS} changing records like the reference`, async () => {
      await withStore(makeStore, async (store) => {
        const generator = new Generator(20240601);
        const mirror = new Mirror(store, 'posts');
        await mirror.load(Array.from({ length: RECORDS }, () => generator.record()));

        for (let round = 0; round < QUERIES; round++) {
          const query = generator.query();
          const actual = await store.list('posts', query);
          const expected = referenceList(mirror.model.values(), query);
          assert.deepEqual(actual, expected, `query #${round}: ${JSON.stringify(query)}`);

          if (round % 5 === 4) await randomWrites(mirror, store, generator, 10);
          if (round % 40 === 20) await plannedRollback(mirror, store, generator, 25);
          if (round % 40 === 30) await store.transaction((tx) => randomWrites(mirror, tx, generator, 25));
        }
      });
    });
  });
}
