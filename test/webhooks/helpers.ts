import { createHmac } from 'node:crypto';
import { createCms, type CmsOptions } from '../../src/cms.js';
import { fixedClock } from '../../src/ports/clock.js';
import { send } from '../helpers/request.js';
import type { Received, Receiver } from './receiver.js';

export const NOW = '2026-11-21T17:11:35Z';

/** Timers that never fire: the tests drive the delivery loop with `cms.webhooks.runDue()`. */
export const MANUAL_TIMERS = { setTimeout: () => 0, clearTimeout: () => {} };

/** A site whose webhooks may reach the receiver, with a fixed clock and an administrator. */
export async function makeSite(receiver: Receiver, options: Partial<CmsOptions> = {}) {
  const clock = fixedClock(NOW);
  const cms = createCms({
    clock,
    ...options,
    site: { url: 'http://example.test' },
    webhooks: { allowPrivateTargets: [`127.0.0.1:${receiver.port}`], timers: MANUAL_TIMERS, retry: { baseDelayMs: 1000, maxDelayMs: 60_000 }, ...options.webhooks },
  });
  const admin = await cms.users.create({ login: 'admin', email: 'admin@example.test', roles: ['administrator'] });
  const author = await cms.users.create({ login: 'author', email: 'author@example.test', roles: ['author'] });
  const as = (id: number | null) => (method: string, path: string, init: Parameters<typeof send>[3] = {}) =>
    send(cms, method, path, id === null ? init : { ...init, user: { id } });
  return { cms, clock, admin: as(admin.id), author: as(author.id), anonymous: as(null) };
}

/** Checks a delivery's signature the way a receiver would. */
export function verifies(delivery: Received, secret: string): boolean {
  const header = String(delivery.headers['x-quire-signature'] ?? '');
  const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header);
  if (!match) return false;
  const expected = createHmac('sha256', secret).update(`${match[1]}.${delivery.body}`).digest('hex');
  return expected === match[2];
}

export function events(receiver: Receiver): string[] {
  return receiver.received.map((delivery) => delivery.json.event);
}
