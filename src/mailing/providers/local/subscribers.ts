/**
 * Subscriber records of the local provider, in the `mailing_subscribers` collection: one record per list and
 * (lower-cased) email address. `slug` holds `<list>/<email>`, a key unique in the collection that the SQL stores
 * index, so finding a subscriber never scans the list.
 */
import type { MergeValue, Subscriber, SubscriberPage, SubscriberQuery, SubscriberStatus } from '../../../ports/mailing-list.js';
import type { Condition, StoragePort, StoredRecord } from '../../../ports/storage.js';
import { pageOffset } from '../../../core/paging.js';

export const SUBSCRIBERS_COLLECTION = 'mailing_subscribers';

/** A subscriber's stored fields, besides `id` and the `slug` key. */
export interface NewSubscriber {
  list: string;
  email: string;
  status: SubscriberStatus;
  merge_fields: Record<string, MergeValue>;
  interests: Record<string, boolean>;
  tags: string[];
  email_type: 'html' | 'text';
  ip_signup: string | null;
  language: string | null;
  form_id: number | null;
  /** UTC, `YYYY-MM-DDTHH:MM:SS`. */
  created: string;
  modified: string;
  confirmed: string | null;
  /** The nonce of the confirmation link that may confirm this subscriber; null when none may. */
  confirm_nonce: string | null;
  /** When the last confirmation message went out, UTC. */
  confirm_sent: string | null;
}

export interface SubscriberRecord extends StoredRecord, NewSubscriber {
  slug: string;
}

export function subscriberKey(list: string, email: string): string {
  return `${list}/${email}`;
}

export async function findSubscriber(storage: StoragePort, list: string, email: string): Promise<SubscriberRecord | null> {
  const { items } = await storage.list(SUBSCRIBERS_COLLECTION, {
    where: [{ field: 'slug', op: 'eq', value: subscriberKey(list, email) }],
    limit: 1,
  });
  return (items[0] as SubscriberRecord | undefined) ?? null;
}

export async function insertSubscriber(storage: StoragePort, subscriber: NewSubscriber): Promise<SubscriberRecord> {
  return (await storage.insert(SUBSCRIBERS_COLLECTION, { ...subscriber, slug: subscriberKey(subscriber.list, subscriber.email) })) as SubscriberRecord;
}

export async function updateSubscriber(storage: StoragePort, id: number, patch: Partial<NewSubscriber>): Promise<SubscriberRecord | null> {
  return (await storage.update(SUBSCRIBERS_COLLECTION, id, patch)) as SubscriberRecord | null;
}

export function toSubscriber(record: SubscriberRecord): Subscriber {
  return {
    id: record.id,
    list: record.list,
    email: record.email,
    status: record.status,
    mergeFields: record.merge_fields,
    interests: record.interests,
    tags: record.tags,
    emailType: record.email_type,
    ipSignup: record.ip_signup,
    language: record.language,
    formId: record.form_id,
    created: record.created,
    modified: record.modified,
    confirmed: record.confirmed,
  };
}

export async function listSubscriberRecords(storage: StoragePort, query: SubscriberQuery): Promise<SubscriberPage> {
  const where: Condition[] = [{ field: 'list', op: 'eq', value: query.list }];
  if (query.status) where.push({ field: 'status', op: 'eq', value: query.status });
  const { items, total } = await storage.list(SUBSCRIBERS_COLLECTION, {
    where,
    orderBy: [{ field: 'email', direction: 'asc' }],
    offset: pageOffset(query.page, query.perPage),
    limit: query.perPage,
    withTotal: true,
  });
  return { items: (items as SubscriberRecord[]).map(toSubscriber), total: total ?? 0 };
}
