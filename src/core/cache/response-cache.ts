/**
 * The response cache: answers of routes declared `cache`, encoded once and kept with their headers, so that a
 * hit does no routing, no store reads and no JSON work. Bounded in entries and bytes (the oldest go first unless
 * read since: recent-entries.ts); every entry belongs to a generation (generation.ts) and is served only within
 * it, and a new generation drops them all.
 */
import type { Generation, Generations } from './generation.js';
import { RecentEntries } from './recent-entries.js';

export interface ResponseCacheOptions {
  /** Most answers kept (default 1,000). */
  maxEntries?: number;
  /** Most bytes kept, bodies, keys and headers counted (default 32 MiB); a larger answer is not kept. */
  maxBytes?: number;
}

export const DEFAULT_MAX_ENTRIES = 1_000;
export const DEFAULT_MAX_BYTES = 32 * 1024 * 1024;

/** An answer ready to send again: its headers before the per-request ones, its bytes and its tag. */
export interface KeptAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly bytes: Uint8Array | null;
  /** What the body was, so an in-process caller gets the same kind of value back. */
  readonly kind: 'json' | 'text' | 'bytes';
  readonly etag: string;
}

interface Entry {
  generation: Generation;
  answer: KeptAnswer;
}

const ENTRY_OVERHEAD_BYTES = 256;

export class ResponseCache {
  readonly #options: ResponseCacheOptions;
  /** Made on the first answer kept. */
  #entries: RecentEntries<Entry> | null = null;

  constructor(generations: Generations, options: ResponseCacheOptions = {}) {
    this.#options = options;
    // Entries of an older generation are never served; dropping them at once frees their memory.
    generations.onNew(() => this.#entries?.clear());
  }

  get(key: string, generation: Generation): KeptAnswer | undefined {
    const entry = this.#entries?.get(key);
    return entry?.generation === generation ? entry.answer : undefined;
  }

  set(key: string, generation: Generation, answer: KeptAnswer): void {
    this.#entries ??= new RecentEntries<Entry>(
      Math.max(1, this.#options.maxEntries ?? DEFAULT_MAX_ENTRIES),
      Math.max(1, this.#options.maxBytes ?? DEFAULT_MAX_BYTES),
      (entry, entryKey) => sizeOf(entry.answer, entryKey),
    );
    this.#entries.set(key, { generation, answer });
  }

  get size(): number {
    return this.#entries?.size ?? 0;
  }
}

function sizeOf(answer: KeptAnswer, key: string): number {
  let size = ENTRY_OVERHEAD_BYTES + key.length * 2 + (answer.bytes?.byteLength ?? 0);
  for (const [name, value] of Object.entries(answer.headers)) size += (name.length + value.length) * 2;
  return size;
}
