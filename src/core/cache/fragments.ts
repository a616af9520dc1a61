/**
 * View fragments: the encoded JSON of one record as a collection or single answer shows it (context-filtered,
 * links compacted), kept so that a list is built by joining bytes instead of preparing and shaping every record.
 * A fragment belongs to a generation (generation.ts), like a kept answer: any write to the store, a settings
 * change or a scheduled post falling due starts a new one, and the fragments of older ones are dropped.
 *
 * Keys are made by the policy (policy.ts: `fragmentKey`). A joined list is kept too, under the serials of its
 * parts (`listKey`), so that the same page again costs no copying and no new entity tag.
 *
 * A record whose revision names everything its fragment shows (`KeyedItem.revision`) is also kept apart, under
 * that revision (`lastingFragmentKey`): such fragments outlive generations, since a change to anything they show
 * changes their key, so a write to one record leaves the others' fragments in use. A list joined only from such
 * fragments is kept apart as well, under the serials of its parts: its bytes (and entity tag) are theirs, joined.
 */
import type { EncodedJson } from '../encode.js';
import type { Generation } from './generation.js';
import { InternedKeys } from './interned-keys.js';
import { RecentEntries } from './recent-entries.js';

export interface FragmentCacheOptions {
  /** Most fragments kept (default 10,000), for the current generation and, apart, under records' revisions. */
  maxEntries?: number;
  /** Most bytes kept, fragments and keys counted (default 32 MiB), for each of the two as `maxEntries`. */
  maxBytes?: number;
}

export const DEFAULT_MAX_FRAGMENTS = 10_000;
export const DEFAULT_MAX_FRAGMENT_BYTES = 32 * 1024 * 1024;
const ENTRY_OVERHEAD_BYTES = 64;

export class FragmentCache {
  readonly #options: FragmentCacheOptions;
  /**
   * The current generation's fragments, made on the first one kept. Not an `LRUCache`: that sets aside room for
   * `maxEntries` when made and clears all of it, however little it holds, and a new generation starts after every
   * write, so the first read after each would pay for it.
   */
  #entries: RecentEntries<EncodedJson> | null = null;
  #generation: Generation | null = null;
  /** Fragments kept under their record's revision, across generations (made on the first one kept). */
  #lasting: RecentEntries<EncodedJson> | null = null;
  /** The values ever kept under a revision (weakly: dropped with the last use of each). */
  readonly #lastingValues = new WeakSet<EncodedJson>();

  constructor(options: FragmentCacheOptions = {}) {
    this.#options = options;
  }

  get(generation: Generation, key: string): EncodedJson | undefined {
    return this.#isCurrent(generation) ? this.#entries?.get(key) : undefined;
  }

  set(generation: Generation, key: string, value: EncodedJson): void {
    if (!this.#isCurrent(generation)) return;
    this.#entries ??= new RecentEntries(this.#maxEntries(), this.#maxBytes(), entrySize);
    this.#entries.set(key, value);
  }

  /** A fragment kept under its record's revision, for an answer of `generation` (none for an older one). */
  getLasting(generation: Generation, key: string): EncodedJson | undefined {
    return this.#isCurrent(generation) ? this.#lasting?.get(key) : undefined;
  }

  /** Keeps a fragment under its record's revision; the caller has checked the store did not change meanwhile. */
  setLasting(generation: Generation, key: string, value: EncodedJson): void {
    if (!this.#isCurrent(generation)) return;
    this.#lasting ??= new RecentEntries(this.#maxEntries(), this.#maxBytes(), entrySize);
    this.#lasting.set(key, value);
    this.#lastingValues.add(value);
  }

  /** Whether `value` was kept under a revision (so a list joined from such values may outlive generations too). */
  isLasting(value: EncodedJson): boolean {
    return this.#lastingValues.has(value);
  }

  /** Fragments and lists kept for the current generation. */
  get size(): number {
    return this.#entries?.size ?? 0;
  }

  /** Fragments kept under their record's revision. */
  get lastingSize(): number {
    return this.#lasting?.size ?? 0;
  }

  #maxEntries(): number {
    return Math.max(1, this.#options.maxEntries ?? DEFAULT_MAX_FRAGMENTS);
  }

  #maxBytes(): number {
    return Math.max(1, this.#options.maxBytes ?? DEFAULT_MAX_FRAGMENT_BYTES);
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

const entrySize = (entry: EncodedJson, key: string) => ENTRY_OVERHEAD_BYTES + key.length * 2 + entry.bytes.byteLength;

const listKeys = new InternedKeys(30_000);

/** The key of the list joined from these fragments, in this order (`[` cannot start a fragment's key). */
export function listKey(parts: readonly EncodedJson[]): string {
  let node = listKeys.root;
  for (const part of parts) node = listKeys.child(node, part.serial);
  return node.text ??= spelledListKey(parts);
}

function spelledListKey(parts: readonly EncodedJson[]): string {
  let key = '[';
  for (const part of parts) key += `${part.serial},`;
  return key;
}
