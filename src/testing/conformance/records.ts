import assert from 'node:assert/strict';
import { describe, it } from '../runner.js';
import { isStorageError } from '../../ports/storage.js';
import type { StorageErrorCode } from '../../ports/storage.js';
import type { MakeStore } from './support.js';
import { withStore } from './support.js';

function failsWith(code: StorageErrorCode) {
  return (error: unknown) => {
    assert.ok(isStorageError(error, code), `expected a StorageError "${code}", got ${String(error)}`);
    return true;
  };
}

export function recordTests(makeStore: MakeStore): void {
  describe('records', () => {
    it('inserts, reads, updates and removes a record', async () => {
      await withStore(makeStore, async (store) => {
        const created = await store.insert('items', { title: 'First', tags: ['a', 'b'], meta: { n: 1 } });
        assert.deepEqual(created, { id: 1, title: 'First', tags: ['a', 'b'], meta: { n: 1 } });
        assert.deepEqual(await store.get('items', 1), created);

        const updated = await store.update('items', 1, { title: 'Renamed', extra: false });
        assert.deepEqual(updated, { id: 1, title: 'Renamed', tags: ['a', 'b'], meta: { n: 1 }, extra: false });
        assert.deepEqual(await store.get('items', 1), updated);

        assert.equal(await store.remove('items', 1), true);
        assert.equal(await store.get('items', 1), null);
        assert.equal(await store.remove('items', 1), false);
        assert.deepEqual(await store.list('items', { withTotal: true }), { items: [], total: 0 });
      });
    });

    it('answers for unknown collections and ids without failing', async () => {
      await withStore(makeStore, async (store) => {
        assert.equal(await store.get('nowhere', 1), null);
        assert.deepEqual(await store.list('nowhere', { withTotal: true }), { items: [], total: 0 });
        assert.equal(await store.update('nowhere', 1, { a: 1 }), null);
        assert.equal(await store.remove('nowhere', 1), false);
        await store.insert('somewhere', { a: 1 });
        assert.equal(await store.get('somewhere', 2), null);
        assert.equal(await store.update('somewhere', 2, { a: 1 }), null);
      });
    });

    it('assigns ids per collection, counting up from 1', async () => {
      await withStore(makeStore, async (store) => {
        assert.equal((await store.insert('posts', { n: 1 })).id, 1);
        assert.equal((await store.insert('posts', { n: 2 })).id, 2);
        assert.equal((await store.insert('users', { n: 1 })).id, 1);
        assert.equal((await store.insert('posts', { n: 3 })).id, 3);
        assert.equal((await store.insert('users', { n: 2 })).id, 2);
        assert.deepEqual((await store.list('posts')).items.map((item) => item.n), [1, 2, 3]);
      });
    });

    it('keeps explicit ids and continues above the highest one', async () => {
      await withStore(makeStore, async (store) => {
        assert.equal((await store.insert('posts', { id: 10, n: 1 })).id, 10);
        assert.equal((await store.insert('posts', { n: 2 })).id, 11);
        assert.equal((await store.insert('posts', { id: 5, n: 3 })).id, 5);
        assert.equal((await store.insert('posts', { n: 4 })).id, 12);
        assert.equal((await store.insert('posts', { id: undefined, n: 5 })).id, 13);
      });
    });

    it('does not reuse the id of a removed record', async () => {
      await withStore(makeStore, async (store) => {
        await store.insert('posts', { n: 1 });
        const second = await store.insert('posts', { n: 2 });
        await store.remove('posts', second.id);
        assert.equal((await store.insert('posts', { n: 3 })).id, 3);
      });
    });

    it('refuses an explicit id that exists, leaving the stored record alone', async () => {
      await withStore(makeStore, async (store) => {
        await store.insert('posts', { id: 7, title: 'original' });
        await assert.rejects(store.insert('posts', { id: 7, title: 'intruder' }), failsWith('duplicate_id'));
        assert.deepEqual(await store.get('posts', 7), { id: 7, title: 'original' });
        assert.equal((await store.list('posts', { withTotal: true })).total, 1);
        await assert.rejects(
          store.transaction(async (tx) => { await tx.insert('posts', { id: 7 }); }),
          failsWith('duplicate_id'),
        );
      });
    });

    it('refuses ids that are not positive integers', async () => {
      await withStore(makeStore, async (store) => {
        for (const id of [0, -3, 1.5, '4', Number.NaN]) {
          await assert.rejects(store.insert('posts', { id: id as number }), failsWith('invalid_record'), String(id));
        }
        assert.deepEqual(await store.list('posts'), { items: [] });
      });
    });

    it('removes a field when a patch sets it to undefined', async () => {
      await withStore(makeStore, async (store) => {
        await store.insert('posts', { title: 'x', status: 'draft', sticky: true });
        const updated = await store.update('posts', 1, { status: undefined, sticky: false });
        assert.deepEqual(updated, { id: 1, title: 'x', sticky: false });
        assert.deepEqual(await store.get('posts', 1), { id: 1, title: 'x', sticky: false });
        assert.equal(Object.hasOwn((await store.get('posts', 1))!, 'status'), false);
        const matching = await store.list('posts', { where: [{ field: 'status', op: 'eq', value: null }] });
        assert.deepEqual(matching.items.map((item) => item.id), [1]);
      });
    });

    it('drops undefined members on insert', async () => {
      await withStore(makeStore, async (store) => {
        const created = await store.insert('posts', { title: 'x', gone: undefined, nested: { keep: 1, drop: undefined } });
        assert.deepEqual(created, { id: 1, title: 'x', nested: { keep: 1 } });
        assert.equal(Object.hasOwn((await store.get('posts', 1))!, 'gone'), false);
      });
    });

    it('refuses to change an id through update', async () => {
      await withStore(makeStore, async (store) => {
        await store.insert('posts', { title: 'x' });
        await assert.rejects(store.update('posts', 1, { id: 2 }), failsWith('invalid_record'));
        assert.deepEqual(await store.update('posts', 1, { id: 1, title: 'y' }), { id: 1, title: 'y' });
        assert.equal(await store.get('posts', 2), null);
      });
    });

    it('refuses values that are not JSON', async () => {
      await withStore(makeStore, async (store) => {
        const bad: unknown[] = [new Date(0), () => 1, Number.NaN, Number.POSITIVE_INFINITY, new Map(), [1, undefined], 10n];
        for (const value of bad) {
          await assert.rejects(store.insert('posts', { value }), failsWith('invalid_record'), String(value));
        }
        await store.insert('posts', { value: 1 });
        for (const value of bad) {
          await assert.rejects(store.update('posts', 1, { value }), failsWith('invalid_record'), String(value));
        }
        assert.deepEqual(await store.get('posts', 1), { id: 1, value: 1 });
        assert.equal((await store.list('posts', { withTotal: true })).total, 1);
      });
    });

    it('keeps a "__proto__" member as plain data', async () => {
      await withStore(makeStore, async (store) => {
        const record = JSON.parse('{"title":"x","__proto__":{"polluted":true}}') as Record<string, unknown>;
        const created = await store.insert('posts', record);
        const read = (await store.get('posts', created.id))!;
        assert.equal(Object.hasOwn(read, '__proto__'), true);
        assert.equal((read as { polluted?: unknown }).polluted, undefined);
        assert.deepEqual(read, JSON.parse('{"id":1,"title":"x","__proto__":{"polluted":true}}'));
      });
    });

    it('copies records in: changing the caller\'s object later changes nothing stored', async () => {
      await withStore(makeStore, async (store) => {
        const input = { title: 'x', tags: ['a'], meta: { deep: { n: 1 } } };
        await store.insert('posts', input);
        input.title = 'changed';
        input.tags.push('b');
        input.meta.deep.n = 2;
        const patch = { tags: ['c'], meta: { deep: { n: 3 } } };
        await store.update('posts', 1, patch);
        patch.tags.push('d');
        patch.meta.deep.n = 4;
        assert.deepEqual(await store.get('posts', 1), { id: 1, title: 'x', tags: ['c'], meta: { deep: { n: 3 } } });
      });
    });

    it('copies records out: changing a result changes nothing stored', async () => {
      await withStore(makeStore, async (store) => {
        const created = await store.insert('posts', { title: 'x', tags: ['a'], meta: { n: 1 } });
        created.title = 'from insert';
        (created.tags as string[]).push('insert');
        const fetched = (await store.get('posts', 1))!;
        fetched.title = 'from get';
        (fetched.meta as { n: number }).n = 99;
        const listed = (await store.list('posts')).items[0]!;
        listed.title = 'from list';
        (listed.tags as string[]).length = 0;
        const updated = (await store.update('posts', 1, { status: 'publish' }))!;
        updated.title = 'from update';
        (updated.meta as { n: number }).n = 42;
        await store.transaction(async (tx) => {
          const inside = (await tx.get('posts', 1))!;
          inside.title = 'from transaction';
        });
        assert.deepEqual(await store.get('posts', 1), { id: 1, title: 'x', tags: ['a'], meta: { n: 1 }, status: 'publish' });
      });
    });

    it('shares records only for reading: a `shared` list answers as a plain one, and changing it changes nothing stored', async () => {
      await withStore(makeStore, async (store) => {
        await store.insert('posts', { title: 'x', tags: ['a'], meta: { deep: { n: 1 } } });
        const shared = await store.list('posts', { shared: true, withTotal: true });
        assert.deepEqual(shared, await store.list('posts', { withTotal: true }));
        const listed = shared.items[0]!;
        // A store may hand out its own records frozen (a change then throws) or copies (a change stays there).
        const attempt = (change: () => void) => {
          try {
            change();
          } catch (error) {
            assert.ok(error instanceof TypeError);
          }
        };
        attempt(() => { listed.title = 'changed'; });
        attempt(() => { (listed.tags as string[]).push('b'); });
        attempt(() => { (listed.meta as { deep: { n: number } }).deep.n = 2; });
        assert.deepEqual(await store.get('posts', 1), { id: 1, title: 'x', tags: ['a'], meta: { deep: { n: 1 } } });
        await store.update('posts', 1, { title: 'y' });
        assert.deepEqual((await store.list('posts', { shared: true })).items, [{ id: 1, title: 'y', tags: ['a'], meta: { deep: { n: 1 } } }]);
        // Plain reads stay copies the caller may change, whatever was shared before.
        const copy = (await store.list('posts')).items[0]!;
        (copy.tags as string[]).push('c');
        assert.deepEqual((await store.get('posts', 1))!.tags, ['a']);
      });
    });

    it('rejects malformed queries', async () => {
      await withStore(makeStore, async (store) => {
        await store.insert('posts', { status: 'publish' });
        const malformed: unknown[] = [
          { where: [{ field: 'status', op: 'eq' }] },
          { where: [{ field: 'status', op: 'eq', value: undefined }] },
          { where: [{ field: 'status', op: 'like', value: 'x' }] },
          { where: [{ op: 'eq', value: 'x' }] },
          { where: [{ field: 'status', op: 'in', values: 'publish' }] },
          { where: [{ op: 'and', conditions: [{ field: 'status', op: 'eq', value: {} }] }] },
          { orderBy: [{ field: 'date', direction: 'up' }] },
          { offset: -1 },
          { limit: 1.5 },
          { search: { fields: [], terms: ['x'] } },
        ];
        for (const query of malformed) {
          await assert.rejects(store.list('posts', query as never), failsWith('invalid_query'), JSON.stringify(query));
        }
      });
    });
  });
}
