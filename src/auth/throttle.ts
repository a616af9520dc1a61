/**
 * Throttles: failed logins per client address, per login and per pair of both, with growing delays, and plain
 * per-client rate limits for sign-ups, comments and form feedback. Counters live behind the throttle port (in
 * memory by default, or in a store several processes share); what is counted and when it refuses is decided here.
 * A refusal is a 429 with `Retry-After`.
 */
import { createHash } from 'node:crypto';
import { CmsError } from '../core/errors.js';
import type { ThrottleCounter, ThrottleStore } from '../ports/throttle.js';

/** Failures allowed before refusals start, and how refusals grow. Times in milliseconds. */
export interface FailureRule {
  /** Failures allowed within the window; each failure past them refuses for a while. */
  limit: number;
  /** The first refusal's length; each further failure doubles it, up to `maxDelayMs`. */
  delayMs: number;
  maxDelayMs: number;
  /** The counter is forgotten this long after its last failure (or after its refusal ends, if later). */
  windowMs: number;
}

/** Events allowed per client in a fixed window: `limit` per `windowMs`. */
export interface RateRule {
  limit: number;
  windowMs: number;
}

export interface LoginThrottleOptions {
  /** One client address trying one login: the tightest, as it touches nobody else (default 5, 1 s doubling to 15 min, 1 h). */
  perClientAndLogin?: Partial<FailureRule>;
  /**
   * One login from any address (a spread-out attack on one account): looser and shorter, so the owner is never
   * refused for long, and not applied to an address that logged in as that login within `knownClientMs`
   * (default 20, 1 s doubling to 1 min, 15 min).
   */
  perLogin?: Partial<FailureRule>;
  /** One client address trying any logins (default 30, 1 s doubling to 15 min, 1 h). */
  perClient?: Partial<FailureRule>;
  /** How long a successful login exempts its address from `perLogin` (default 30 days). */
  knownClientMs?: number;
}

export interface ThrottleOptions {
  /** Where counters live; default: this process's memory. `createStoredThrottleStore(storage)` shares them. */
  store?: ThrottleStore;
  /** Failed HTTP Basic logins; `false` turns the login throttle off. */
  login?: LoginThrottleOptions | false;
  /** Comments created per client address (default 10 per 10 minutes; moderators are not counted). */
  comments?: Partial<RateRule> | false;
  /** Mailing-list sign-ups per client address (default 10 per hour). */
  signups?: Partial<RateRule> | false;
  /** Contact-form feedback per client address (default 10 per 10 minutes). */
  feedback?: Partial<RateRule> | false;
}

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

export const DEFAULT_LOGIN_RULES: Readonly<{ perClientAndLogin: FailureRule; perLogin: FailureRule; perClient: FailureRule }> = Object.freeze({
  perClientAndLogin: { limit: 5, delayMs: SECOND, maxDelayMs: 15 * MINUTE, windowMs: HOUR },
  perLogin: { limit: 20, delayMs: SECOND, maxDelayMs: MINUTE, windowMs: 15 * MINUTE },
  perClient: { limit: 30, delayMs: SECOND, maxDelayMs: 15 * MINUTE, windowMs: HOUR },
});
export const DEFAULT_KNOWN_CLIENT_MS = 30 * 24 * HOUR;
export const DEFAULT_RATE_RULES: Readonly<{ comments: RateRule; signups: RateRule; feedback: RateRule }> = Object.freeze({
  comments: { limit: 10, windowMs: 10 * MINUTE },
  signups: { limit: 10, windowMs: HOUR },
  feedback: { limit: 10, windowMs: 10 * MINUTE },
});

/** The 429 answer: `Retry-After` in whole seconds (at least 1). */
export function throttledError(code: string, message: string, retryAfterMs: number): CmsError {
  const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
  const error = new CmsError(code, message, 429);
  error.headers['Retry-After'] = String(seconds);
  return error;
}

/** A counter key: the kind in clear, the parts (client-sent text) as a short digest so keys stay small. */
function keyOf(kind: string, ...parts: string[]): string {
  return `${kind}:${createHash('sha256').update(parts.join('\u0000')).digest('base64url').slice(0, 22)}`;
}

function checkedRule<T extends object>(name: string, defaults: T, given: Partial<T> | undefined): T {
  const rule = { ...defaults, ...given };
  for (const [field, value] of Object.entries(rule)) {
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < (field === 'limit' ? 0 : 1)) {
      throw new RangeError(`throttle.${name}.${field} must be a whole number${field === 'limit' ? '' : ' above 0'}, not ${String(value)}`);
    }
  }
  return rule;
}

/** How long a counter refuses from `now`: 0 when it does not. */
const waitOf = (counter: ThrottleCounter | null, now: number): number => (counter === null ? 0 : Math.max(0, counter.blockedUntil - now));

function addFailure(rule: FailureRule, now: number) {
  return (current: ThrottleCounter | null): ThrottleCounter => {
    const count = (current?.count ?? 0) + 1;
    const over = count - rule.limit;
    const blockedUntil = over > 0 ? now + Math.min(rule.maxDelayMs, rule.delayMs * 2 ** Math.min(over - 1, 40)) : current?.blockedUntil ?? 0;
    return { count, blockedUntil, expiresAt: Math.max(now + rule.windowMs, blockedUntil) };
  };
}

/** What a login's counters are kept under: the user's id when the name (login or email) found one, else the name. */
export type LoginSubject = { userId: number } | { name: string };

/** The counter part for a subject: one user's login and email count together; unknown names apart, without case. */
function subjectOf(login: LoginSubject | string): string {
  if (typeof login === 'string') return `name:${login.toLowerCase()}`;
  return 'userId' in login ? `user:${login.userId}` : `name:${login.name.toLowerCase()}`;
}

/** The attempt a reservation let through, or how long it was refused for. */
export interface LoginReservation {
  /** Milliseconds to wait: above 0 when refused (nothing was counted), 0 when a failure was counted ahead. */
  refusedFor: number;
  /** The attempt succeeded: gives back the failure counted ahead, clears the pair's failures, remembers the client. */
  succeeded(now: number): Promise<void>;
}

export interface LoginThrottle {
  /** Milliseconds until this client may try this login again; 0 when it may now. Reads only. */
  wait(client: string | undefined, login: LoginSubject | string, now: number): Promise<number>;
  /**
   * Checks and counts in one step, before any password work: refuses while a counter says so, and otherwise
   * counts the attempt as a failure at once, so simultaneous attempts beyond the free ones are refused rather
   * than all let through. A success gives the failure back (`succeeded`). `login` null: an unreadable header,
   * counted against the client only.
   */
  reserve(client: string | undefined, login: LoginSubject | string | null, now: number): Promise<LoginReservation>;
  /** Counts a failed attempt (`login` null: an unreadable header, counted against the client only). */
  failed(client: string | undefined, login: LoginSubject | string | null, now: number): Promise<void>;
  /** Clears the pair's failures and remembers the client as one that logs in as this login. */
  succeeded(client: string | undefined, login: LoginSubject | string, now: number): Promise<void>;
}

/** Takes back one counted failure, and the refusal it started unless a later failure has moved it since. */
function giveBack(taken: ThrottleCounter, before: ThrottleCounter | null, now: number) {
  return (current: ThrottleCounter | null): ThrottleCounter | null => {
    if (current === null) return null;
    const count = Math.max(0, current.count - 1);
    const blockedUntil = current.blockedUntil === taken.blockedUntil ? before?.blockedUntil ?? 0 : current.blockedUntil;
    return count === 0 && blockedUntil <= now ? null : { count, blockedUntil, expiresAt: current.expiresAt };
  };
}

/**
 * The login throttle. A client whose address is unknown (an adapter that could not tell it) is throttled by
 * login only. Logins compare without case, as lookups do.
 */
export function createLoginThrottle(store: ThrottleStore, options: LoginThrottleOptions = {}): LoginThrottle {
  const pair = checkedRule('login.perClientAndLogin', DEFAULT_LOGIN_RULES.perClientAndLogin, options.perClientAndLogin);
  const perLogin = checkedRule('login.perLogin', DEFAULT_LOGIN_RULES.perLogin, options.perLogin);
  const perClient = checkedRule('login.perClient', DEFAULT_LOGIN_RULES.perClient, options.perClient);
  const knownMs = options.knownClientMs ?? DEFAULT_KNOWN_CLIENT_MS;
  /** The counters an attempt counts against, tightest first, with their rules. */
  async function countersOf(client: string | undefined, login: LoginSubject | string | null, now: number): Promise<[string, FailureRule][]> {
    const subject = login === null ? null : subjectOf(login);
    const counters: [string, FailureRule][] = [];
    if (client !== undefined && subject !== null) counters.push([keyOf('pair', client, subject), pair]);
    if (client !== undefined) counters.push([keyOf('client', client), perClient]);
    if (subject !== null && (client === undefined || (await store.get(keyOf('known', client, subject), now)) === null)) {
      counters.push([keyOf('login', subject), perLogin]);
    }
    return counters;
  }
  async function succeeded(client: string | undefined, login: LoginSubject | string, now: number): Promise<void> {
    if (client === undefined) return;
    const subject = subjectOf(login);
    await Promise.all([
      store.update(keyOf('pair', client, subject), now, (current) => (current === null || waitOf(current, now) > 0 ? current : null)),
      store.update(keyOf('known', client, subject), now, () => ({ count: 1, blockedUntil: 0, expiresAt: now + knownMs })),
    ]);
  }
  return {
    async wait(client, login, now) {
      const counters = await countersOf(client, login, now);
      const read = await Promise.all(counters.map(([key]) => store.get(key, now)));
      return Math.max(0, ...read.map((counter) => waitOf(counter, now)));
    },
    async reserve(client, login, now) {
      const counters = await countersOf(client, login, now);
      // Reads first, so the refusals of a flood cost no writes.
      const read = await Promise.all(counters.map(([key]) => store.get(key, now)));
      let refusedFor = Math.max(0, ...read.map((counter) => waitOf(counter, now)));
      const taken: { key: string; before: ThrottleCounter | null; after: ThrottleCounter }[] = [];
      const giveAllBack = (at: number) => Promise.all(taken.map(({ key, before, after }) => store.update(key, at, giveBack(after, before, at))));
      for (const [key, rule] of refusedFor > 0 ? [] : counters) {
        const seen: { before: ThrottleCounter | null } = { before: null };
        const after = await store.update(key, now, (current) => {
          seen.before = current === null ? null : { ...current };
          const wait = waitOf(current, now);
          if (wait > 0) {
            refusedFor = wait;
            return current;
          }
          return addFailure(rule, now)(current);
        });
        if (refusedFor > 0) break;
        taken.push({ key, before: seen.before, after: after! });
      }
      if (refusedFor > 0) await giveAllBack(now);
      return {
        refusedFor,
        async succeeded(at) {
          if (refusedFor > 0 || login === null) return;
          await giveAllBack(at);
          await succeeded(client, login, at);
        },
      };
    },
    async failed(client, login, now) {
      const counters = await countersOf(client, login, now);
      await Promise.all(counters.map(([key, rule]) => store.update(key, now, addFailure(rule, now))));
    },
    succeeded,
  };
}

/**
 * Takes one event for `client` under a fixed-window rule, or answers how long until the window ends when the
 * limit is reached (refused events are not counted). Unknown clients are not limited: with no address to tell
 * them apart, a limit would be one for everybody.
 */
export type RateLimiter = (client: string | undefined, now: number) => Promise<number>;

export function createRateLimiter(store: ThrottleStore, kind: string, rule: RateRule): RateLimiter {
  return async (client, now) => {
    if (client === undefined || rule.limit === 0) return 0;
    let refusedFor = 0;
    await store.update(keyOf(kind, client), now, (current) => {
      if (current === null) return { count: 1, blockedUntil: 0, expiresAt: now + rule.windowMs };
      if (current.count >= rule.limit) {
        refusedFor = current.expiresAt - now;
        return current;
      }
      return { ...current, count: current.count + 1 };
    });
    return refusedFor;
  };
}

/** The throttles every resource shares: null where an option turned one off. */
export interface Throttles {
  readonly login: LoginThrottle | null;
  readonly comments: RateLimiter | null;
  readonly signups: RateLimiter | null;
  readonly feedback: RateLimiter | null;
}

export function createThrottles(store: ThrottleStore, options: Omit<ThrottleOptions, 'store'> = {}): Throttles {
  const rate = (kind: 'comments' | 'signups' | 'feedback') => {
    const given = options[kind];
    return given === false ? null : createRateLimiter(store, kind, checkedRule(kind, DEFAULT_RATE_RULES[kind], given));
  };
  return Object.freeze({
    login: options.login === false ? null : createLoginThrottle(store, options.login),
    comments: rate('comments'),
    signups: rate('signups'),
    feedback: rate('feedback'),
  });
}

/** Throttles that never refuse, for in-process use without a site (and tests of other things). */
export const NO_THROTTLES: Throttles = Object.freeze({ login: null, comments: null, signups: null, feedback: null });

/** Takes one event from `limiter` (none: no limit), or throws the 429 `rest_too_many_requests` with `message`. */
export async function takeOrRefuse(limiter: RateLimiter | null | undefined, client: string | undefined, now: number, message: string): Promise<void> {
  if (!limiter) return;
  const wait = await limiter(client, now);
  if (wait > 0) throw throttledError('rest_too_many_requests', message, wait);
}
