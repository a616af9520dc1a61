/** Handlers of the routes we add to `mailing/v1`: sign-up forms, subscribers, confirmation and unsubscribe links. */
import type { Item, RequestContext } from '../core/context.js';
import { CmsError } from '../core/errors.js';
import { collection, created, item, reply } from '../core/response.js';
import { paging } from '../core/paging.js';
import { isMailingListError, type Subscriber, type SubscriberStatus, type TokenOutcome } from '../ports/mailing-list.js';
import type { MailingDeps } from './deps.js';
import { createForm, deleteForm, readForm, updateForm } from './forms-service.js';
import { listFormRecords, toSignupForm, type SignupForm } from './forms-store.js';

function formItem(context: RequestContext, form: SignupForm): Item {
  return {
    data: { ...form },
    links: {
      self: [{ href: context.url(`/mailing/v1/forms/${form.id}`) }],
      collection: [{ href: context.url('/mailing/v1/forms') }],
    },
  };
}

const idOf = (context: RequestContext) => Number(context.params.id);

export async function listForms(context: RequestContext, deps: MailingDeps) {
  const page = Number(context.params.page);
  const perPage = Number(context.params.per_page);
  const { items, total } = await listFormRecords(deps.storage, page, perPage);
  return collection(items.map((record) => formItem(context, toSignupForm(record))), paging(total, page, perPage));
}

export async function readFormHandler(context: RequestContext, deps: MailingDeps) {
  return item(formItem(context, await readForm(deps, idOf(context))));
}

export async function createFormHandler(context: RequestContext, deps: MailingDeps) {
  const form = await createForm(deps, context);
  return created(formItem(context, form), context.url(`/mailing/v1/forms/${form.id}`));
}

export async function updateFormHandler(context: RequestContext, deps: MailingDeps) {
  return item(formItem(context, await updateForm(deps, idOf(context), context)));
}

export async function deleteFormHandler(context: RequestContext, deps: MailingDeps) {
  const form = await deleteForm(deps, idOf(context));
  return reply({ deleted: true, previous: form });
}

export function unsupported(what: string): CmsError {
  return new CmsError('mailing_unsupported', `The mailing-list provider in use does not ${what}.`, 400);
}

function subscriberData(subscriber: Subscriber): Record<string, unknown> {
  return {
    id: subscriber.id,
    list: subscriber.list,
    email: subscriber.email,
    status: subscriber.status,
    merge_fields: subscriber.mergeFields,
    interests: subscriber.interests,
    tags: subscriber.tags,
    email_type: subscriber.emailType,
    ip_signup: subscriber.ipSignup,
    language: subscriber.language,
    form_id: subscriber.formId,
    created: subscriber.created,
    modified: subscriber.modified,
    confirmed: subscriber.confirmed,
  };
}

export async function listSubscribers(context: RequestContext, deps: MailingDeps) {
  if (!deps.provider.listSubscribers) throw unsupported('list subscribers');
  const page = Number(context.params.page);
  const perPage = Number(context.params.per_page);
  const result = await deps.provider.listSubscribers({
    list: String(context.params.list),
    page,
    perPage,
    ...(typeof context.params.status === 'string' ? { status: context.params.status as SubscriberStatus } : {}),
  });
  return collection(result.items.map((subscriber) => ({ data: subscriberData(subscriber) })), paging(result.total, page, perPage));
}

/** Turns a provider's token failure into the route's 400. */
async function followLink(run: () => Promise<TokenOutcome>): Promise<TokenOutcome> {
  try {
    return await run();
  } catch (error) {
    if (!isMailingListError(error)) throw error;
    if (error.code === 'expired_token') {
      throw new CmsError('mailing_token_expired', 'This link has expired. Please sign up again to get a new one.', 400);
    }
    if (error.code === 'invalid_token') {
      throw new CmsError('mailing_invalid_token', 'This link is not valid, or no longer is.', 400);
    }
    throw error;
  }
}

function linkAnswer(outcome: TokenOutcome, redirect: string | undefined) {
  if (redirect !== undefined) return reply(null, { status: 302, headers: { Location: redirect } });
  return reply({ status: outcome.status, email: outcome.email, lists: outcome.lists });
}

export async function confirmHandler(context: RequestContext, deps: MailingDeps) {
  const { provider } = deps;
  if (!provider.confirm) throw unsupported('confirm sign-ups through links of this site');
  const outcome = await followLink(() => provider.confirm!(String(context.params.token)));
  return linkAnswer(outcome, deps.mailing.redirects.confirmed);
}

export async function unsubscribeHandler(context: RequestContext, deps: MailingDeps) {
  const { provider } = deps;
  if (!provider.unsubscribe) throw unsupported('unsubscribe through links of this site');
  const outcome = await followLink(() => provider.unsubscribe!(String(context.params.token)));
  return linkAnswer(outcome, deps.mailing.redirects.unsubscribed);
}
