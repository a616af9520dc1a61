/**
 * The outbox: a storage port around the site's store that writes, in the same transaction as a change, one
 * delivery row per event and subscriber. A change and its deliveries commit together or not at all, so a process
 * that dies right after a change still leaves the deliveries behind for any process to send (at least once).
 *
 * Writes to the watched collections outside a transaction become transactions of their own; the record before
 * the write is read first, inside the transaction, to tell a publish from an update. Nested transactions keep
 * their events only when they commit.
 */
import { randomUUID } from 'node:crypto';
import type { Clock } from '../ports/clock.js';
import type { NewRecord, RecordId, StoragePort, StoredRecord } from '../ports/storage.js';
import { addRaised, eventsOf, WATCHED_COLLECTIONS, type RaisedEvent } from './events.js';
import { DELIVERIES_COLLECTION, subscribesTo, subscriptionsIn, type DeliveryRecord } from './records.js';

export interface OutboxOptions {
  clock: Clock;
  /** URLs receiving every event without a stored subscription. */
  fixedTargets: readonly string[];
  /** How long after its event a delivery may still be tried. */
  maxAgeMs: number;
  /** Called after a transaction that queued deliveries committed. */
  onQueued(): void;
}

export function withOutbox(storage: StoragePort, options: OutboxOptions): StoragePort {
  const outer: StoragePort = {
    get: (collection, id) => storage.get(collection, id),
    list: (collection, query) => storage.list(collection, query),
    insert: (collection, record) => (WATCHED_COLLECTIONS.has(collection)
      ? outer.transaction((tx) => tx.insert(collection, record))
      : storage.insert(collection, record)),
    update: (collection, id, patch) => (WATCHED_COLLECTIONS.has(collection)
      ? outer.transaction((tx) => tx.update(collection, id, patch))
      : storage.update(collection, id, patch)),
    remove: (collection, id) => (WATCHED_COLLECTIONS.has(collection)
      ? outer.transaction((tx) => tx.remove(collection, id))
      : storage.remove(collection, id)),
    async transaction(work) {
      let queued = 0;
      const result = await storage.transaction(async (tx) => {
        const raised: RaisedEvent[] = [];
        const value = await work(watching(tx, raised));
        queued = await queueDeliveries(tx, raised, options);
        return value;
      });
      if (queued > 0) options.onQueued();
      return result;
    },
  };
  if (storage.changeToken) outer.changeToken = () => storage.changeToken!();
  if (storage.writtenSince) outer.writtenSince = (token) => storage.writtenSince!(token);
  if (storage.schemaCurrent) outer.schemaCurrent = () => storage.schemaCurrent!();
  if (storage.close) outer.close = () => storage.close!();
  return outer;
}

/** A transaction handle noting the events its writes raise into `raised`. */
function watching(tx: StoragePort, raised: RaisedEvent[]): StoragePort {
  return {
    get: (collection, id) => tx.get(collection, id),
    list: (collection, query) => tx.list(collection, query),
    async insert(collection: string, record: NewRecord) {
      const inserted = await tx.insert(collection, record);
      if (WATCHED_COLLECTIONS.has(collection)) addRaised(raised, eventsOf(collection, null, inserted));
      return inserted;
    },
    async update(collection: string, id: RecordId, patch: Record<string, unknown>) {
      if (!WATCHED_COLLECTIONS.has(collection)) return tx.update(collection, id, patch);
      const before = await tx.get(collection, id);
      const updated = await tx.update(collection, id, patch);
      if (before && updated) addRaised(raised, eventsOf(collection, before, updated, patch));
      return updated;
    },
    async remove(collection: string, id: RecordId) {
      if (!WATCHED_COLLECTIONS.has(collection)) return tx.remove(collection, id);
      const before: StoredRecord | null = await tx.get(collection, id);
      const removed = await tx.remove(collection, id);
      if (removed && before) addRaised(raised, eventsOf(collection, before, null));
      return removed;
    },
    transaction: (work) => tx.transaction(async (inner) => {
      const own: RaisedEvent[] = [];
      const value = await work(watching(inner, own));
      addRaised(raised, own);
      return value;
    }),
  };
}

/** Writes the deliveries of the transaction's events; answers how many. */
async function queueDeliveries(tx: StoragePort, raised: readonly RaisedEvent[], options: OutboxOptions): Promise<number> {
  if (raised.length === 0) return 0;
  const { items: subscriptions } = await subscriptionsIn(tx).list({ where: [{ field: 'active', op: 'eq', value: true }] });
  if (subscriptions.length === 0 && options.fixedTargets.length === 0) return 0;
  const now = options.clock.now().getTime();
  let queued = 0;
  for (const { event, subject } of raised) {
    const eventId = randomUUID();
    const targets = [
      ...subscriptions.filter((subscription) => subscribesTo(subscription.events, event)).map((subscription) => ({ subscription: subscription.id, target: subscription.url })),
      ...options.fixedTargets.map((target) => ({ subscription: 0, target })),
    ];
    for (const { subscription, target } of targets) {
      const delivery: Omit<DeliveryRecord, 'id'> = {
        subscription, target, event_id: eventId, event, subject, occurred: now, state: 'pending', attempts: 0, due: now,
        lease_until: 0, lease_owner: null, payload: null, last_error: null, response_status: null,
        expires: now + options.maxAgeMs, finished: null,
      };
      await tx.insert(DELIVERIES_COLLECTION, delivery);
      queued++;
    }
  }
  return queued;
}
