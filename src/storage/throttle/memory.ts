import { LRUCache } from 'lru-cache';
import type { ThrottleCounter, ThrottleStore } from '../../ports/throttle.js';

export interface MemoryThrottleOptions {
  /** Most counters kept; the least recently used go first (default 100,000, a few MiB). */
  maxCounters?: number;
}

/**
 * Counters in this process's memory, gone with it: the default. Bounded, so a flood of distinct clients or logins
 * costs memory up to the bound and then pushes out the oldest counters.
 */
export function createMemoryThrottleStore(options: MemoryThrottleOptions = {}): ThrottleStore {
  // Made at the first write: the cache sets aside room for all its entries when it is made.
  let counters: LRUCache<string, ThrottleCounter> | undefined;
  const read = (key: string, now: number): ThrottleCounter | null => {
    const counter = counters?.get(key);
    if (counter === undefined) return null;
    if (counter.expiresAt > now) return counter;
    counters!.delete(key);
    return null;
  };
  return {
    get: async (key, now) => {
      const counter = read(key, now);
      return counter === null ? null : { ...counter };
    },
    update: async (key, now, change) => {
      const current = read(key, now);
      const next = change(current === null ? null : { ...current });
      if (next === null) {
        counters?.delete(key);
        return null;
      }
      counters ??= new LRUCache<string, ThrottleCounter>({ max: options.maxCounters ?? 100_000 });
      counters.set(key, { ...next });
      return next;
    },
  };
}
