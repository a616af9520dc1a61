import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { createLoginThrottle, createRateLimiter, createThrottles } from '../../src/auth/index.js';
import type { ThrottleStore } from '../../src/ports/throttle.js';
import { createMemoryStorage } from '../../src/storage/memory/index.js';
import { postgresStorage } from '../../src/storage/postgres/index.js';
import { createMemoryThrottleStore, createStoredThrottleStore } from '../../src/storage/throttle/index.js';
import { postgresForTests } from '../storage/postgres-setup.js';

const SECOND = 1000;
const T0 = Date.UTC(2026, 0, 1);

function loginThrottleChecks(name: string, makeStore: () => Promise<ThrottleStore>) {
  describe(`login throttle (${name})`, () => {
    it('allows the free failures, then refuses for growing delays, and forgets after the window', async () => {
      const throttle = createLoginThrottle(await makeStore(), { perClientAndLogin: { limit: 3, delayMs: SECOND, maxDelayMs: 4 * SECOND, windowMs: 60 * SECOND } });
      for (let attempt = 0; attempt < 3; attempt += 1) {
        assert.equal(await throttle.wait('203.0.113.9', 'ana', T0), 0);
        await throttle.failed('203.0.113.9', 'ana', T0);
      }
      assert.equal(await throttle.wait('203.0.113.9', 'ana', T0), 0, 'three failures are free');
      await throttle.failed('203.0.113.9', 'ana', T0);
      assert.equal(await throttle.wait('203.0.113.9', 'ANA', T0), SECOND, 'the fourth refuses for the first delay, whatever the case');
      await throttle.failed('203.0.113.9', 'ana', T0 + SECOND);
      assert.equal(await throttle.wait('203.0.113.9', 'ana', T0 + SECOND), 2 * SECOND, 'then doubles');
      await throttle.failed('203.0.113.9', 'ana', T0 + 3 * SECOND);
      await throttle.failed('203.0.113.9', 'ana', T0 + 3 * SECOND);
      assert.equal(await throttle.wait('203.0.113.9', 'ana', T0 + 3 * SECOND), 4 * SECOND, 'up to the most');
      assert.equal(await throttle.wait('198.51.100.4', 'ana', T0 + 3 * SECOND), 0, 'another address is not refused for this pair');
      assert.equal(await throttle.wait('203.0.113.9', 'bo', T0 + 3 * SECOND), 0, 'another login from this address is not either');
      assert.equal(await throttle.wait('203.0.113.9', 'ana', T0 + 200 * SECOND), 0, 'the counter is forgotten after the window');
    });

    it('throttles one login from many addresses, but not an address that logged in as it before', async () => {
      const throttle = createLoginThrottle(await makeStore(), { perLogin: { limit: 4, delayMs: 10 * SECOND, maxDelayMs: 10 * SECOND, windowMs: 60 * SECOND } });
      await throttle.succeeded('198.51.100.4', 'ana', T0);
      for (let attempt = 0; attempt < 5; attempt += 1) await throttle.failed(`203.0.113.${attempt}`, 'ana', T0);
      assert.equal(await throttle.wait('203.0.113.200', 'ana', T0), 10 * SECOND, 'a new address is refused for the login');
      assert.equal(await throttle.wait('198.51.100.4', 'ana', T0), 0, 'the owner\'s known address is not');
      assert.equal(await throttle.wait(undefined, 'ana', T0), 10 * SECOND, 'an unknown address is throttled by login');
    });

    it('throttles one address trying many logins, and counts unreadable headers against it', async () => {
      const throttle = createLoginThrottle(await makeStore(), { perClient: { limit: 3, delayMs: 5 * SECOND, maxDelayMs: 5 * SECOND, windowMs: 60 * SECOND } });
      await throttle.failed('203.0.113.9', null, T0);
      for (const login of ['a', 'b', 'c']) await throttle.failed('203.0.113.9', login, T0);
      assert.equal(await throttle.wait('203.0.113.9', 'zed', T0), 5 * SECOND);
      assert.equal(await throttle.wait('198.51.100.4', 'zed', T0), 0);
    });

    it('a success clears the pair, but not while it is refusing', async () => {
      const throttle = createLoginThrottle(await makeStore(), { perClientAndLogin: { limit: 2, delayMs: SECOND, maxDelayMs: SECOND, windowMs: 60 * SECOND } });
      await throttle.failed('203.0.113.9', 'ana', T0);
      await throttle.failed('203.0.113.9', 'ana', T0);
      await throttle.succeeded('203.0.113.9', 'ana', T0);
      await throttle.failed('203.0.113.9', 'ana', T0);
      await throttle.failed('203.0.113.9', 'ana', T0);
      assert.equal(await throttle.wait('203.0.113.9', 'ana', T0), 0, 'the success started the count again');
    });
    it('reserves a failure in the same step as the check: of simultaneous attempts, only the free ones get through', async () => {
      const throttle = createLoginThrottle(await makeStore(), { perClientAndLogin: { limit: 5, delayMs: SECOND, maxDelayMs: SECOND, windowMs: 60 * SECOND } });
      const reservations = await Promise.all(Array.from({ length: 40 }, () => throttle.reserve('203.0.113.9', 'ana', T0)));
      const through = reservations.filter((reservation) => reservation.refusedFor === 0).length;
      assert.equal(through, 6, 'the five free failures and the one that starts the first delay');
      assert.ok(reservations.every((reservation) => reservation.refusedFor === 0 || reservation.refusedFor === SECOND));
      assert.equal(await throttle.wait('203.0.113.9', 'ana', T0), SECOND);
      assert.equal(await throttle.wait('203.0.113.9', 'bo', T0), 0, 'refused attempts were not counted against the client');
    });

    it('gives a reserved failure back when the attempt succeeds', async () => {
      const throttle = createLoginThrottle(await makeStore(), {
        perClientAndLogin: { limit: 1, delayMs: SECOND, maxDelayMs: SECOND, windowMs: 60 * SECOND },
        perClient: { limit: 2, delayMs: SECOND, maxDelayMs: SECOND, windowMs: 60 * SECOND },
      });
      for (let login = 0; login < 5; login += 1) {
        const reservation = await throttle.reserve('203.0.113.9', `user${login}`, T0);
        assert.equal(reservation.refusedFor, 0, `login ${login}`);
        await reservation.succeeded(T0);
      }
      assert.equal(await throttle.wait('203.0.113.9', 'other', T0), 0, 'five successes count nothing against the client');
      const first = await throttle.reserve('203.0.113.9', 'ana', T0);
      const second = await throttle.reserve('203.0.113.9', 'ana', T0);
      assert.equal(second.refusedFor, 0, 'the second failure starts the delay');
      await second.succeeded(T0);
      assert.equal(await throttle.wait('203.0.113.9', 'ana', T0), 0, 'the success took back the delay its own reservation started');
      await first.succeeded(T0);
      assert.equal((await throttle.reserve('203.0.113.9', null, T0)).refusedFor, 0, 'unreadable headers count against the client');
    });

    it('counts one user\'s login and email together, and unknown names apart', async () => {
      const throttle = createLoginThrottle(await makeStore(), { perClientAndLogin: { limit: 2, delayMs: SECOND, maxDelayMs: SECOND, windowMs: 60 * SECOND } });
      for (let failure = 0; failure < 3; failure += 1) await throttle.reserve('203.0.113.9', { userId: 7 }, T0);
      assert.equal(await throttle.wait('203.0.113.9', { userId: 7 }, T0), SECOND);
      assert.equal(await throttle.wait('203.0.113.9', { userId: 8 }, T0), 0);
      for (let failure = 0; failure < 3; failure += 1) await throttle.reserve('203.0.113.9', { name: 'Ghost' }, T0);
      assert.equal(await throttle.wait('203.0.113.9', { name: 'GHOST' }, T0), SECOND, 'names compare without case');
      assert.equal(await throttle.wait('203.0.113.9', { name: 'ghost@example.test' }, T0), 0);
      assert.equal(await throttle.wait('203.0.113.9', { name: '7' }, T0), 0, 'a name is never taken for a user id');
    });
  });

  describe(`rate limiter (${name})`, () => {
    it('allows the limit per window per client, answers the rest of the window, and does not count refusals', async () => {
      const take = createRateLimiter(await makeStore(), 'comments', { limit: 2, windowMs: 60 * SECOND });
      assert.equal(await take('203.0.113.9', T0), 0);
      assert.equal(await take('203.0.113.9', T0 + SECOND), 0);
      assert.equal(await take('203.0.113.9', T0 + 10 * SECOND), 50 * SECOND);
      assert.equal(await take('203.0.113.9', T0 + 20 * SECOND), 40 * SECOND);
      assert.equal(await take('198.51.100.4', T0 + 20 * SECOND), 0, 'another client has its own window');
      assert.equal(await take(undefined, T0), 0, 'unknown clients are not limited');
      assert.equal(await take('203.0.113.9', T0 + 60 * SECOND), 0, 'a new window');
    });
  });
}

loginThrottleChecks('memory', async () => createMemoryThrottleStore());
loginThrottleChecks('stored, memory storage', async () => createStoredThrottleStore(createMemoryStorage()));

describe('throttle options', () => {
  it('refuses rules that are not whole numbers', () => {
    const store = createMemoryThrottleStore();
    assert.throws(() => createThrottles(store, { comments: { limit: -1 } }), /comments\.limit/);
    assert.throws(() => createThrottles(store, { login: { perLogin: { delayMs: 0 } } }), /perLogin\.delayMs/);
    assert.throws(() => createThrottles(store, { signups: { windowMs: 1.5 } }), /signups\.windowMs/);
  });

  it('the memory store keeps a bounded number of counters', async () => {
    const store = createMemoryThrottleStore({ maxCounters: 10 });
    for (let index = 0; index < 50; index += 1) await store.update(`k${index}`, T0, () => ({ count: 1, blockedUntil: 0, expiresAt: T0 + SECOND }));
    assert.equal(await store.get('k0', T0), null);
    assert.deepEqual(await store.get('k49', T0), { count: 1, blockedUntil: 0, expiresAt: T0 + SECOND });
  });
});

const postgres = await postgresForTests('throttle counters on PostgreSQL', { schemaPrefix: 'quire_throttle', poolSize: 10 });
if (postgres) {
  const { server, pool, freshSchema } = postgres;
  const schema = freshSchema();
  loginThrottleChecks('stored, PostgreSQL', async () => createStoredThrottleStore(await postgresStorage({ pool, schema: freshSchema() })));

  it('processes sharing one PostgreSQL schema share counters, and concurrent failures are all counted', async () => {
    // Two stores over separate pools stand for two processes.
    const otherPool = new pg.Pool({ connectionString: server.connectionString, max: 10 });
    try {
      const first = createStoredThrottleStore(await postgresStorage({ pool, schema }));
      const second = createStoredThrottleStore(await postgresStorage({ pool: otherPool, schema }));
      const loose = { limit: 1000, delayMs: SECOND, maxDelayMs: SECOND, windowMs: 60 * SECOND };
      const rules = (limit: number) => ({ perClientAndLogin: { ...loose, limit }, perLogin: loose, perClient: loose });
      const [one, two] = [createLoginThrottle(first, rules(40)), createLoginThrottle(second, rules(40))];
      await Promise.all(Array.from({ length: 40 }, (_, index) => (index % 2 === 0 ? one : two).failed('203.0.113.9', 'ana', T0)));
      assert.equal(await two.wait('203.0.113.9', 'ana', T0), 0, 'forty failures: at the limit, not over it');
      await one.failed('203.0.113.9', 'ana', T0);
      assert.equal(await two.wait('203.0.113.9', 'ana', T0), SECOND, 'the forty-first, counted by the other process, refuses');
      const pairRule = { perClientAndLogin: { limit: 5, delayMs: SECOND, maxDelayMs: SECOND, windowMs: 60 * SECOND } };
      const [three, four] = [createLoginThrottle(first, pairRule), createLoginThrottle(second, pairRule)];
      const reservations = await Promise.all(Array.from({ length: 40 }, (_, index) => (index % 2 === 0 ? three : four).reserve('203.0.113.10', 'bo', T0)));
      assert.equal(reservations.filter((reservation) => reservation.refusedFor === 0).length, 6, 'forty at once from two processes: six let through');
    } finally {
      await otherPool.end();
    }
  });
}
