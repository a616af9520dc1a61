/**
 * When kept answers stop being valid. A generation is one state of everything an answer may depend on besides
 * the request: the store (its change token), the site settings in effect (their object, which stays the same
 * until a value changes), the routes (a host may add some while serving; the index lists them) and the clock, up
 * to the date the next scheduled post goes live. It is the one record of when to forget: the caches follow it, and
 * the publishing of scheduled posts asks it whether anything can be due (`nothingDue`).
 */

/** What the dispatcher's cache learns the state from; `createCms` fills it from the store and the clock. */
export interface CacheSources {
  /**
   * The store's change token (see the storage port): it differs after every committed write by any process
   * sharing the store. Without it, nothing is kept.
   */
  changeToken?: () => Promise<string>;
  /**
   * When the earliest scheduled post goes live, in epoch milliseconds; null when none is scheduled. `token`: the
   * store's state it is asked for, read before.
   */
  nextScheduled?: (token: string) => Promise<number | null>;
  /** `nextScheduled`, when it is known without reading the store; undefined when only `nextScheduled` can tell. */
  nextScheduledNow?: (token: string) => number | null | undefined;
  /** The clock answers are computed with, in epoch milliseconds. */
  now: () => number;
}

export class Generation {
  constructor(
    readonly token: string, readonly settings: object, readonly routes: number, readonly expiresAt: number,
    /** Later generations have larger serials, so a cache can tell an old one from the current one. */
    readonly serial = 0,
  ) {}

  isFor(token: string, settings: object, routes: number): boolean {
    return this.token === token && this.settings === settings && this.routes === routes;
  }
}

/** Tracks the current generation; a new one starts whenever the token or the settings differ. */
export class Generations {
  #current: Generation | null = null;
  #serial = 0;
  #deadline: { token: string; at: number } | null = null;
  readonly #listeners: (() => void)[] = [];

  constructor(readonly sources: CacheSources) {}

  /** Calls `listener` whenever a new generation starts (caches drop what they kept). */
  onNew(listener: () => void): void {
    this.#listeners.push(listener);
  }

  /**
   * The generation this request's answer belongs to, or null when nothing may be kept now (no change token, or
   * a scheduled post due). Read it before computing the answer: a write landing meanwhile changes the token, so
   * the answer, kept under the older generation, is never served. `token`: the change token, when the caller has
   * just read it.
   */
  async current(settings: object, routes: number, token?: string): Promise<Generation | null> {
    const { changeToken, now } = this.sources;
    if (!changeToken) return null;
    token ??= await changeToken();
    let generation = this.#current;
    if (!generation?.isFor(token, settings, routes)) {
      const deadline = this.#deadlineNow(token) ?? await this.#deadlineOf(token);
      // Another request may have started the same generation while this one waited.
      generation = this.#current;
      if (!generation?.isFor(token, settings, routes)) generation = this.#start(token, settings, routes, deadline);
    }
    return isBefore(now, generation.expiresAt) ? generation : null;
  }

  /**
   * `current` without waiting, when the generation of `token` and `settings` has started already, or can start
   * now (its next scheduled date known without reading the store): it, or null when nothing may be kept now;
   * undefined when only `current` can tell.
   */
  known(settings: object, routes: number, token: string | undefined): Generation | null | undefined {
    if (token === undefined) return undefined;
    let generation = this.#current;
    if (!generation?.isFor(token, settings, routes)) {
      const deadline = this.#deadlineNow(token);
      if (deadline === undefined) return undefined;
      generation = this.#start(token, settings, routes, deadline);
    }
    return isBefore(this.sources.now, generation.expiresAt) ? generation : null;
  }

  #start(token: string, settings: object, routes: number, deadline: number): Generation {
    const generation = new Generation(token, settings, routes, deadline, ++this.#serial);
    this.#current = generation;
    for (const listener of this.#listeners) listener();
    return generation;
  }

  /**
   * Whether nothing can have fallen due by the clock: the store is unchanged since its next scheduled date was
   * read, and the clock is before that date. False without a change token. `token`: as for `current`.
   */
  nothingDue(token?: string): Promise<boolean> {
    const { changeToken, now } = this.sources;
    if (!changeToken) return NOT_KNOWN;
    // The deadline of this state read already (the common case): answered by a settled promise, without a turn made.
    const deadline = this.#deadline;
    if (token !== undefined && deadline?.token === token) return isBefore(now, deadline.at) ? NOTHING_DUE : NOT_KNOWN;
    return this.#nothingDueByNow(changeToken, token);
  }

  /** `nothingDue` answered without waiting: true when the deadline of `token` is known and not reached yet. */
  nothingDueNow(token: string | undefined): boolean {
    const deadline = this.#deadline;
    return this.sources.changeToken !== undefined && token !== undefined && deadline?.token === token && isBefore(this.sources.now, deadline.at);
  }

  async #nothingDueByNow(changeToken: () => Promise<string>, token: string | undefined): Promise<boolean> {
    token ??= await changeToken();
    return isBefore(this.sources.now, await this.#deadlineOf(token));
  }

  /** `#deadlineOf` when known without reading the store; undefined when not. */
  #deadlineNow(token: string): number | undefined {
    if (this.#deadline?.token === token) return this.#deadline.at;
    const next = this.sources.nextScheduledNow?.(token);
    if (next === undefined) return undefined;
    this.#deadline = { token, at: next ?? Infinity };
    return this.#deadline.at;
  }

  /** When the earliest scheduled post of the store's state `token` goes live (Infinity: none), read once per state. */
  async #deadlineOf(token: string): Promise<number> {
    if (this.#deadline?.token === token) return this.#deadline.at;
    const next = this.sources.nextScheduled ? await this.sources.nextScheduled(token) : null;
    this.#deadline = { token, at: next ?? Infinity };
    return this.#deadline.at;
  }
}

const NOTHING_DUE = Promise.resolve(true);
const NOT_KNOWN = Promise.resolve(false);

/** Whether the clock is before `expiresAt`; without a scheduled post (Infinity) the clock is not read. */
function isBefore(now: () => number, expiresAt: number): boolean {
  return expiresAt === Infinity || now() < expiresAt;
}
