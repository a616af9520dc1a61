import assert from 'node:assert/strict';
import { describe, it } from '../runner.js';
import type { StoragePort } from '../../ports/storage.js';
import type { MakeStore } from './support.js';
import { seed, withStore } from './support.js';

/** The store's `changeToken`, which the suite requires (the port leaves it optional for other stores). */
function tokenOf(store: StoragePort): () => Promise<string> {
  assert.equal(typeof store.changeToken, 'function', 'the store has changeToken()');
  return () => store.changeToken!();
}

/** Asserts that `write` moves the token and that reading afterwards leaves it where it went. */
async function changes(token: () => Promise<string>, write: () => Promise<unknown>, what: string): Promise<string> {
  const before = await token();
  await write();
  const after = await token();
  assert.notEqual(after, before, `${what} changes the token`);
  assert.equal(await token(), after, `the token stays put after ${what}`);
  return after;
}

export function changeTokenTests(makeStore: MakeStore): void {
  describe('change token', () => {
    it('changes after every committed write and never for reads', async () => {
      await withStore(makeStore, async (store) => {
        const token = tokenOf(store);
        const seen = new Set<string>([await token()]);
        const note = (value: string) => {
          assert.ok(!seen.has(value), 'a token never comes back after a write');
          seen.add(value);
        };
        note(await changes(token, () => store.insert('posts', { title: 'one', status: 'publish', type: 'post' }), 'an insert'));
        note(await changes(token, () => store.insert('other', { id: 7 }), 'an insert with an id'));
        note(await changes(token, () => store.update('posts', 1, { title: 'renamed' }), 'an update'));
        note(await changes(token, () => store.update('posts', 1, { status: 'draft' }), 'an update of an indexed field'));
        note(await changes(token, () => store.remove('other', 7), 'a remove'));
        note(await changes(token, () => store.transaction(async (tx) => {
          await tx.insert('posts', { title: 'two' });
          await tx.update('posts', 1, { title: 'again' });
        }), 'a transaction'));
        note(await changes(token, () => store.transaction(async (tx) => {
          await tx.transaction(async (inner) => { await inner.insert('posts', { title: 'nested' }); });
        }), 'a nested transaction'));

        const settled = await token();
        await store.get('posts', 1);
        await store.get('posts', 99);
        await store.list('posts', { where: [{ field: 'status', op: 'eq', value: 'draft' }], withTotal: true });
        await store.list('posts', { search: { fields: ['title'], terms: ['again'] }, orderBy: [{ field: 'title', direction: 'asc' }] });
        await store.list('nowhere', { withTotal: true });
        await store.transaction(async (tx) => {
          await tx.get('posts', 1);
          await tx.list('posts', { withTotal: true });
        });
        assert.equal(await token(), settled, 'reads and a read-only transaction leave the token alone');
      });
    });

    it('never returns to a token under which a rolled-back write could be read', async () => {
      await withStore(makeStore, async (store) => {
        const token = tokenOf(store);
        await seed(store, 'posts', [{ title: 'one' }, { title: 'two' }]);
        const before = await token();
        const snapshot = await store.list('posts', { withTotal: true });
        let during = '';
        let seenOutside = false;
        await assert.rejects(store.transaction(async (tx) => {
          await tx.update('posts', 1, { title: 'uncommitted' });
          await tx.insert('posts', { title: 'three' });
          during = await token();
          seenOutside = (await store.get('posts', 1))!.title === 'uncommitted';
          throw new Error('rolled back');
        }), /rolled back/);
        assert.deepEqual(await store.list('posts', { withTotal: true }), snapshot, 'the rollback undid everything');
        const after = await token();
        if (seenOutside) {
          // A reader outside saw the uncommitted writes under `before` or `during`: both must be left behind.
          assert.notEqual(after, before);
          assert.notEqual(after, during);
        }
        assert.equal(await token(), after);

        // The same for a nested transaction that fails inside one that goes on.
        await store.transaction(async (tx) => {
          await assert.rejects(tx.transaction(async (inner) => {
            await inner.update('posts', 2, { title: 'inner' });
            during = await token();
            seenOutside = (await store.get('posts', 2))!.title === 'inner';
            throw new Error('inner rolled back');
          }), /inner rolled back/);
          if (seenOutside) assert.notEqual(await token(), during);
        });
        assert.equal((await store.get('posts', 2))!.title, 'two');
      });
    });

    it('stays put when a write changes nothing', async () => {
      await withStore(makeStore, async (store) => {
        const token = tokenOf(store);
        await store.insert('posts', { title: 'one' });
        const before = await token();
        assert.equal(await store.update('posts', 5, { title: 'x' }), null);
        assert.equal(await store.remove('posts', 5), false);
        await assert.rejects(store.insert('posts', { id: 1, title: 'clash' }));
        await assert.rejects(store.insert('posts', { title: () => 1 } as never));
        assert.equal(await token(), before);
      });
    });
  });
}
