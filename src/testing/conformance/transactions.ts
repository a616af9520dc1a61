import assert from 'node:assert/strict';
import { describe, it } from '../runner.js';
import { setTimeout as delay } from 'node:timers/promises';
import { isStorageError } from '../../ports/storage.js';
import type { ListQuery, StoragePort } from '../../ports/storage.js';
import type { MakeStore } from './support.js';
import { idsOf, seed, withStore } from './support.js';

const LISTS: ListQuery[] = [
  { withTotal: true },
  { where: [{ field: 'status', op: 'eq', value: 'publish' }], orderBy: [{ field: 'date', direction: 'desc' }], withTotal: true },
  { where: [{ field: 'status', op: 'in', values: ['publish', 'draft'] }], orderBy: [{ field: 'title', direction: 'asc' }], limit: 2 },
  { orderBy: [{ field: 'date', direction: 'asc' }], offset: 1, withTotal: true },
];

/** Everything observable about the collection, for before/after comparisons. */
async function snapshot(store: StoragePort): Promise<unknown[]> {
  return Promise.all(LISTS.map((query) => store.list('posts', query)));
}

async function seedPosts(store: StoragePort): Promise<void> {
  await seed(store, 'posts', [
    { title: 'one', status: 'publish', date: '2024-01-01T00:00:00' },
    { title: 'two', status: 'draft', date: '2024-01-02T00:00:00' },
    { title: 'three', status: 'publish', date: '2024-01-03T00:00:00' },
  ]);
}

export function transactionTests(makeStore: MakeStore): void {
  describe('transactions', () => {
    it('commits the writes of work that succeeds and returns its result', async () => {
      await withStore(makeStore, async (store) => {
        await seedPosts(store);
        const result = await store.transaction(async (tx) => {
          const created = await tx.insert('posts', { title: 'four', status: 'publish', date: '2024-01-04T00:00:00' });
          await tx.update('posts', 1, { status: 'draft' });
          await tx.remove('posts', 2);
          await tx.insert('revisions', { parent: created.id });
          return created.id;
        });
        assert.equal(result, 4);
        assert.deepEqual(idsOf(await store.list('posts')), [1, 3, 4]);
        assert.equal((await store.get('posts', 1))!.status, 'draft');
        assert.deepEqual((await store.list('revisions')).items, [{ id: 1, parent: 4 }]);
      });
    });

    it('lets work read its own writes', async () => {
      await withStore(makeStore, async (store) => {
        await seedPosts(store);
        await store.transaction(async (tx) => {
          const created = await tx.insert('posts', { title: 'four', status: 'publish', date: '2024-01-04T00:00:00' });
          await tx.update('posts', 1, { status: 'draft' });
          assert.deepEqual(await tx.get('posts', created.id), created);
          const published = await tx.list('posts', LISTS[1]);
          assert.deepEqual(idsOf(published), [4, 3]);
          assert.equal(published.total, 2);
        });
      });
    });

    it('undoes every write when work throws midway, and rethrows the same error', async () => {
      await withStore(makeStore, async (store) => {
        await seedPosts(store);
        const before = await snapshot(store);
        const failure = new Error('boom');
        await assert.rejects(store.transaction(async (tx) => {
          await tx.update('posts', 1, { title: 'changed', status: 'draft', date: undefined });
          await tx.insert('posts', { title: 'new', status: 'publish', date: '2023-01-01T00:00:00' });
          await tx.remove('posts', 2);
          await tx.insert('other', { n: 1 });
          await tx.update('posts', 3, { date: '2020-01-01T00:00:00' });
          throw failure;
        }), (error) => error === failure);
        assert.deepEqual(await snapshot(store), before);
        assert.deepEqual(await store.get('posts', 1), { id: 1, title: 'one', status: 'publish', date: '2024-01-01T00:00:00' });
        assert.deepEqual(await store.list('other', { withTotal: true }), { items: [], total: 0 });
      });
    });

    it('undoes earlier writes when a later write fails', async () => {
      await withStore(makeStore, async (store) => {
        await seedPosts(store);
        const before = await snapshot(store);
        await assert.rejects(store.transaction(async (tx) => {
          await tx.insert('posts', { id: 10, title: 'ten', status: 'publish' });
          await tx.update('posts', 3, { status: 'trash' });
          await tx.insert('posts', { id: 1, title: 'clash' });
        }), (error) => isStorageError(error, 'duplicate_id'));
        assert.deepEqual(await snapshot(store), before);
        assert.equal(await store.get('posts', 10), null);
      });
    });

    it('rethrows whatever work throws', async () => {
      await withStore(makeStore, async (store) => {
        await assert.rejects(store.transaction(async (tx) => {
          await tx.insert('posts', { title: 'x' });
          throw 'not an error object';
        }), (error) => error === 'not an error object');
        assert.deepEqual(await store.list('posts'), { items: [] });
      });
    });

    it('nests: a failed inner transaction undoes only its own writes', async () => {
      await withStore(makeStore, async (store) => {
        await seedPosts(store);
        await store.transaction(async (tx) => {
          await tx.update('posts', 1, { title: 'outer' });
          await assert.rejects(tx.transaction(async (inner) => {
            await inner.update('posts', 2, { title: 'inner' });
            await inner.insert('posts', { id: 20, title: 'inner' });
            throw new Error('inner failure');
          }), /inner failure/);
          assert.equal((await tx.get('posts', 2))!.title, 'two');
          await tx.transaction(async (inner) => {
            await inner.update('posts', 3, { title: 'kept' });
          });
        });
        assert.deepEqual((await store.list('posts')).items.map((item) => item.title), ['outer', 'two', 'kept']);
        assert.equal(await store.get('posts', 20), null);
      });
    });

    it('nests: when the outer transaction fails, committed inner work is undone too', async () => {
      await withStore(makeStore, async (store) => {
        await seedPosts(store);
        const before = await snapshot(store);
        await assert.rejects(store.transaction(async (tx) => {
          await tx.transaction(async (inner) => {
            await inner.update('posts', 1, { status: 'trash' });
          });
          throw new Error('outer failure');
        }), /outer failure/);
        assert.deepEqual(await snapshot(store), before);
      });
    });

    it('refuses a transaction handle once its transaction has ended', async () => {
      await withStore(makeStore, async (store) => {
        let committed: StoragePort | undefined;
        await store.transaction(async (tx) => { committed = tx; });
        await assert.rejects(committed!.insert('posts', { title: 'late' }), (error) => isStorageError(error, 'transaction_closed'));
        let failed: StoragePort | undefined;
        await assert.rejects(store.transaction(async (tx) => {
          failed = tx;
          throw new Error('x');
        }));
        await assert.rejects(failed!.update('posts', 1, { title: 'late' }), (error) => isStorageError(error, 'transaction_closed'));
        assert.deepEqual(await store.list('posts'), { items: [] });
      });
    });

    it('does not interleave concurrent transactions', async () => {
      await withStore(makeStore, async (store) => {
        await store.insert('counters', { value: 0 });
        await Promise.all(Array.from({ length: 5 }, () => store.transaction(async (tx) => {
          const current = (await tx.get('counters', 1))!;
          await delay(2);
          await tx.update('counters', 1, { value: (current.value as number) + 1 });
        })));
        assert.equal((await store.get('counters', 1))!.value, 5);
      });
    });

    it('hides an open transaction\'s writes from reads outside it until it commits, and for ever when it rolls back', async () => {
      await withStore(makeStore, async (store) => {
        await seedPosts(store);
        const before = await snapshot(store);
        const beforeOne = await store.get('posts', 1);
        const token = () => store.changeToken?.() ?? Promise.resolve('');
        const tokenBefore = await token();

        /** A transaction whose writes are all made, then held open until `finish` says how it ends. */
        const holdOpen = (fail: boolean) => {
          let finish!: () => void;
          const gate = new Promise<void>((resolve) => { finish = resolve; });
          let written!: () => void;
          const writesMade = new Promise<void>((resolve) => { written = resolve; });
          const done = store.transaction(async (tx) => {
            await tx.update('posts', 1, { title: 'uncommitted', status: 'draft' });
            await tx.insert('posts', { title: 'four', status: 'publish', date: '2024-01-04T00:00:00' });
            await tx.remove('posts', 2);
            await tx.insert('other', { n: 1 });
            assert.equal((await tx.get('posts', 1))!.title, 'uncommitted', 'the transaction reads its own writes');
            assert.deepEqual(idsOf(await tx.list('posts', LISTS[1])), [4, 3]);
            written();
            await gate;
            if (fail) throw new Error('rolled back');
          });
          return { writesMade, finish, done };
        };

        const failing = holdOpen(true);
        await failing.writesMade;
        assert.deepEqual(await snapshot(store), before, 'lists outside see none of the open transaction\'s writes');
        assert.deepEqual(await store.get('posts', 1), beforeOne);
        assert.equal(await store.get('posts', 4), null);
        assert.notEqual(await store.get('posts', 2), null);
        assert.deepEqual(await store.list('other', { withTotal: true }), { items: [], total: 0 });
        assert.equal(await token(), tokenBefore, 'the change token waits for a commit');
        failing.finish();
        await assert.rejects(failing.done, /rolled back/);
        assert.deepEqual(await snapshot(store), before, 'after the rollback the writes never show');
        assert.equal(await store.get('posts', 4), null);
        assert.deepEqual(await store.list('other', { withTotal: true }), { items: [], total: 0 });

        const committing = holdOpen(false);
        await committing.writesMade;
        assert.deepEqual(await snapshot(store), before);
        assert.equal(await store.get('posts', 4), null);
        const tokenDuring = await token();
        committing.finish();
        await committing.done;
        assert.equal((await store.get('posts', 1))!.title, 'uncommitted', 'after the commit every write shows');
        assert.equal(await store.get('posts', 2), null);
        assert.equal((await store.get('posts', 4))!.title, 'four');
        assert.deepEqual(idsOf(await store.list('posts', LISTS[1])), [4, 3]);
        assert.deepEqual(idsOf(await store.list('other')), [1]);
        if (store.changeToken) assert.notEqual(await token(), tokenDuring, 'the commit moves the change token');
      });
    });

    it('keeps a write made outside a transaction that rolls back', async () => {
      await withStore(makeStore, async (store) => {
        await seedPosts(store);
        let release!: () => void;
        const gate = new Promise<void>((resolve) => { release = resolve; });
        let started!: () => void;
        const inside = new Promise<void>((resolve) => { started = resolve; });
        const failing = store.transaction(async (tx) => {
          await tx.update('posts', 1, { title: 'uncommitted' });
          started();
          await gate;
          throw new Error('rolled back');
        });
        await inside;
        const outside = store.update('posts', 2, { title: 'outside' });
        release();
        await assert.rejects(failing, /rolled back/);
        await outside;
        assert.equal((await store.get('posts', 1))!.title, 'one');
        assert.equal((await store.get('posts', 2))!.title, 'outside');
      });
    });
  });
}
