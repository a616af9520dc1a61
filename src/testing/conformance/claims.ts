import assert from 'node:assert/strict';
import { setTimeout as delay } from 'node:timers/promises';
import type { StoragePort } from '../../ports/storage.js';
import { describe, it } from '../runner.js';
import type { MakeStore } from './support.js';
import { seed, withStore } from './support.js';

/**
 * Check-then-write inside a transaction is atomic: what a transaction read stays as it read it until it commits.
 * Work queues (webhook deliveries) claim rows this way — read the free ones, mark them taken — and rely on two
 * claimers never taking one row.
 */
async function claim(store: StoragePort, owner: string, limit: number): Promise<number[]> {
  return store.transaction(async (tx) => {
    const { items } = await tx.list('jobs', { where: [{ field: 'owner', op: 'eq', value: null }], orderBy: [{ field: 'due', direction: 'asc' }], limit });
    const taken: number[] = [];
    for (const job of items) {
      // Give a concurrent claimer every chance to run between the read and the write.
      await delay(1);
      await tx.update('jobs', job.id, { owner });
      taken.push(job.id);
    }
    return taken;
  });
}

export function claimTests(makeStore: MakeStore): void {
  describe('claims', () => {
    it('never lets two concurrent check-then-write transactions take one record', async () => {
      await withStore(makeStore, async (store) => {
        await seed(store, 'jobs', Array.from({ length: 24 }, (_, index) => ({ due: index, owner: null })));
        const claims = await Promise.all(Array.from({ length: 6 }, (_, index) => claim(store, `worker-${index}`, 5)));
        const taken = claims.flat();
        assert.equal(new Set(taken).size, taken.length, `a record was taken twice: ${JSON.stringify(claims)}`);
        assert.equal(taken.length, 24);
        const { items } = await store.list('jobs', { where: [{ field: 'owner', op: 'eq', value: null }] });
        assert.deepEqual(items, []);
        for (const [index, ids] of claims.entries()) {
          for (const id of ids) assert.equal((await store.get('jobs', id))!.owner, `worker-${index}`);
        }
      });
    });
  });
}
