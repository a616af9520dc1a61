import assert from 'node:assert/strict';
import { describe, it } from '../runner.js';
import type { StoredRecord, StoredWrite } from '../../ports/storage.js';
import type { MakeStore } from './support.js';
import { withStore } from './support.js';

/** The writes as `collection/id: before -> after`, in the order of collection and id, for comparing. */
function described(writes: readonly StoredWrite[]): string[] {
  const json = (record: StoredRecord | null) => (record === null ? 'none' : JSON.stringify(Object.fromEntries(Object.entries(record).sort())));
  return writes.map((write) => `${write.collection}/${write.id}: ${json(write.before)} -> ${json(write.after)}`).sort();
}

/** The store's optional `writtenSince`: a store without it tells nothing, which caches handle by keeping nothing. */
export function writtenSinceTests(makeStore: MakeStore): void {
  describe('writes since a change token', () => {
    it('names every committed write since the token, as the record was before the first and after the last', async () => {
      await withStore(makeStore, async (store) => {
        if (!store.writtenSince) return;
        const since = (token: string) => store.writtenSince!(token);
        const start = await store.changeToken!();
        assert.deepEqual(since(start), [], 'nothing was written since the current token');
        const one = await store.insert('posts', { title: 'one', type: 'post' });
        const afterInsert = await store.changeToken!();
        assert.deepEqual(described(since(start) ?? []), described([{ collection: 'posts', id: one.id, before: null, after: one }]));
        const renamed = (await store.update('posts', one.id, { title: 'renamed' }))!;
        const other = await store.insert('terms', { id: 9, name: 'tag' });
        assert.deepEqual(described(since(afterInsert)!), described([
          { collection: 'posts', id: one.id, before: one, after: renamed },
          { collection: 'terms', id: 9, before: null, after: other },
        ]));
        const sinceStart = since(start);
        assert.ok(sinceStart !== null, 'a recent token is remembered');
        assert.ok(described(sinceStart).length >= 2, 'a record written twice may appear once, never not at all');
        assert.ok(described(sinceStart).some((line) => line.startsWith(`posts/${one.id}: none -> `)));

        // A transaction's writes: each record as it was before the transaction and is after it.
        const beforeTransaction = await store.changeToken!();
        const [two, updated] = await store.transaction(async (tx) => {
          const inserted = await tx.insert('posts', { title: 'two', type: 'revision', parent: one.id });
          await tx.update('posts', one.id, { title: 'first' });
          const last = (await tx.update('posts', one.id, { title: 'second' }))!;
          await tx.remove('terms', 9);
          return [inserted, last];
        });
        assert.deepEqual(described(since(beforeTransaction)!), described([
          { collection: 'posts', id: two.id, before: null, after: two },
          { collection: 'posts', id: one.id, before: renamed, after: updated },
          { collection: 'terms', id: 9, before: other, after: null },
        ]));

        // A rolled-back transaction wrote nothing.
        const beforeRollback = await store.changeToken!();
        await assert.rejects(store.transaction(async (tx) => {
          await tx.update('posts', one.id, { title: 'undone' });
          throw new Error('rolled back');
        }), /rolled back/);
        const afterRollback = since(beforeRollback);
        assert.ok(afterRollback === null || afterRollback.length === 0, 'a rolled-back write is never named');
        assert.equal(since('not a token of this store'), null);
      });
    });
  });
}

