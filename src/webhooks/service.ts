/**
 * Subscriptions and their delivery log, shared by the routes and the in-process API. Input arrives checked by
 * the routes' argument definitions (`args.ts`).
 */
import type { Params } from '../core/args/define.js';
import { CmsError } from '../core/errors.js';
import type { Clock } from '../ports/clock.js';
import type { StoragePort } from '../ports/storage.js';
import type { subscriptionWriteArgs } from './args.js';
import type { EventSubject } from './events.js';
import { deliveriesIn, subscriptionsIn, type DeliveryRecord, type DeliveryState, type SubscriptionRecord } from './records.js';
import { newSecret } from './signature.js';

/** A subscription as answered: everything but its secret. */
export interface WebhookSubscription {
  id: number;
  url: string;
  events: string[];
  active: boolean;
  description: string;
  created: string;
  modified: string;
}

export interface WebhookDelivery {
  id: number;
  subscription: number;
  event_id: string;
  event: string;
  resource: EventSubject;
  state: DeliveryState;
  attempts: number;
  occurred: string;
  next_attempt: string | null;
  finished: string | null;
  response_status: number | null;
  last_error: string | null;
}

/** A subscription write, checked by `subscriptionWriteArgs()`: the sanitised values and whether each was sent. */
export interface SubscriptionInput {
  readonly params: Params<typeof subscriptionWriteArgs>;
  has(name: string): boolean;
}

/** The records of a list page: where it starts and how many it holds. */
export interface ListWindow {
  readonly offset: number;
  readonly perPage: number;
}

export function subscriptionNotFound(): CmsError {
  return new CmsError('webhooks_subscription_not_found', 'The requested webhook subscription was not found.', 404);
}

export function deliveryNotFound(): CmsError {
  return new CmsError('webhooks_delivery_not_found', 'The requested webhook delivery was not found.', 404);
}

/** Every write queues one row per subscription in its own transaction: their number is bounded. */
export const MAX_SUBSCRIPTIONS = 100;

const iso = (milliseconds: number) => new Date(milliseconds).toISOString();

export function toSubscription(record: SubscriptionRecord): WebhookSubscription {
  const { id, url, events, active, description, created, modified } = record;
  return { id, url, events: [...events], active, description, created, modified };
}

export function toDelivery(record: DeliveryRecord): WebhookDelivery {
  return {
    id: record.id, subscription: record.subscription, event_id: record.event_id, event: record.event, resource: { ...record.subject },
    state: record.state, attempts: record.attempts, occurred: iso(record.occurred),
    next_attempt: record.state === 'pending' ? iso(Math.max(record.due, record.lease_until)) : null,
    finished: record.finished === null ? null : iso(record.finished),
    response_status: record.response_status, last_error: record.last_error,
  };
}

/** Creates a subscription; answers it with its secret, the one time the secret is shown. */
export async function createSubscription(storage: StoragePort, clock: Clock, input: SubscriptionInput): Promise<WebhookSubscription & { secret: string }> {
  const now = clock.now().toISOString();
  const { params } = input;
  const secret = params.secret ?? newSecret();
  const record = await storage.transaction(async (tx) => {
    const { total } = await subscriptionsIn(tx).list({ limit: 0, withTotal: true });
    if ((total ?? 0) >= MAX_SUBSCRIPTIONS) {
      throw new CmsError('webhooks_too_many_subscriptions', `A site may hold at most ${MAX_SUBSCRIPTIONS} webhook subscriptions.`, 400);
    }
    return subscriptionsIn(tx).insert({
      url: params.url as string, events: params.events as string[], secret, active: params.active !== false,
      description: params.description ?? '', created: now, modified: now,
    });
  });
  return { ...toSubscription(record), secret };
}

export async function readSubscription(storage: StoragePort, id: number): Promise<SubscriptionRecord> {
  const record = await subscriptionsIn(storage).get(id);
  if (!record) throw subscriptionNotFound();
  return record;
}

export async function updateSubscription(storage: StoragePort, clock: Clock, id: number, input: SubscriptionInput): Promise<WebhookSubscription> {
  const patch: Partial<SubscriptionRecord> = {};
  for (const name of ['url', 'events', 'secret', 'active', 'description'] as const) {
    if (input.has(name)) (patch as Record<string, unknown>)[name] = input.params[name];
  }
  const updated = await storage.transaction(async (tx) => {
    if (!(await subscriptionsIn(tx).get(id))) throw subscriptionNotFound();
    return subscriptionsIn(tx).update(id, { ...patch, modified: clock.now().toISOString() });
  });
  return toSubscription(updated!);
}

/** Removes a subscription and its deliveries (pending ones are not sent). */
export async function deleteSubscription(storage: StoragePort, id: number): Promise<WebhookSubscription> {
  return storage.transaction(async (tx) => {
    const record = await subscriptionsIn(tx).get(id);
    if (!record) throw subscriptionNotFound();
    for (;;) {
      const { items } = await deliveriesIn(tx).list({ where: [{ field: 'subscription', op: 'eq', value: id }], limit: 500 });
      if (items.length === 0) break;
      for (const delivery of items) await deliveriesIn(tx).remove(delivery.id);
    }
    await subscriptionsIn(tx).remove(id);
    return toSubscription(record);
  });
}

export async function listSubscriptions(storage: StoragePort, window: ListWindow): Promise<{ items: WebhookSubscription[]; total: number }> {
  const { items, total } = await subscriptionsIn(storage).list({ offset: window.offset, limit: window.perPage, withTotal: true });
  return { items: items.map(toSubscription), total: total ?? items.length };
}

/** A subscription's deliveries, newest first. */
export async function listDeliveries(storage: StoragePort, subscription: number, query: ListWindow & { state?: DeliveryState | undefined }): Promise<{ items: WebhookDelivery[]; total: number }> {
  const where = [{ field: 'subscription', op: 'eq' as const, value: subscription }];
  if (query.state) where.push({ field: 'state', op: 'eq', value: query.state } as never);
  const { items, total } = await deliveriesIn(storage).list({
    where, orderBy: [{ field: 'occurred', direction: 'desc' }], offset: query.offset, limit: query.perPage, withTotal: true,
  });
  return { items: items.map(toDelivery), total: total ?? items.length };
}

export async function readDelivery(storage: StoragePort, subscription: number, id: number): Promise<DeliveryRecord> {
  const record = await deliveriesIn(storage).get(id);
  if (!record || record.subscription !== subscription) throw deliveryNotFound();
  return record;
}

/**
 * Sends an event again: a new delivery of the same event (same event id, so a receiver that saw it can tell;
 * same body), due now, with a fresh retry window.
 */
export async function redeliver(storage: StoragePort, clock: Clock, subscription: number, id: number, maxAgeMs: number): Promise<WebhookDelivery> {
  const record = await storage.transaction(async (tx) => {
    const subscriptionRecord = await subscriptionsIn(tx).get(subscription);
    if (!subscriptionRecord) throw subscriptionNotFound();
    const original = await deliveriesIn(tx).get(id);
    if (!original || original.subscription !== subscription) throw deliveryNotFound();
    const now = clock.now().getTime();
    return deliveriesIn(tx).insert({
      subscription, target: subscriptionRecord.url, event_id: original.event_id, event: original.event, subject: original.subject,
      occurred: original.occurred, state: 'pending', attempts: 0, due: now, lease_until: 0, lease_owner: null,
      payload: original.payload, last_error: null, response_status: null, expires: now + maxAgeMs, finished: null,
    });
  });
  return toDelivery(record);
}
