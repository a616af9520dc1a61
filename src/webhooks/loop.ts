/**
 * The delivery loop. Any number of processes may run one over the same store: each claims due deliveries in a
 * write transaction (the store's transactions never interleave — SQLite's `BEGIN IMMEDIATE`, PostgreSQL's
 * schema-wide advisory lock, the memory store's lock — so a check-then-claim is atomic) by taking a lease on the
 * row and counting the attempt. A lease outlives the request's deadline, so an attempt is sent by one process
 * only; a process that dies mid-attempt leaves a lease that ends, and the row is claimed again as a new attempt.
 *
 * Time comes from the injected clock and waiting from the injected timers, so tests run the loop at their pace.
 */
import { randomBytes } from 'node:crypto';
import type { Clock } from '../ports/clock.js';
import type { HttpClient } from '../ports/http-client.js';
import type { Condition, StoragePort } from '../ports/storage.js';
import { afterAttempt, sendDelivery, type RetryPolicy } from './attempt.js';
import { deliveriesIn, subscriptionsIn, type DeliveryRecord } from './records.js';

export interface Timers {
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const systemTimers: Timers = {
  setTimeout: (run, ms) => {
    const handle = setTimeout(run, ms);
    handle.unref?.();
    return handle;
  },
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export interface LoopOptions {
  storage: StoragePort;
  clock: Clock;
  timers: Timers;
  retry: RetryPolicy;
  /** How often the store is looked at for deliveries other processes queued or that came due. */
  pollMs: number;
  /** Deadline of one request. */
  timeoutMs: number;
  /** Attempts running at once in this process. */
  concurrency: number;
  /** Finished deliveries kept per subscription (the log); older ones are removed. */
  keepPerSubscription: number;
  fixedTargets: readonly string[];
  fixedSecret: string | null;
  clientFor(target: string): HttpClient;
  /** The event's body: `{id, event, time, resource}`, as sent. */
  payloadOf(delivery: DeliveryRecord): Promise<string>;
  onError(error: unknown): void;
}

const PRUNE_EVERY_MS = 60_000;
/** A lease lasts the request's deadline and this much more (recording the outcome). */
const LEASE_MARGIN_MS = 5_000;

export class DeliveryLoop {
  readonly #options: LoopOptions;
  readonly #owner = randomBytes(9).toString('base64url');
  #running = false;
  #timer: unknown = null;
  #timerAt = Infinity;
  #passing: Promise<void> | null = null;
  #again = false;
  #inFlight = new Set<Promise<void>>();
  #prunedAt = -Infinity;

  constructor(options: LoopOptions) {
    this.#options = options;
  }

  get running(): boolean {
    return this.#running;
  }

  start(): void {
    if (this.#running) return;
    this.#running = true;
    this.#schedule(0);
  }

  /** Stops taking work and waits for the attempts under way. */
  async stop(): Promise<void> {
    this.#running = false;
    this.#clearTimer();
    await this.#passing;
    await Promise.all(this.#inFlight);
  }

  /** Something was queued: look now (when running). */
  kick(): void {
    if (this.#running) this.#schedule(0);
  }

  /** One pass: claims what is due and waits for those attempts to end. For tests and hosts driving it by hand. */
  async runDue(): Promise<number> {
    const started = await this.#pass();
    await Promise.all(this.#inFlight);
    return started;
  }

  #schedule(ms: number): void {
    const at = this.#options.clock.now().getTime() + ms;
    if (this.#timer !== null && this.#timerAt <= at) return;
    this.#clearTimer();
    this.#timerAt = at;
    this.#timer = this.#options.timers.setTimeout(() => {
      this.#timer = null;
      this.#timerAt = Infinity;
      if (this.#running) void this.#pass().then(() => this.#nextWait()).then((wait) => { if (this.#running) this.#schedule(wait); });
    }, ms);
  }

  /** Until the next look: the poll interval, or less when a delivery (or a lease) comes due sooner. */
  async #nextWait(): Promise<number> {
    const { storage, clock, pollMs } = this.#options;
    try {
      const now = clock.now().getTime();
      const [byDue, byLease] = await Promise.all(['due', 'lease_until'].map((field) => deliveriesIn(storage).list({
        where: [{ field: 'state', op: 'eq', value: 'pending' }, { field, op: 'gt', value: now }], orderBy: [{ field, direction: 'asc' }], limit: 1,
      })));
      const next = Math.min(...[...byDue!.items, ...byLease!.items].map((delivery) => Math.max(delivery.due, delivery.lease_until)));
      return Math.max(0, Math.min(pollMs, next - now));
    } catch (error) {
      this.#options.onError(error);
      return pollMs;
    }
  }

  #clearTimer(): void {
    if (this.#timer !== null) this.#options.timers.clearTimeout(this.#timer);
    this.#timer = null;
    this.#timerAt = Infinity;
  }

  /** Claims and starts due attempts; one pass at a time (a pass asked for meanwhile runs right after). */
  #pass(): Promise<number> {
    if (this.#passing) {
      this.#again = true;
      return this.#passing.then(() => 0);
    }
    let started = 0;
    const pass = (async () => {
      do {
        this.#again = false;
        try {
          started += await this.#claimAndStart();
          await this.#pruneWhenDue();
        } catch (error) {
          this.#options.onError(error);
        }
      } while (this.#again);
    })();
    this.#passing = pass.finally(() => { this.#passing = null; });
    return this.#passing.then(() => started);
  }

  #claimable(now: number): Condition[] {
    const mine: Condition[] = [{ field: 'subscription', op: 'gt', value: 0 }];
    if (this.#options.fixedTargets.length > 0) {
      mine.push({ op: 'and', conditions: [{ field: 'subscription', op: 'eq', value: 0 }, { field: 'target', op: 'in', values: [...this.#options.fixedTargets] }] });
    }
    return [
      { field: 'state', op: 'eq', value: 'pending' },
      { field: 'due', op: 'lte', value: now },
      { field: 'lease_until', op: 'lte', value: now },
      { op: 'or', conditions: mine },
    ];
  }

  async #claimAndStart(): Promise<number> {
    const { storage, clock, concurrency, timeoutMs } = this.#options;
    const free = concurrency - this.#inFlight.size;
    if (free <= 0) return 0;
    const query = { where: this.#claimable(clock.now().getTime()), orderBy: [{ field: 'due', direction: 'asc' as const }], limit: free };
    // A read first: a pass that finds nothing takes no write lock.
    if ((await deliveriesIn(storage).list({ ...query, limit: 1 })).items.length === 0) return 0;
    const claimed = await storage.transaction(async (tx) => {
      const now = clock.now().getTime();
      const { items } = await deliveriesIn(tx).list({ ...query, where: this.#claimable(now) });
      const taken: DeliveryRecord[] = [];
      for (const delivery of items) {
        const leased = await deliveriesIn(tx).update(delivery.id, {
          lease_until: now + timeoutMs + LEASE_MARGIN_MS, lease_owner: this.#owner, attempts: delivery.attempts + 1,
        });
        if (leased) taken.push(leased);
      }
      return taken;
    });
    for (const delivery of claimed) {
      const attempt = this.#attempt(delivery).catch((error: unknown) => this.#options.onError(error));
      this.#inFlight.add(attempt);
      void attempt.finally(() => {
        this.#inFlight.delete(attempt);
        this.kick();
      });
    }
    if (claimed.length === free) this.#again = true;
    return claimed.length;
  }

  async #attempt(delivery: DeliveryRecord): Promise<void> {
    const { storage, clock, retry, timeoutMs } = this.#options;
    const target = await this.#targetOf(delivery);
    const payload = delivery.payload ?? await this.#options.payloadOf(delivery);
    let patch: Partial<DeliveryRecord>;
    if (target === null) {
      const now = clock.now().getTime();
      patch = { state: 'failed', finished: now, lease_until: 0, lease_owner: null, last_error: 'The subscription is gone or inactive.', response_status: null };
    } else {
      const outcome = await sendDelivery(this.#options.clientFor(target.url), { ...delivery, target: target.url }, payload, target.secret, Math.floor(clock.now().getTime() / 1000), timeoutMs);
      patch = afterAttempt(delivery, outcome, clock.now().getTime(), retry);
    }
    await storage.transaction(async (tx) => {
      const current = await deliveriesIn(tx).get(delivery.id);
      // A lease that ran out meanwhile belongs to whoever claimed the row after: their outcome counts.
      if (!current || current.lease_owner !== this.#owner || current.attempts !== delivery.attempts) return;
      await deliveriesIn(tx).update(delivery.id, { ...patch, payload });
    });
  }

  /** Where and with which key: a stored subscription's current URL and secret, or the fixed target's. */
  async #targetOf(delivery: DeliveryRecord): Promise<{ url: string; secret: string } | null> {
    const { fixedTargets, fixedSecret } = this.#options;
    if (delivery.subscription === 0) return fixedTargets.includes(delivery.target) && fixedSecret !== null ? { url: delivery.target, secret: fixedSecret } : null;
    const subscription = await subscriptionsIn(this.#options.storage).get(delivery.subscription);
    return subscription?.active ? { url: subscription.url, secret: subscription.secret } : null;
  }

  /** Bounds the outbox: expired pending rows fail, and each subscription keeps its latest finished rows only. */
  async #pruneWhenDue(): Promise<void> {
    const { storage, clock, keepPerSubscription } = this.#options;
    const now = clock.now().getTime();
    if (now - this.#prunedAt < PRUNE_EVERY_MS) return;
    this.#prunedAt = now;
    const expired = await deliveriesIn(storage).list({
      where: [{ field: 'state', op: 'eq', value: 'pending' }, { field: 'expires', op: 'lt', value: now }, { field: 'lease_until', op: 'lte', value: now }],
      limit: 500,
    });
    const finished: DeliveryRecord[] = [];
    const { items: subscriptions } = await subscriptionsIn(storage).list();
    for (const id of [0, ...subscriptions.map((subscription) => subscription.id)]) {
      const { items } = await deliveriesIn(storage).list({
        where: [{ field: 'subscription', op: 'eq', value: id }, { field: 'state', op: 'in', values: ['delivered', 'failed'] }],
        orderBy: [{ field: 'finished', direction: 'desc' }], offset: keepPerSubscription, limit: 500,
      });
      finished.push(...items);
    }
    if (expired.items.length === 0 && finished.length === 0) return;
    await storage.transaction(async (tx) => {
      for (const delivery of expired.items) {
        await deliveriesIn(tx).update(delivery.id, { state: 'failed', finished: now, last_error: delivery.last_error ?? 'Not delivered within the retry window.' });
      }
      for (const delivery of finished) await deliveriesIn(tx).remove(delivery.id);
    });
  }
}
