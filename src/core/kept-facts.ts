/**
 * Facts read from a store (a post's revision history, a term, the next scheduled date) kept across its states
 * while the writes since they were read cannot have changed them, as the store tells (`writtenSince`). A store
 * that cannot tell has every fact read again on each new state, as if nothing were kept.
 */

/** A committed write as a store tells it (the storage port's `StoredWrite`). */
export interface StoreWrite {
  readonly collection: string;
  readonly id: number;
  readonly before: Readonly<Record<string, unknown>> | null;
  readonly after: Readonly<Record<string, unknown>> | null;
}

/** What of a store the kept facts use (the storage port's `changeToken` and `writtenSince`). */
export interface FactStore {
  changeToken?(): Promise<string>;
  writtenSince?(token: string): readonly StoreWrite[] | null;
}

/** Most facts kept per kind and store; past it, all are forgotten and read again as needed. */
const MOST_FACTS = 10_000;

export class KeptFacts<K, V> {
  /** The state of the store the facts were last checked at. */
  #token: string | null = null;
  readonly #facts = new Map<K, V>();
  #drops = 0;
  /** The last fact noted (`note`): read in the state `token` and not kept, found only in that very state. */
  #noted: { token: string; key: K; value: V } | null = null;

  /** `forget`: drops from `facts` what `write` may have changed. */
  constructor(private readonly storage: FactStore, private readonly forget: (write: StoreWrite, facts: Map<K, V>) => void) {}

  /**
   * The facts still true in the store's state `token` (read before anything read for it): the kept ones, less
   * those a write since they were checked may have changed, or none when the store cannot tell which were written.
   */
  at(token: string): ReadonlyMap<K, V> {
    const since = this.#token;
    if (since === token) return this.#facts;
    this.#token = token;
    const size = this.#facts.size;
    if (size === 0) return this.#facts;
    const writes = since === null ? null : writtenBetween(this.storage, since, token);
    if (writes === null) this.#facts.clear();
    else for (const write of writes) this.forget(write, this.#facts);
    // `forget` only drops facts: a kept fact may have changed exactly when the count fell.
    if (this.#facts.size !== size) this.#drops += 1;
    return this.#facts;
  }

  /**
   * A number that grows whenever kept facts are dropped (a write may have changed them, or too many were kept):
   * while it stays the same, every fact found kept since it was read is still kept, with the same value. Read it
   * after `at` the state in question.
   */
  get drops(): number {
    return this.#drops;
  }

  /**
   * The facts still true now (`at` the store's current state), and how to keep more read from that state on.
   */
  async current(): Promise<CurrentFacts<K, V>> {
    const token = await this.storage.changeToken!();
    return {
      facts: this.at(token), keep: (key, value) => this.keep(token, key, value),
      note: (key, value) => {
        this.#noted = { token, key, value };
      },
      noted: (key) => (this.#noted !== null && this.#noted.token === token && this.#noted.key === key ? this.#noted.value : undefined),
    };
  }

  /**
   * Keeps `value`, read after the store's state `token` was, unless the facts were checked at another state
   * meanwhile (it may be older than they are: the next answer reads it again).
   */
  keep(token: string, key: K, value: V): void {
    if (this.#token !== token) return;
    if (this.#facts.size >= MOST_FACTS) {
      this.#facts.clear();
      this.#drops += 1;
    }
    this.#facts.set(key, value);
  }
}

/** The facts in the store's current state, as `KeptFacts.current` tells them. */
export interface CurrentFacts<K, V> {
  facts: ReadonlyMap<K, V>;
  /** Keeps a fact read from this state on. */
  keep: (key: K, value: V) => void;
  /**
   * Notes a fact read from this state without keeping it (the last one only): no write can drop it, and `noted`
   * finds it while the store is still in this very state, for a reader that would read it again.
   */
  note: (key: K, value: V) => void;
  /** The fact last noted, when it was noted for `key` in this very state. */
  noted: (key: K) => V | undefined;
}

/** The last answer of each store's `writtenSince`, with the states it was asked between. */
const lastWrites = new WeakMap<FactStore, { since: string; token: string; writes: readonly StoreWrite[] | null }>();

/**
 * The writes between the store's states `since` and `token` (read after it), as `writtenSince(since)` tells them,
 * or null when it cannot: asked once for all the kinds of facts (and the settings) moving from one state to the
 * next. Its answer, given once the store was in the state `token`, names every write up to that state, so it holds
 * for the same two states later on.
 */
export function writtenBetween(storage: FactStore, since: string, token: string): readonly StoreWrite[] | null {
  const last = lastWrites.get(storage);
  if (last !== undefined && last.since === since && last.token === token) return last.writes;
  const writes = storage.writtenSince?.(since) ?? null;
  lastWrites.set(storage, { since, token, writes });
  return writes;
}

/**
 * The kept facts of one kind for `storage`, made on first use; null when the store cannot tell what was written
 * (no `writtenSince`, or no change token to tell states by), so that nothing is kept.
 */
export function keptFactsOf<K, V>(
  kind: WeakMap<FactStore, KeptFacts<K, V>>, storage: FactStore, forget: (write: StoreWrite, facts: Map<K, V>) => void,
): KeptFacts<K, V> | null {
  if (!storage.writtenSince || !storage.changeToken) return null;
  let facts = kind.get(storage);
  if (!facts) kind.set(storage, (facts = new KeptFacts(storage, forget)));
  return facts;
}
