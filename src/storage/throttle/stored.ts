import type { StoragePort, StoredRecord } from '../../ports/storage.js';
import type { ThrottleCounter, ThrottleStore } from '../../ports/throttle.js';

export const THROTTLE_COLLECTION = 'throttle_counters';
/** Expired counters removed per write, so one write never sweeps a large table. */
const PRUNE_BATCH = 20;

/**
 * Counters as records `{key, count, blocked_until, expires_at}` of a store, so that processes sharing it (several
 * servers on one PostgreSQL) share the counters: each change is one transaction, which the store runs apart from
 * every other (PostgreSQL: under the store's advisory lock). A change that leaves a counter as it was writes nothing
 * (a refusal reads only); each write removes a batch of expired counters.
 *
 * Every write to a store moves its change token, which empties the caches of GET answers kept for that store: give
 * the counters a store of their own (another PostgreSQL schema, say) rather than the content's.
 */
const sameCounter = (left: ThrottleCounter, right: ThrottleCounter) =>
  left.count === right.count && left.blockedUntil === right.blockedUntil && left.expiresAt === right.expiresAt;

export function createStoredThrottleStore(storage: StoragePort): ThrottleStore {
  async function find(store: StoragePort, key: string): Promise<StoredRecord | null> {
    const { items } = await store.list(THROTTLE_COLLECTION, { where: [{ field: 'key', op: 'eq', value: key }], limit: 1 });
    return items[0] ?? null;
  }
  const counterOf = (record: StoredRecord | null, now: number): ThrottleCounter | null => {
    if (record === null || typeof record.expires_at !== 'number' || record.expires_at <= now) return null;
    return {
      count: typeof record.count === 'number' ? record.count : 0,
      blockedUntil: typeof record.blocked_until === 'number' ? record.blocked_until : 0,
      expiresAt: record.expires_at,
    };
  };
  return {
    get: async (key, now) => counterOf(await find(storage, key), now),
    update: (key, now, change) =>
      storage.transaction(async (tx) => {
        const record = await find(tx, key);
        const current = counterOf(record, now);
        const next = change(current);
        if (next !== null && current !== null && sameCounter(next, current)) return next;
        if (next === null) {
          if (record) await tx.remove(THROTTLE_COLLECTION, record.id);
        } else {
          const fields = { key, count: next.count, blocked_until: next.blockedUntil, expires_at: next.expiresAt };
          if (record) await tx.update(THROTTLE_COLLECTION, record.id, fields);
          else await tx.insert(THROTTLE_COLLECTION, fields);
        }
        const expired = await tx.list(THROTTLE_COLLECTION, { where: [{ field: 'expires_at', op: 'lte', value: now }], limit: PRUNE_BATCH });
        for (const old of expired.items) if (old.key !== key) await tx.remove(THROTTLE_COLLECTION, old.id);
        return next;
      }),
  };
}
