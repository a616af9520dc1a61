/**
 * Entries within a count and a byte bound, in a `Map` (oldest first), so that clearing costs nothing but a new
 * `Map`: the caches that follow the generation (generation.ts) clear after every write, and an `LRUCache` sets
 * aside room for its whole bound when made and walks all of it to clear. Eviction gives a second chance, as
 * least-recently-used does but without reordering on every read: an entry read since it was last passed over moves
 * to the back instead of going.
 */
export class RecentEntries<V> {
  #entries = new Map<string, { value: V; read: boolean }>();
  #bytes = 0;

  /** `sizeOf`: the bytes an entry counts for against `maxBytes`, its key included. */
  constructor(readonly maxEntries: number, readonly maxBytes: number, readonly sizeOf: (value: V, key: string) => number) {}

  get size(): number {
    return this.#entries.size;
  }

  get(key: string): V | undefined {
    const entry = this.#entries.get(key);
    if (entry === undefined) return undefined;
    entry.read = true;
    return entry.value;
  }

  set(key: string, value: V): void {
    this.#delete(key);
    const size = this.sizeOf(value, key);
    // As an `LRUCache` does, an entry larger than the whole bound is not kept.
    if (size > this.maxBytes) return;
    // Set counts as a read: a new entry is passed over once, as the ones read since the last pass are.
    this.#entries.set(key, { value, read: true });
    this.#bytes += size;
    while (this.#entries.size > this.maxEntries || this.#bytes > this.maxBytes) {
      const [oldest, entry] = this.#entries.entries().next().value!;
      this.#entries.delete(oldest);
      if (entry.read) {
        entry.read = false;
        this.#entries.set(oldest, entry);
      } else {
        this.#bytes -= this.sizeOf(entry.value, oldest);
      }
    }
  }

  clear(): void {
    if (this.#entries.size === 0) return;
    this.#entries = new Map();
    this.#bytes = 0;
  }

  #delete(key: string): void {
    const entry = this.#entries.get(key);
    if (entry === undefined) return;
    this.#entries.delete(key);
    this.#bytes -= this.sizeOf(entry.value, key);
  }
}
