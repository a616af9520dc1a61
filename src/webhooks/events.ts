/**
 * Which store writes are webhook events. The outbox (`outbox.ts`) sees every write to the collections named here,
 * with the record before and after, and asks `eventsOf` what happened; the answer depends on the records alone, so
 * every way a change is made (a route, the in-process API, an import, the scheduler) raises the same events.
 */
import type { StoredRecord } from '../ports/storage.js';

export const WEBHOOK_EVENTS = [
  'post.published', 'post.updated', 'post.trashed', 'post.deleted',
  'page.published', 'page.updated', 'page.trashed', 'page.deleted',
  'media.added', 'media.deleted',
  'comment.created', 'comment.approved',
  'form.submitted',
  'signup.confirmed',
  'term.created', 'term.updated', 'term.deleted',
] as const;

export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

const KNOWN_EVENTS: ReadonlySet<string> = new Set(WEBHOOK_EVENTS);

export function isWebhookEvent(name: unknown): name is WebhookEvent {
  return typeof name === 'string' && KNOWN_EVENTS.has(name);
}

/** What an event is about: enough to render the record later, or to name it once it is gone. */
export interface EventSubject {
  kind: 'post' | 'page' | 'media' | 'comment' | 'term' | 'submission' | 'subscriber';
  id: number;
  /** Terms: the taxonomy. */
  taxonomy?: string;
  /** Submissions: the form. */
  form?: number;
  /** Subscribers: the list. */
  list?: string;
}

export interface RaisedEvent {
  event: WebhookEvent;
  subject: EventSubject;
}

/** The collections whose writes may raise events. */
export const WATCHED_COLLECTIONS: ReadonlySet<string> = new Set(['posts', 'comments', 'terms', 'form_submissions', 'mailing_subscribers']);

/** Fields stores keep up to date on their own; a write touching nothing else is no change of the record. */
const BOOKKEEPING_FIELDS: Readonly<Record<string, ReadonlySet<string>>> = {
  posts: new Set(['comment_count']),
  terms: new Set(['count']),
};

/** `before` is null for an insert, `after` null for a removal; `patch` lists the fields an update wrote. */
export function eventsOf(collection: string, before: StoredRecord | null, after: StoredRecord | null, patch?: Record<string, unknown>): RaisedEvent[] {
  const record = after ?? before;
  if (record === null) return [];
  if (patch !== undefined && Object.keys(patch).every((field) => field === 'id' || BOOKKEEPING_FIELDS[collection]?.has(field))) return [];
  switch (collection) {
    case 'posts': return postEvents(before, after, record);
    case 'comments': return commentEvents(before, after, record);
    case 'terms': return termEvents(before, after, record);
    case 'form_submissions':
      return before === null && after !== null ? [{ event: 'form.submitted', subject: { kind: 'submission', id: after.id, form: Number(after.form_id) || 0 } }] : [];
    case 'mailing_subscribers':
      return after !== null && after.status === 'subscribed' && before?.status !== 'subscribed'
        ? [{ event: 'signup.confirmed', subject: { kind: 'subscriber', id: after.id, list: String(after.list ?? '') } }]
        : [];
    default: return [];
  }
}

function postEvents(before: StoredRecord | null, after: StoredRecord | null, record: StoredRecord): RaisedEvent[] {
  const type = record.type;
  if (type === 'attachment') {
    if (before === null) return [{ event: 'media.added', subject: { kind: 'media', id: record.id } }];
    if (after === null) return [{ event: 'media.deleted', subject: { kind: 'media', id: record.id } }];
    return [];
  }
  if (type !== 'post' && type !== 'page') return [];
  const subject: EventSubject = { kind: type, id: record.id };
  const raise = (change: 'published' | 'updated' | 'trashed' | 'deleted'): RaisedEvent[] => [{ event: `${type}.${change}`, subject }];
  if (after === null) return raise('deleted');
  const was = before?.status ?? null;
  if (after.status === 'trash') return was === 'trash' ? [] : raise('trashed');
  if (after.status === 'publish') return raise(was === 'publish' ? 'updated' : 'published');
  // A published post taken back (to a draft, say) changes what the public sees.
  return was === 'publish' ? raise('updated') : [];
}

function commentEvents(before: StoredRecord | null, after: StoredRecord | null, record: StoredRecord): RaisedEvent[] {
  const subject: EventSubject = { kind: 'comment', id: record.id };
  if (before === null) return [{ event: 'comment.created', subject }];
  if (after !== null && after.status === 'approved' && before.status !== 'approved') return [{ event: 'comment.approved', subject }];
  return [];
}

function termEvents(before: StoredRecord | null, after: StoredRecord | null, record: StoredRecord): RaisedEvent[] {
  const subject: EventSubject = { kind: 'term', id: record.id, taxonomy: String(record.taxonomy ?? '') };
  if (before === null) return [{ event: 'term.created', subject }];
  if (after === null) return [{ event: 'term.deleted', subject }];
  return [{ event: 'term.updated', subject }];
}

/**
 * Folds the events of one transaction: one event per subject and name, and an `updated` dropped where the same
 * transaction already published or created the subject (a save that writes a post and then its terms).
 */
export function addRaised(into: RaisedEvent[], raised: readonly RaisedEvent[]): void {
  for (const next of raised) {
    const key = subjectKey(next.subject);
    const same = into.filter((seen) => subjectKey(seen.subject) === key);
    if (same.some((seen) => seen.event === next.event)) continue;
    if (next.event.endsWith('.updated') && same.some((seen) => /\.(published|created)$/.test(seen.event))) continue;
    into.push(next);
  }
}

function subjectKey(subject: EventSubject): string {
  return `${subject.kind}:${subject.id}`;
}
