/**
 * The proxy's answer cache. Keys cover every request parameter and the caller (the reference hashes the full
 * parameter set); entries expire by the injected clock. Failures are kept too, for a shorter time, so that one bad
 * URL cannot make the service call a provider on every request. Two stores: an LRU in this process, or records in
 * the storage port for processes sharing one database.
 */
import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { Clock } from '../ports/clock.js';
import type { StoragePort } from '../ports/storage.js';

export type CachedLookup = { ok: true; data: Record<string, unknown> } | { ok: false };

export interface OembedCache {
  get(key: string): Promise<CachedLookup | undefined>;
  set(key: string, value: CachedLookup, ttlMs: number): Promise<void>;
}

/** Parameters that are not part of the question (the reference leaves out its nonce). */
const IGNORED_PARAMS = new Set(['_wpnonce']);

/** A stable key for the parameters and the caller: the same question always maps to the same key. */
export function cacheKey(params: Readonly<Record<string, unknown>>, userId: number): string {
  const entries = Object.keys(params).filter((name) => !IGNORED_PARAMS.has(name)).sort()
    .map((name) => [name, canonical(params[name])]);
  return `oembed_${createHash('sha256').update(JSON.stringify([userId, entries])).digest('hex')}`;
}

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value !== null && typeof value === 'object') {
    return Object.keys(value).sort().map((key) => [key, canonical((value as Record<string, unknown>)[key])]);
  }
  return value === undefined ? null : value;
}

interface Entry {
  value: CachedLookup;
  expiresAt: number;
}

export function createMemoryCache(maxEntries: number, clock: Clock): OembedCache {
  const entries = new LRUCache<string, Entry>({ max: maxEntries });
  return {
    async get(key) {
      const entry = entries.get(key);
      if (!entry) return undefined;
      if (entry.expiresAt <= clock.now().getTime()) {
        entries.delete(key);
        return undefined;
      }
      return structuredClone(entry.value);
    },
    async set(key, value, ttlMs) {
      entries.set(key, { value: structuredClone(value), expiresAt: clock.now().getTime() + ttlMs });
    },
  };
}

export const CACHE_COLLECTION = 'oembed_cache';
/** Expired records removed per write, so one write never sweeps a large table. */
const PRUNE_BATCH = 50;

/**
 * Records `{key, ok, data, expires_at}` in the `oembed_cache` collection. Reads ignore expired records; each write
 * removes a batch of expired ones and, beyond `maxEntries`, the ones closest to expiry.
 */
export function createStorageCache(storage: StoragePort, maxEntries: number, clock: Clock): OembedCache {
  async function find(store: StoragePort, key: string) {
    const { items } = await store.list(CACHE_COLLECTION, {
      where: [{ field: 'key', op: 'eq', value: key }],
      orderBy: [{ field: 'id', direction: 'desc' }],
      limit: 1,
    });
    return items[0] ?? null;
  }

  async function prune(store: StoragePort, now: number): Promise<void> {
    const expired = await store.list(CACHE_COLLECTION, {
      where: [{ field: 'expires_at', op: 'lte', value: now }],
      limit: PRUNE_BATCH,
    });
    for (const record of expired.items) await store.remove(CACHE_COLLECTION, record.id);
    const { total = 0 } = await store.list(CACHE_COLLECTION, { limit: 0, withTotal: true });
    if (total <= maxEntries) return;
    const excess = await store.list(CACHE_COLLECTION, {
      orderBy: [{ field: 'expires_at', direction: 'asc' }],
      limit: Math.min(total - maxEntries, PRUNE_BATCH),
    });
    for (const record of excess.items) await store.remove(CACHE_COLLECTION, record.id);
  }

  return {
    async get(key) {
      const record = await find(storage, key);
      if (!record || typeof record.expires_at !== 'number' || record.expires_at <= clock.now().getTime()) return undefined;
      if (record.ok !== true) return { ok: false };
      const data = record.data;
      return data !== null && typeof data === 'object' && !Array.isArray(data) ? { ok: true, data: data as Record<string, unknown> } : undefined;
    },
    async set(key, value, ttlMs) {
      const now = clock.now().getTime();
      const fields = { key, ok: value.ok, data: value.ok ? value.data : null, expires_at: now + ttlMs };
      await storage.transaction(async (tx) => {
        const existing = await find(tx, key);
        if (existing) await tx.update(CACHE_COLLECTION, existing.id, fields);
        else await tx.insert(CACHE_COLLECTION, fields);
        await prune(tx, now);
      });
    },
  };
}
