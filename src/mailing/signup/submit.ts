/**
 * `POST /mailing/v1/form`: a sign-up. The form is named by `_mc4wp_form_id` in the body (urlencoded, multipart
 * or JSON; the query string is not read): empty or `0` is 404 `not_found`, a value that reads as no number
 * (`abc`) picks the first published form, any other number must be a sign-up form (of any status). Then the
 * checks of `validate.ts`, and the provider. Success answers `true`.
 */
import { takeOrRefuse } from '../../auth/index.js';
import { isIP } from 'node:net';
import { isEmpty, toInt } from '../../format/php.js';
import type { RequestContext } from '../../core/context.js';
import { CmsError } from '../../core/errors.js';
import { reply } from '../../core/response.js';
import {
  isMailingListError, MailingListError, type MailingListProvider, type MergeValue, type SubscribeRequest, type SubscriberTag,
} from '../../ports/mailing-list.js';
import type { MailingDeps } from '../deps.js';
import { firstPublishedForm, getFormRecord, messagesOf, settingsOf, type SignupFormRecord } from '../forms-store.js';
import { commaList, LIST_ID, messageFor, type FormMessages, type FormSettings } from '../settings.js';
import { MAX_LISTS } from '../args.js';
import { bodyFields, readPostedSignup, type Value } from './request-data.js';
import { firstError, signupConfig } from './validate.js';

/** Data fields that are not merge fields. */
const NOT_MERGE_FIELDS = new Set(['EMAIL', 'INTERESTS', 'MARKETING_PERMISSIONS', 'MC_LANGUAGE']);
const INTEREST_ID = /^[A-Za-z0-9_-]{1,64}$/;
const UNSAFE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

function notFound(): CmsError {
  return new CmsError('not_found', 'Resource does not exist.', 404);
}

async function submittedForm(deps: MailingDeps, fields: Record<string, unknown>): Promise<SignupFormRecord> {
  const rawId = fields._mc4wp_form_id;
  if (isEmpty(rawId)) throw notFound();
  const id = toInt(rawId);
  const form = id === 0 ? await firstPublishedForm(deps.storage) : await getFormRecord(deps.storage, id);
  if (!form) throw notFound();
  return form;
}

function asMergeValue(value: Value): MergeValue | null {
  if (typeof value === 'string') return value === '' ? null : value;
  const texts = Object.entries(value).filter((entry): entry is [string, string] => typeof entry[1] === 'string');
  if (texts.length === 0) return null;
  return Array.isArray(value) ? texts.map(([, text]) => text) : Object.fromEntries(texts);
}

const TRUE_WORDS = new Set(['1', 'true', 'on', 'yes', 'y']);

function interestsOf(value: Value | undefined): Record<string, boolean> {
  const interests: Record<string, boolean> = {};
  if (value === undefined) return interests;
  const chosen = typeof value === 'string' ? value.split(/[|,]/).map((id) => id.trim()) : null;
  const pairs: [string, boolean][] = chosen
    ? chosen.map((id) => [id, true])
    : Array.isArray(value)
      ? value.filter((id): id is string => typeof id === 'string').map((id) => [id, true])
      : Object.entries(value).map(([id, on]) => [id, typeof on === 'string' && TRUE_WORDS.has(on.toLowerCase())]);
  for (const [id, on] of pairs) if (INTEREST_ID.test(id) && !UNSAFE_KEYS.has(id)) interests[id] = on;
  return interests;
}

function tagsOf(settings: FormSettings): SubscriberTag[] {
  return [
    ...commaList(settings.subscriber_tags).map((name): SubscriberTag => ({ name, status: 'active' })),
    ...commaList(settings.remove_subscriber_tags).map((name): SubscriberTag => ({ name, status: 'inactive' })),
  ];
}

/** The client's address as the adapter resolved it (forwarded headers count only as `trustProxy` allows). */
function signupAddress(context: RequestContext): string | undefined {
  const address = context.remoteAddress;
  return address !== undefined && isIP(address) ? address : undefined;
}

function errorAnswer(code: string, messages: FormMessages, key = code): CmsError {
  return new CmsError(code, messageFor(messages, key), 400);
}

function providerFailure(error: MailingListError, messages: FormMessages): CmsError {
  switch (error.code) {
    case 'already_subscribed':
      return errorAnswer('already_subscribed', messages);
    case 'provider_error':
      // The reference answers with the provider's HTTP status as the code and its generic message.
      return errorAnswer(error.status === undefined ? 'error' : String(error.status), messages, 'error');
    case 'connection_error':
      return errorAnswer('http_request_failed', messages, 'error');
    default:
      return errorAnswer(error.code, messages, 'error');
  }
}

/**
 * A sign-up may name only lists the provider has: the form's own lists are the site's choice, any other (from
 * `_mc4wp_lists`) must be known to the provider, so nobody can make up lists to send more confirmations. An
 * unknown list is the error Mailchimp gives the reference for it (404).
 */
async function refuseUnknownLists(provider: MailingListProvider, lists: readonly string[], formLists: readonly string[]): Promise<void> {
  if (!provider.hasList) return;
  for (const list of new Set(lists)) {
    if (formLists.includes(list)) continue;
    if (!(await provider.hasList(list))) throw new MailingListError('provider_error', `The list ${list} does not exist.`, 404);
  }
}

export async function submitSignup(context: RequestContext, deps: MailingDeps): Promise<unknown> {
  const fields = bodyFields(context.body);
  if (!fields) throw notFound();
  const form = await submittedForm(deps, fields);
  const posted = readPostedSignup(fields);
  const settings = settingsOf(form);
  const messages = messagesOf(form);
  const config = signupConfig(posted, settings);

  const nowSeconds = Math.floor(deps.clock.now().getTime() / 1000);
  const error = firstError(posted, config, settings, context.headers['user-agent'] ?? '', nowSeconds);
  if (error !== null) {
    let message = messageFor(messages, error);
    if (error === 'no_lists_selected' && context.user?.capabilities.has('manage_options')) {
      message += ` (<a href="${deps.mailing.editFormUrl(form.id, context.site)}">edit form settings</a>)`;
    }
    throw new CmsError(error, message, 400);
  }
  // Unsubscribe forms were withdrawn from the reference plugin; they fail once the form is otherwise valid.
  if (config.action === 'unsubscribe') throw errorAnswer('unauthorized', messages, 'error');

  const lists = config.lists.filter((list) => list !== '');
  if (lists.length === 0) throw errorAnswer('error', messages);
  await takeOrRefuse(deps.throttles?.signups, context.remoteAddress, deps.clock.now().getTime(), 'Too many sign-ups from this address. Please try again later.');
  if (lists.length > MAX_LISTS || !lists.every((list) => LIST_ID.test(list))) {
    throw new CmsError('invalid_list', `Lists are named by up to ${MAX_LISTS} ids of letters, digits, ".", "_" and "-".`, 400);
  }

  const mergeFields: Record<string, MergeValue> = {};
  for (const [name, value] of Object.entries(posted.data)) {
    if (NOT_MERGE_FIELDS.has(name)) continue;
    const merged = asMergeValue(value);
    if (merged !== null) mergeFields[name] = merged;
  }
  const language = posted.data.MC_LANGUAGE;
  const request: SubscribeRequest = {
    lists,
    email: posted.data.EMAIL as string,
    mergeFields,
    interests: interestsOf(posted.data.INTERESTS),
    tags: tagsOf(settings),
    emailType: config.emailType || 'html',
    doubleOptin: settings.double_optin,
    updateExisting: settings.update_existing,
    replaceInterests: settings.replace_interests,
    formId: form.id,
  };
  const address = signupAddress(context);
  if (address) request.ipSignup = address;
  if (typeof language === 'string' && language !== '') request.language = language.slice(0, 10);

  try {
    await refuseUnknownLists(deps.provider, lists, settings.lists);
    await deps.provider.subscribe(request, {
      siteName: context.site.name,
      confirmUrl: (token) => context.url('/mailing/v1/confirm', { token }),
      unsubscribeUrl: (token) => context.url('/mailing/v1/unsubscribe', { token }),
    });
  } catch (failure) {
    if (isMailingListError(failure)) throw providerFailure(failure, messages);
    throw failure;
  }
  return reply(true);
}
