/**
 * The stored shapes: subscriptions, and deliveries — the outbox, one row per event and subscription, which is
 * also the delivery log. Times the delivery loop compares are epoch milliseconds; shown times are ISO strings.
 */
import { collection } from '../ports/collection.js';
import type { StoredRecord } from '../ports/storage.js';
import type { EventSubject, WebhookEvent } from './events.js';

export const SUBSCRIPTIONS_COLLECTION = 'webhook_subscriptions';
export const DELIVERIES_COLLECTION = 'webhook_deliveries';

/** `*` subscribes to every event. */
export const EVERY_EVENT = '*';

export interface SubscriptionRecord extends StoredRecord {
  url: string;
  events: string[];
  secret: string;
  active: boolean;
  description: string;
  /** UTC, ISO 8601. */
  created: string;
  modified: string;
}

export type DeliveryState = 'pending' | 'delivered' | 'failed';

export interface DeliveryRecord extends StoredRecord {
  /** The stored subscription, or 0 for a target given to the process (`webhooks.targets`, `--webhook`). */
  subscription: number;
  /** Where it goes: the subscription's URL when the event happened, or the fixed target's. */
  target: string;
  /** The event id: the same for every subscription of one event, sent as the idempotency key. */
  event_id: string;
  event: WebhookEvent;
  subject: EventSubject;
  /** When the change was committed, epoch milliseconds. */
  occurred: number;
  state: DeliveryState;
  attempts: number;
  /** The earliest time of the next attempt. */
  due: number;
  /** While an attempt runs: until when its process holds it (another may take it after). */
  lease_until: number;
  lease_owner: string | null;
  /** The body, fixed at the first attempt so that every retry sends the same bytes. */
  payload: string | null;
  last_error: string | null;
  response_status: number | null;
  /** After this time a failing delivery is not tried again. */
  expires: number;
  finished: number | null;
}

export const subscriptionsIn = collection<SubscriptionRecord>(SUBSCRIPTIONS_COLLECTION, (record) =>
  (typeof record.url === 'string' && Array.isArray(record.events) && typeof record.secret === 'string' ? record as SubscriptionRecord : null));

export const deliveriesIn = collection<DeliveryRecord>(DELIVERIES_COLLECTION, (record) =>
  (typeof record.event_id === 'string' && typeof record.state === 'string' && typeof record.due === 'number' ? record as DeliveryRecord : null));

export function subscribesTo(events: readonly string[], event: string): boolean {
  return events.includes(EVERY_EVENT) || events.includes(event);
}
