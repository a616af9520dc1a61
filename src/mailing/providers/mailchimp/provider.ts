/**
 * A mailing-list provider over the Mailchimp Marketing API v3, following the reference plugin's member rules:
 * read the member (`GET /lists/{list}/members/{hash}`, the hash being the MD5 of the lower-cased address); an
 * already `subscribed` member is `already_subscribed` unless updates are allowed; a member still `pending` under
 * double opt-in is first set `unsubscribed` so Mailchimp sends a fresh confirmation; then
 * `PUT /lists/{list}/members/{hash}` with `status_if_new` (`pending` or `subscribed`), and finally the tags
 * (`POST …/tags`, whose failure is ignored). Only merge fields the list defines are sent. `hasList` asks for the
 * list (`GET /lists/{list}`): a 404 is a list Mailchimp does not have.
 */
import { createHash } from 'node:crypto';
import type { Clock } from '../../../ports/clock.js';
import type { HttpClient } from '../../../ports/http-client.js';
import {
  isMailingListError,
  MailingListError,
  type MailingListProvider,
  type MergeValue,
  type SubscribeRequest,
  type SubscribeResult,
} from '../../../ports/mailing-list.js';
import { apiError, createMailchimpCall, mailchimpBaseUrl, type MailchimpCall } from './client.js';

export interface MailchimpProviderOptions {
  /** `<key>-<data centre>`, as Mailchimp issues it. */
  apiKey: string;
  httpClient: HttpClient;
  /** The API root; default from the key's data centre (`https://us6.api.mailchimp.com/3.0`). */
  baseUrl?: string;
  /** Deadline of each call (default 10 s). */
  timeoutMs?: number;
  /** How long a list's merge fields are remembered (default 10 minutes). */
  mergeFieldsTtlSeconds?: number;
  clock?: Clock;
}

interface MergeField {
  tag: string;
  type: string;
}

interface Member {
  status: string;
  interests?: Record<string, boolean>;
}

export function subscriberHash(email: string): string {
  return createHash('md5').update(email.toLowerCase()).digest('hex');
}

/** A merge value in the shape the field's type takes; null when there is nothing to send. */
function formatValue(field: MergeField, value: MergeValue): MergeValue | null {
  if (typeof value === 'string') return value === '' ? null : value;
  if (Array.isArray(value)) {
    const items = value.filter((item) => item !== '');
    return items.length === 0 ? null : items.join(field.type === 'text' ? ', ' : ',');
  }
  if (field.type === 'address') return Object.keys(value).length === 0 ? null : value;
  const items = Object.values(value).filter((item) => item !== '');
  return items.length === 0 ? null : items.join(', ');
}

export function createMailchimpProvider(options: MailchimpProviderOptions): MailingListProvider {
  const call: MailchimpCall = createMailchimpCall({
    apiKey: options.apiKey,
    baseUrl: options.baseUrl ?? mailchimpBaseUrl(options.apiKey),
    httpClient: options.httpClient,
    timeoutMs: options.timeoutMs ?? 10_000,
  });
  const ttlMs = (options.mergeFieldsTtlSeconds ?? 600) * 1000;
  const now = () => (options.clock ?? { now: () => new Date() }).now().getTime();
  const mergeFieldCache = new Map<string, { fields: MergeField[]; until: number }>();

  async function mergeFieldsOf(list: string): Promise<MergeField[]> {
    const cached = mergeFieldCache.get(list);
    if (cached && cached.until > now()) return cached.fields;
    const answer = await call('GET', `/lists/${encodeURIComponent(list)}/merge-fields?count=1000&fields=merge_fields.tag,merge_fields.type`);
    if (answer.status >= 400) return [];
    const raw = (answer.json as { merge_fields?: unknown } | null)?.merge_fields;
    const fields = (Array.isArray(raw) ? raw : [])
      .filter((field): field is MergeField => typeof field?.tag === 'string' && typeof field?.type === 'string');
    mergeFieldCache.set(list, { fields, until: now() + ttlMs });
    return fields;
  }

  /** Lists known to exist, until when; unknown ids are not remembered, so made-up ones cannot fill it. */
  const knownLists = new Map<string, number>();

  async function hasList(list: string): Promise<boolean> {
    if ((knownLists.get(list) ?? 0) > now()) return true;
    const answer = await call('GET', `/lists/${encodeURIComponent(list)}?fields=id`);
    if (answer.status === 404) return false;
    if (answer.status >= 400) throw apiError(answer);
    knownLists.set(list, now() + ttlMs);
    return true;
  }

  async function subscribeToList(list: string, request: SubscribeRequest): Promise<SubscribeResult> {
    const member = `/lists/${encodeURIComponent(list)}/members/${subscriberHash(request.email)}`;
    const found = await call('GET', `${member}?fields=status,interests`);
    if (found.status >= 400 && found.status !== 404) throw apiError(found);
    const existing = found.status === 404 ? null : found.json as Member;
    const wanted = request.doubleOptin ? 'pending' : 'subscribed';

    let interests = request.interests;
    if (existing?.status === 'subscribed') {
      if (!request.updateExisting) throw new MailingListError('already_subscribed', 'That subscriber already exists.');
      const current = existing.interests ?? {};
      const kept = request.replaceInterests ? Object.fromEntries(Object.keys(current).map((id) => [id, false])) : current;
      interests = { ...kept, ...request.interests };
    } else if (existing?.status === 'pending' && wanted === 'pending') {
      const reset = await call('PATCH', member, { status: 'unsubscribed' });
      if (reset.status >= 400) throw apiError(reset);
    }

    const mergeFields: Record<string, MergeValue> = {};
    for (const field of await mergeFieldsOf(list)) {
      const value = request.mergeFields[field.tag];
      if (field.tag === 'EMAIL' || value === undefined) continue;
      const formatted = formatValue(field, value);
      if (formatted !== null) mergeFields[field.tag] = formatted;
    }
    const body: Record<string, unknown> = {
      email_address: request.email,
      status_if_new: wanted,
      merge_fields: mergeFields,
      email_type: request.emailType,
    };
    if (existing) body.status = existing.status === 'subscribed' ? 'subscribed' : wanted;
    if (Object.keys(interests).length > 0) body.interests = interests;
    if (request.ipSignup) body.ip_signup = request.ipSignup;
    if (request.language) body.language = request.language;
    const saved = await call('PUT', member, body);
    if (saved.status >= 400) throw apiError(saved);

    if (request.tags.length > 0) {
      try {
        await call('POST', `${member}/tags`, { tags: request.tags });
      } catch (error) {
        if (!isMailingListError(error)) throw error;
      }
    }
    return { outcome: existing?.status === 'subscribed' ? 'updated' : 'subscribed' };
  }

  return {
    hasList,
    async subscribe(request) {
      let last: SubscribeResult | MailingListError = new MailingListError('provider_error', 'No list was given.');
      for (const list of request.lists) {
        try {
          last = await subscribeToList(list, request);
        } catch (error) {
          if (!isMailingListError(error)) throw error;
          last = error;
        }
      }
      if (last instanceof MailingListError) throw last;
      return last;
    },
  };
}
