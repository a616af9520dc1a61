/**
 * View fragments: the encoded JSON of one record as a collection or single answer shows it (context-filtered,
 * links compacted), kept so that a list is built by joining bytes instead of preparing and shaping every record.
 * A fragment belongs to a generation (generation.ts), like a kept answer: any write to the store, a settings
 * change or a scheduled post falling due starts a new one, and the fragments of older ones are dropped.
 *
 * Keys are made by the policy (policy.ts: `fragmentKey`). A joined list is kept too, under the serials of its
 * parts (`listKey`), so that the same page again costs no copying and no new entity tag.
 */
import { LRUCache } from 'lru-cache';
import type { EncodedJson } from '../encode.js';
import type { Generation } from './generation.js';

export interface FragmentCacheOptions {
  /** Most fragments kept (default 10,000). */
  maxEntries?: number;
  /** Most bytes kept, fragments and keys counted (default 32 MiB). */
  maxBytes?: number;
}

export const DEFAULT_MAX_FRAGMENTS = 10_000;
export const DEFAULT_MAX_FRAGMENT_BYTES = 32 * 1024 * 1024;
const ENTRY_OVERHEAD_BYTES = 64;

export class FragmentCache {
  readonly #options: FragmentCacheOptions;
  /** Made on the first fragment kept: the cache sets aside room for `maxEntries` when made. */
  #entries: LRUCache<string, EncodedJson> | null = null;
  #generation: Generation | null = null;

  constructor(options: FragmentCacheOptions = {}) {
    this.#options = options;
  }

  get(generation: Generation, key: string): EncodedJson | undefined {
    return this.#isCurrent(generation) ? this.#entries?.get(key) : undefined;
  }

  set(generation: Generation, key: string, value: EncodedJson): void {
    if (!this.#isCurrent(generation)) return;
    this.#entries ??= new LRUCache<string, EncodedJson>({
      max: Math.max(1, this.#options.maxEntries ?? DEFAULT_MAX_FRAGMENTS),
      maxSize: Math.max(1, this.#options.maxBytes ?? DEFAULT_MAX_FRAGMENT_BYTES),
      sizeCalculation: (entry, entryKey) => ENTRY_OVERHEAD_BYTES + entryKey.length * 2 + entry.bytes.byteLength,
    });
    this.#entries.set(key, value);
  }

  get size(): number {
    return this.#entries?.size ?? 0;
  }

  /**
   * Whether fragments of `generation` may be used: it is the newest seen (a newer one drops everything kept). A
   * request that began before a write still holds the older generation; what it computed is neither served nor
   * kept.
   */
  #isCurrent(generation: Generation): boolean {
    const current = this.#generation;
    if (current === generation) return true;
    if (current && generation.serial <= current.serial) return false;
    this.#entries?.clear();
    this.#generation = generation;
    return true;
  }
}

/** The key of the list joined from these fragments, in this order (`[` cannot start a fragment's key). */
export function listKey(parts: readonly EncodedJson[]): string {
  let key = '[';
  for (const part of parts) key += `${part.serial},`;
  return key;
}
