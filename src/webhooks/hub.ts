/**
 * The webhooks of one site, as `createCms` assembles them: the options checked, the outbox around the store,
 * and the delivery loop, attached once the site can answer the requests that render an event's resource.
 */
import { resolveSite, type SiteSettings } from '../core/site.js';
import type { Names } from '../core/names.js';
import { isHttpUrl } from '../format/url.js';
import { createSafeHttpClient } from '../media/index.js';
import type { Clock } from '../ports/clock.js';
import type { HttpClient } from '../ports/http-client.js';
import type { StoragePort } from '../ports/storage.js';
import type { WebhookService } from '../services/webhooks.js';
import { checkRetryPolicy, type RetryPolicy } from './attempt.js';
import { DeliveryLoop, systemTimers, type Timers } from './loop.js';
import { withOutbox } from './outbox.js';
import { resourcePath } from './payload.js';
import { privateTargetSet, isTrustedTarget } from './targets.js';
import type { DeliveryRecord } from './records.js';

export interface WebhookOptions {
  /**
   * URLs that receive every event without a stored subscription (`quire serve --webhook`). They are trusted:
   * loopback and private addresses are allowed. Their deliveries are signed with `secret`.
   */
  targets?: readonly string[];
  /** The key the `targets` deliveries are signed with (`QUIRE_WEBHOOK_SECRET`); at least 16 characters. */
  secret?: string;
  /** `host:port` pairs a subscription made through the API may target although they are private (`build.internal:8080`). */
  allowPrivateTargets?: readonly string[];
  /** Retries: backoff base and cap, attempts and the retry window (default 10 s doubling to 1 h, 20 attempts, 24 h). */
  retry?: Partial<RetryPolicy>;
  /** Deadline of one delivery request in milliseconds (default 10 s). */
  timeoutMs?: number;
  /** How often the store is looked at for due deliveries, in milliseconds (default 5 s). */
  pollMs?: number;
  /** Deliveries sent at once by this process (default 8). */
  concurrency?: number;
  /** Finished deliveries kept per subscription (default 100). */
  keepPerSubscription?: number;
  /**
   * Start the delivery loop at once (default: when this process first queues a delivery, or on
   * `cms.webhooks.start()`). A process that should send what others (or a crash) left behind starts it.
   */
  start?: boolean;
  /** The timers the loop waits with (tests pass their own). */
  timers?: Timers;
  /** The client every delivery goes through, instead of the safe client (tests). */
  httpClient?: HttpClient;
}

export interface WebhookSettings {
  readonly fixedTargets: readonly string[];
  readonly fixedSecret: string | null;
  readonly allowedPrivate: ReadonlySet<string>;
  readonly retry: RetryPolicy;
  readonly timeoutMs: number;
  readonly pollMs: number;
  readonly concurrency: number;
  readonly keepPerSubscription: number;
}

export interface AttachOptions {
  storage: StoragePort;
  httpClient: HttpClient;
  site: SiteSettings;
  names: Names;
  /** An anonymous GET of an API path (neutral names), as the site answers it. */
  read(path: string): Promise<{ status: number; body: unknown }>;
  onError?: (error: unknown) => void;
}

function positive(value: number | undefined, fallback: number, name: string, minimum = 1): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < minimum) {
    throw new RangeError(`webhooks.${name} must be a whole number of at least ${minimum}, not ${String(value)}.`);
  }
  return value;
}

export function resolveWebhookSettings(options: WebhookOptions = {}): WebhookSettings {
  const fixedTargets = [...new Set(options.targets ?? [])];
  for (const target of fixedTargets) {
    if (!isHttpUrl(target)) throw new TypeError(`webhooks.targets: '${target}' is not an http or https URL.`);
  }
  if (options.secret !== undefined && (typeof options.secret !== 'string' || options.secret.length < 16)) {
    throw new TypeError('webhooks.secret must be at least 16 characters long.');
  }
  if (fixedTargets.length > 0 && options.secret === undefined) throw new TypeError('webhooks.targets need webhooks.secret, the key their deliveries are signed with.');
  return {
    fixedTargets,
    fixedSecret: options.secret ?? null,
    allowedPrivate: privateTargetSet(options.allowPrivateTargets),
    retry: checkRetryPolicy(options.retry),
    timeoutMs: positive(options.timeoutMs, 10_000, 'timeoutMs'),
    pollMs: positive(options.pollMs, 5_000, 'pollMs'),
    concurrency: positive(options.concurrency, 8, 'concurrency'),
    keepPerSubscription: positive(options.keepPerSubscription, 100, 'keepPerSubscription', 0),
  };
}

export class WebhookHub implements WebhookService {
  readonly settings: WebhookSettings;
  readonly #options: WebhookOptions;
  readonly #clock: Clock;
  #loop: DeliveryLoop | null = null;
  #startWhenAttached: boolean;

  constructor(options: WebhookOptions | undefined, clock: Clock) {
    this.#options = options ?? {};
    this.settings = resolveWebhookSettings(options);
    this.#clock = clock;
    this.#startWhenAttached = this.#options.start === true;
  }

  /** The store as resources see it: every watched write queues its deliveries in its own transaction. */
  outbox(storage: StoragePort): StoragePort {
    return withOutbox(storage, {
      clock: this.#clock,
      fixedTargets: this.settings.fixedTargets,
      maxAgeMs: this.settings.retry.maxAgeMs,
      onQueued: () => this.start(),
    });
  }

  attach(options: AttachOptions): void {
    const { settings } = this;
    const trusted = this.#options.httpClient ?? createSafeHttpClient({ allow: ['0.0.0.0/0', '::/0'], timeoutMs: settings.timeoutMs, maxRedirects: 0 });
    const outbound = this.#options.httpClient ?? options.httpClient;
    const site = resolveSite(options.site, undefined, options.names);
    this.#loop = new DeliveryLoop({
      storage: options.storage,
      clock: this.#clock,
      timers: this.#options.timers ?? systemTimers,
      retry: settings.retry,
      pollMs: settings.pollMs,
      timeoutMs: settings.timeoutMs,
      concurrency: settings.concurrency,
      keepPerSubscription: settings.keepPerSubscription,
      fixedTargets: settings.fixedTargets,
      fixedSecret: settings.fixedSecret,
      clientFor: (target) => (isTrustedTarget(target, settings.allowedPrivate, settings.fixedTargets) ? trusted : outbound),
      payloadOf: async (delivery: DeliveryRecord) => {
        const path = resourcePath(delivery.subject);
        const answer = await options.read(path);
        const resource = answer.status === 200 && answer.body !== null && typeof answer.body === 'object'
          ? answer.body
          : { ...delivery.subject, _links: { self: [{ href: site.apiLink(path) }] } };
        return JSON.stringify({ id: delivery.event_id, event: delivery.event, time: new Date(delivery.occurred).toISOString(), resource });
      },
      onError: options.onError ?? (() => {}),
    });
    if (this.#startWhenAttached) this.#loop.start();
  }

  /** Starts the delivery loop (idempotent). */
  start(): void {
    if (!this.#loop) {
      this.#startWhenAttached = true;
      return;
    }
    if (this.#loop.running) this.#loop.kick();
    else this.#loop.start();
  }

  async stop(): Promise<void> {
    this.#startWhenAttached = false;
    await this.#loop?.stop();
  }

  /** One pass of the loop, waiting for its attempts: what is due now is tried once. */
  async runDue(): Promise<number> {
    return this.#loop ? this.#loop.runDue() : 0;
  }
}
