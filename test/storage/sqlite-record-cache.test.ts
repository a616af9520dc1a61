/** The SQLite store's decoded records (src/storage/sqlite/record-cache.ts): never stale, never shared. */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import type { Condition, Scalar, SortKey } from '../../src/ports/storage.js';
import type { CheckedQuery } from '../../src/storage/query-check.js';
import { RecordCache } from '../../src/storage/sqlite/record-cache.js';
import { sqliteStorage } from '../../src/storage/sqlite/index.js';
import { seed } from '../../src/testing/conformance/support.js';

const folder = mkdtempSync(path.join(tmpdir(), 'quire-sqlite-cache-'));
after(() => rmSync(folder, { recursive: true, force: true }));

function post(index: number) {
  return { type: 'post', status: 'publish', date: `2024-03-${String(1 + index).padStart(2, '0')}T10:00:00`, title: `Entry ${index}` };
}

describe('sqlite store: decoded records kept between reads', () => {
  it('answers with the current data after writes by another connection, in a transaction and after a rollback', async () => {
    const file = path.join(folder, 'store.db');
    const store = sqliteStorage({ path: file });
    await seed(store, 'posts', Array.from({ length: 6 }, (_, index) => post(index)));
    const titleOf = async (id: number) => (await store.get('posts', id))!.title;
    const listedTitles = async () => (await store.list('posts', { orderBy: [{ field: 'id', direction: 'asc' }] })).items.map((item) => item.title);
    assert.equal(await titleOf(2), 'Entry 1');
    const before = await listedTitles();

    // Results are copies: changing one changes no later answer.
    (await store.get('posts', 2))!.title = 'changed by the caller';
    (await store.list('posts', {})).items[1]!.title = 'changed by the caller';
    assert.equal(await titleOf(2), 'Entry 1');
    assert.deepEqual(await listedTitles(), before);

    const other = new Database(file);
    other.prepare("UPDATE quire_records SET data = jsonb_set(data, '$.title', 'Written elsewhere') WHERE collection = 'posts' AND id = 2").run();
    other.close();
    assert.equal(await titleOf(2), 'Written elsewhere');
    assert.equal((await listedTitles())[1], 'Written elsewhere');

    await assert.rejects(store.transaction(async (tx) => {
      await tx.update('posts', 3, { title: 'Not kept' });
      assert.equal((await tx.get('posts', 3))!.title, 'Not kept');
      assert.equal((await tx.list('posts', { where: [{ field: 'id', op: 'eq', value: 3 }] })).items[0]!.title, 'Not kept');
      throw new Error('undo');
    }), /undo/);
    assert.equal(await titleOf(3), 'Entry 2');
    assert.equal((await listedTitles())[2], 'Entry 2');

    await store.transaction(async (tx) => {
      await assert.rejects(tx.transaction(async (inner) => {
        await inner.update('posts', 4, { title: 'Savepoint only' });
        assert.equal((await inner.get('posts', 4))!.title, 'Savepoint only');
        throw new Error('undo the savepoint');
      }), /undo the savepoint/);
      assert.equal((await tx.get('posts', 4))!.title, 'Entry 3');
    });
    assert.equal(await titleOf(4), 'Entry 3');
    await store.close();
  });
});

describe('sqlite store: decoded records kept across its own writes', () => {
  it('keeps the records its own commits did not write, and none once another connection has committed', async () => {
    const file = path.join(folder, 'own-writes.db');
    const store = sqliteStorage({ path: file });
    const other = sqliteStorage({ path: file });
    await seed(store, 'posts', Array.from({ length: 4 }, (_, index) => post(index)));
    const shared = async () => new Map((await store.list('posts', { shared: true })).items.map((item) => [item.id, item]));
    await shared();
    // Read again: now as kept, the objects a later list hands out while they are.
    const first = await shared();
    await store.update('posts', 2, { title: 'renamed' });
    await store.transaction(async (tx) => {
      await tx.insert('posts', post(9));
      await tx.remove('posts', 4);
    });
    const second = await shared();
    assert.equal(second.get(1), first.get(1), 'a record no commit wrote is the one decoded before');
    assert.equal(second.get(3), first.get(3));
    assert.notEqual(second.get(2), first.get(2));
    assert.equal(second.get(2)!.title, 'renamed');
    assert.deepEqual([...second.keys()], [1, 2, 3, 5], 'the list itself is read anew');

    await other.update('posts', 3, { title: 'by another' });
    const third = await shared();
    assert.notEqual(third.get(1), second.get(1), 'after a commit by another connection, every record is read anew');
    assert.equal(third.get(3)!.title, 'by another');
    await store.close();
    await other.close();
  });
});

describe('sqlite store: records its own commits wrote, kept as written', () => {
  /** Values whose stored JSON reads back by another road than a plain copy: each must come back the same. */
  const awkward = () => ({
    type: 'post', status: 'publish', title: 'Emoji 😀, a lone \ud800 surrogate, "quotes", \\ and a\nnew line',
    ...JSON.parse('{"__proto__": {"kept": "as a member"}}') as Record<string, unknown>,
    nested: { id: 7, list: [1, -0, 0.1, 1e21, 2 ** 53 + 2, { deep: [[], {}] }], empty: '' },
    '10': 'a key that sorts first', note: 'names "id" inside',
  });

  /** The record as a connection of its own reads it, keeping nothing: id first, then the stored fields in order. */
  function freshRead(file: string, id: number): string | null {
    const db = new Database(file, { readonly: true });
    try {
      const row = db.prepare("SELECT json(data) AS data FROM quire_records WHERE collection = 'posts' AND id = ?").get(id) as { data: string } | undefined;
      return row ? JSON.stringify({ id, ...JSON.parse(row.data) as Record<string, unknown> }) : null;
    } finally {
      db.close();
    }
  }

  /** How many statements the main thread runs while `work` does. */
  async function statementsDuring(work: () => Promise<unknown>): Promise<number> {
    const db = new Database(':memory:');
    const statement = Object.getPrototypeOf(db.prepare('SELECT 1')) as Record<'get' | 'all' | 'run', (...args: unknown[]) => unknown>;
    db.close();
    const originals = { get: statement.get, all: statement.all, run: statement.run };
    let count = 0;
    for (const name of ['get', 'all', 'run'] as const) {
      statement[name] = function (this: unknown, ...args: unknown[]) {
        count++;
        return originals[name].apply(this, args);
      };
    }
    try {
      await work();
    } finally {
      Object.assign(statement, originals);
    }
    return count;
  }

  it('answers a record as its write left it without reading it back, byte for byte as a fresh read', async () => {
    const file = path.join(folder, 'as-written.db');
    const store = sqliteStorage({ path: file });
    try {
      await seed(store, 'posts', Array.from({ length: 3 }, (_, index) => post(index)));
      await store.list('posts', {});
      const inserted = await store.insert('posts', awkward());
      const updated = await store.update('posts', 2, { ...awkward(), title: 'updated \u{1F600}' });
      inserted.title = 'changed by its caller';
      (updated!.nested as { list: unknown[] }).list.push('changed by its caller');
      await store.remove('posts', 3);
      await store.transaction(async (tx) => {
        const inTransaction = await tx.update('posts', 1, { ...awkward(), title: 'in a transaction' });
        inTransaction!.title = 'changed by its caller';
      });
      // The list moves the store to the state after the writes; the records are then known as written.
      await store.list('posts', { where: [{ field: 'type', op: 'eq', value: 'page' }] });
      let answers: (string | null)[] = [];
      const statements = await statementsDuring(async () => {
        answers = await Promise.all([inserted.id, 2, 1].map(async (id) => JSON.stringify(await store.get('posts', id))));
      });
      assert.equal(statements, 0, 'no statement reads back what the store wrote');
      assert.deepEqual(answers, [freshRead(file, inserted.id), freshRead(file, 2), freshRead(file, 1)]);
      assert.equal(JSON.parse(answers[2]!).title, 'in a transaction');
      assert.equal(await store.get('posts', 3), null);
      assert.equal(JSON.parse(answers[1]!).title, 'updated \u{1F600}');
      // Kept as any record read is: a copy to each caller.
      (await store.get('posts', 2))!.title = 'changed by a reader';
      assert.equal(JSON.stringify(await store.get('posts', 2)), freshRead(file, 2));
      const listed = await store.list('posts', { orderBy: [{ field: 'id', direction: 'asc' }] });
      assert.deepEqual(listed.items.map((item) => JSON.stringify(item)), [1, 2, inserted.id].map((id) => freshRead(file, id)));
    } finally {
      await store.close();
    }
  });

  it('answers what another connection or store committed after its own write, and nothing a rollback undid', async () => {
    const file = path.join(folder, 'as-written-then-elsewhere.db');
    const store = sqliteStorage({ path: file });
    const otherStore = sqliteStorage({ path: file });
    const other = new Database(file);
    try {
      await seed(store, 'posts', Array.from({ length: 4 }, (_, index) => post(index)));
      await store.list('posts', {});
      const titleOf = async (id: number) => (await store.get('posts', id))!.title;
      await store.update('posts', 1, { title: 'mine' });
      await store.update('posts', 2, { title: 'mine' });
      // The state after its writes, with both records known as written and not yet asked for.
      await store.list('posts', { where: [{ field: 'type', op: 'eq', value: 'page' }] });
      other.prepare("UPDATE quire_records SET data = jsonb_set(data, '$.title', 'elsewhere') WHERE collection = 'posts' AND id = 1").run();
      assert.equal(await titleOf(1), 'elsewhere', 'another connection\'s commit');
      assert.equal(await titleOf(2), 'mine');

      await store.update('posts', 3, { title: 'mine' });
      await store.list('posts', { where: [{ field: 'type', op: 'eq', value: 'page' }] });
      await otherStore.update('posts', 3, { title: 'by another store' });
      assert.equal(await titleOf(3), 'by another store', 'another store\'s commit');

      await store.update('posts', 4, { title: 'committed' });
      await assert.rejects(store.transaction(async (tx) => {
        await tx.update('posts', 4, { title: 'rolled back' });
        await tx.insert('posts', { title: 'rolled back' });
        throw new Error('undo');
      }), /undo/);
      assert.equal(await titleOf(4), 'committed');
      assert.equal(await store.get('posts', 5), null);
      await store.transaction(async (tx) => {
        await tx.update('posts', 4, { title: 'in a transaction' });
        await tx.transaction(async (inner) => {
          await inner.update('posts', 4, { title: 'in a savepoint rolled back' });
          throw new Error('undo');
        }).catch(() => {});
      });
      assert.equal(await titleOf(4), 'in a transaction');
      for (const id of [1, 2, 3, 4]) assert.equal(JSON.stringify(await store.get('posts', id)), JSON.stringify(await otherStore.get('posts', id)));
    } finally {
      other.close();
      await otherStore.close();
      await store.close();
    }
  });
});

describe('sqlite store: the decoded-records budget', () => {
  const record = (id: number) => ({ id, title: `Entry ${id}` });

  it('keeps no record larger than a quarter of the budget, and drops the oldest beyond it', () => {
    const cache = new RecordCache(() => 'one state');
    cache.check();
    cache.set('posts', record(1), 3 * 1024 * 1024);
    assert.equal(cache.get('posts', 1), undefined);
    for (let id = 2; id <= 5; id++) cache.set('posts', record(id), 2 * 1024 * 1024);
    assert.deepEqual(cache.get('posts', 5), record(5));
    assert.deepEqual(cache.get('posts', 2), record(2), 'four records of 2 MiB fill the 8 MiB budget');
    cache.set('posts', record(6), 1024);
    assert.equal(cache.get('posts', 3), undefined, 'the least recently used record went first');
    assert.deepEqual(cache.get('posts', 6), record(6));
    assert.deepEqual(cache.get('posts', 2), record(2));
  });
});

describe('sqlite store: the order records are dropped in', () => {
  it('drops exactly the least recently used, through any mix of reads, writes and replacements', () => {
    const cache = new RecordCache(() => 'one state');
    cache.check();
    // A 1 MiB record each: the 8 MiB budget holds eight.
    const size = 1024 * 1024;
    let order: number[] = [];
    let seed = 7;
    const random = (below: number) => (seed = (seed * 1103515245 + 12345) % 2147483648) % below;
    for (let step = 0; step < 3000; step++) {
      const id = 1 + random(14);
      if (random(3) === 0) {
        cache.set('posts', { id, title: `v${step}` }, size);
        order = [...order.filter((kept) => kept !== id), id];
        if (order.length > 8) order = order.slice(order.length - 8);
      } else {
        const found = cache.get('posts', id, true);
        assert.equal(found !== undefined, order.includes(id), `step ${step}: record ${id}`);
        if (found) order = [...order.filter((kept) => kept !== id), id];
      }
    }
  });
});

describe('sqlite store: records of several collections', () => {
  it('keeps the same id of two collections apart, and drops the least recently used of any collection first', () => {
    const cache = new RecordCache(() => 'one state');
    cache.check();
    cache.set('posts', { id: 1, title: 'post' }, 3 * 1024 * 1024 / 2);
    cache.set('terms', { id: 1, name: 'term' }, 3 * 1024 * 1024 / 2);
    assert.deepEqual(cache.get('posts', 1), { id: 1, title: 'post' });
    assert.deepEqual(cache.get('terms', 1), { id: 1, name: 'term' });
    assert.equal(cache.get('users', 1), undefined);
    cache.set('users', { id: 1, login: 'user' }, 2 * 1024 * 1024);
    cache.set('posts', { id: 2, title: 'second' }, 2 * 1024 * 1024);
    assert.deepEqual(cache.get('posts', 1), { id: 1, title: 'post' }, 'the first post was used after the term');
    cache.set('terms', { id: 2, name: 'second' }, 2 * 1024 * 1024);
    assert.equal(cache.get('terms', 1), undefined, 'the term used least recently went first');
    assert.deepEqual(cache.get('posts', 1), { id: 1, title: 'post' });
    cache.set('posts', { id: 1, title: 'replaced' }, 10);
    assert.deepEqual(cache.get('posts', 1), { id: 1, title: 'replaced' });
    assert.deepEqual(cache.get('users', 1), { id: 1, login: 'user' });
  });
});

describe('sqlite store: list results kept between reads', () => {
  it('lists and counts anew after a write by another connection, a write of its own and a rollback', async () => {
    const file = path.join(folder, 'results.db');
    const store = sqliteStorage({ path: file });
    const other = sqliteStorage({ path: file });
    await seed(store, 'posts', Array.from({ length: 3 }, (_, index) => post(index)));
    const published = { where: [{ field: 'type', op: 'eq' as const, value: 'post' }, { field: 'status', op: 'eq' as const, value: 'publish' }], orderBy: [{ field: 'date', direction: 'desc' as const }], withTotal: true, limit: 10 };
    const page = async () => {
      const { items, total } = await store.list('posts', published);
      return { ids: items.map((item) => item.id), total };
    };
    assert.deepEqual(await page(), { ids: [3, 2, 1], total: 3 });
    assert.deepEqual(await page(), { ids: [3, 2, 1], total: 3 });

    const elsewhere = await other.insert('posts', post(7));
    assert.deepEqual(await page(), { ids: [elsewhere.id, 3, 2, 1], total: 4 });

    await store.update('posts', 2, { status: 'draft' });
    assert.deepEqual(await page(), { ids: [elsewhere.id, 3, 1], total: 3 });

    await assert.rejects(store.transaction(async (tx) => {
      await tx.update('posts', 3, { status: 'draft' });
      const inside = await tx.list('posts', published);
      assert.equal(inside.total, 2, 'the transaction sees its own write');
      throw new Error('undo');
    }));
    assert.deepEqual(await page(), { ids: [elsewhere.id, 3, 1], total: 3 });
    await other.close();
    await store.close();
  });
});

describe('sqlite store: results kept by query', () => {
  const query = (conditions: Condition[], orderBy: SortKey[] = []): CheckedQuery => ({ conditions, orderBy, offset: 0, limit: 10, withTotal: true, shared: false });
  const listed = (cache: RecordCache, checked: CheckedQuery, ids: number[], collection = 'posts') => cache.listed(collection, checked, () => ({ ids, total: ids.length })).ids;

  it('keeps the result of each query apart, however its values would read joined or typed alike', () => {
    let state = 'one';
    const cache = new RecordCache(() => state);
    cache.check();
    const eq = (field: string, value: Scalar): Condition => ({ field, op: 'eq', value });
    const queries: CheckedQuery[] = [
      query([eq('a', 'ab'), eq('b', 'c')]), query([eq('a', 'a'), eq('b', 'bc')]), query([eq('ab', 'c')]),
      query([eq('n', 1)]), query([eq('n', '1')]), query([eq('n', true)]), query([eq('n', 't')]), query([eq('n', null)]), query([eq('n', 'z')]),
      query([eq('n', 's1:a')]), query([{ field: 'n', op: 'in', values: [0, 1] }]), query([{ field: 'n', op: 'in', values: ['n0;n1;'] }]),
      query([{ field: 'n', op: 'in', values: [0, 1] }, eq('m', 1)]), query([{ field: 'n', op: 'in', values: [0] }, { field: 'n', op: 'in', values: [1] }]),
      query([{ field: 'n', op: 'notIn', values: [0, 1] }]), query([{ field: 'n', op: 'containsAny', values: [0, 1] }]),
      query([{ op: 'or', conditions: [eq('a', 1), eq('b', 2)] }]), query([{ op: 'and', conditions: [eq('a', 1), eq('b', 2)] }]), query([eq('a', 1), eq('b', 2)]),
      query([{ op: 'not', condition: eq('a', 1) }]), query([{ field: 'a', op: 'ne', value: 1 }]), query([{ field: 'a', op: 'textContains', value: 'x' }]),
      query([], [{ field: 'date', direction: 'asc' }]), query([], [{ field: 'date', direction: 'desc' }]), query([], [{ rank: [eq('a', 1)] }]),
      query([], [{ field: 'date', direction: 'desc' }, { field: 'id', direction: 'desc' }]), query([]),
      { ...query([]), offset: 10 }, { ...query([]), limit: null }, { ...query([]), limit: 1 }, { ...query([]), withTotal: false },
    ];
    queries.forEach((checked, index) => assert.deepEqual(listed(cache, checked, [index]), [index]));
    queries.forEach((checked, index) => assert.deepEqual(listed(cache, checked, [-1]), [index], JSON.stringify(checked)));
    assert.deepEqual(listed(cache, { ...queries[0]!, shared: true }, [-1]), [0], 'a shared list selects the same ids');
    assert.deepEqual(listed(cache, queries[0]!, [-2], 'pages'), [-2], 'another collection has its own results');
    let computed = 0;
    const odd = query([eq('a', { not: 'a scalar' } as unknown as Scalar)]);
    assert.deepEqual(listed(cache, odd, [++computed]), [1]);
    assert.deepEqual(listed(cache, odd, [++computed]), [2], 'a value of another kind is never kept');
    state = 'two';
    cache.check();
    assert.deepEqual(listed(cache, queries[0]!, [-3]), [-3], 'a new state of the data computes anew');
  });

  it('keeps at most its capacity of results', () => {
    const cache = new RecordCache(() => 'one');
    cache.check();
    const numbered = (index: number) => query([{ field: 'n', op: 'eq', value: index }]);
    for (let index = 0; index < 1_500; index++) listed(cache, numbered(index), [index]);
    let kept = 0;
    // Newest first: a lookup that misses keeps its own result, dropping the oldest.
    for (let index = 1_499; index >= 0; index--) if (listed(cache, numbered(index), [-1])[0] === index) kept++;
    assert.equal(kept, 1_000, 'the most recent results are kept, up to the capacity');
  });

  it('lists by the values asked, 1 and "1" apart', async () => {
    const store = sqliteStorage({ path: path.join(folder, 'typed.db') });
    await seed(store, 'things', [{ n: 1, a: 'ab', b: 'c' }, { n: '1', a: 'a', b: 'bc' }]);
    for (let round = 0; round < 2; round++) {
      const one = await store.list('things', { where: [{ field: 'n', op: 'eq', value: 1 }], withTotal: true });
      assert.deepEqual(one.items.map((item) => item.n), [1]);
      assert.equal(one.total, 1);
      const text = await store.list('things', { where: [{ field: 'n', op: 'eq', value: '1' }], withTotal: true });
      assert.deepEqual(text.items.map((item) => item.n), ['1']);
      const split = await store.list('things', { where: [{ field: 'a', op: 'eq', value: 'a' }, { field: 'b', op: 'eq', value: 'bc' }] });
      assert.deepEqual(split.items.map((item) => item.n), ['1']);
    }
    await store.close();
  });
});
