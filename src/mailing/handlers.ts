/** Handlers of the routes we add to `mailing/v1`: sign-up forms, subscribers, confirmation and unsubscribe links. */
import type { Params } from '../core/args/define.js';
import type { Item, RequestContext } from '../core/context.js';
import { CmsError } from '../core/errors.js';
import { collection, created, item, reply } from '../core/response.js';
import { pageArgs, pageWindow, paging } from '../core/paging.js';
import { isMailingListError, type Subscriber, type TokenOutcome } from '../ports/mailing-list.js';
import type { formIdArg, formWriteArgs, subscriberListArgs, tokenArgs } from './args.js';
import type { MailingDeps } from './deps.js';
import { createForm as insertForm, deleteForm as removeForm, readForm as loadForm, updateForm as saveForm } from './forms-service.js';
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

type IdParams = Params<{ id: ReturnType<typeof formIdArg> }>;
type WriteParams = Params<typeof formWriteArgs> & IdParams;

export async function listForms(context: RequestContext<Params<typeof pageArgs>>, deps: MailingDeps) {
  const { page, perPage } = pageWindow(context.params, 'page');
  const { items, total } = await listFormRecords(deps.storage, page, perPage);
  return collection(items.map((record) => formItem(context, toSignupForm(record))), paging(total, page, perPage));
}

export async function readForm(context: RequestContext<IdParams>, deps: MailingDeps) {
  return item(formItem(context, await loadForm(deps, context.params.id)));
}

export async function createForm(context: RequestContext<Params<typeof formWriteArgs>>, deps: MailingDeps) {
  const form = await insertForm(deps, context);
  return created(formItem(context, form), context.url(`/mailing/v1/forms/${form.id}`));
}

export async function updateForm(context: RequestContext<WriteParams>, deps: MailingDeps) {
  return item(formItem(context, await saveForm(deps, context.params.id, context)));
}

export async function deleteForm(context: RequestContext<IdParams>, deps: MailingDeps) {
  const form = await removeForm(deps, context.params.id);
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

export async function listSubscribers(context: RequestContext<Params<typeof subscriberListArgs>>, deps: MailingDeps) {
  if (!deps.provider.listSubscribers) throw unsupported('list subscribers');
  const { params } = context;
  const { page, perPage } = pageWindow(params, 'page');
  const result = await deps.provider.listSubscribers({
    list: params.list,
    page,
    perPage,
    ...(params.status !== undefined ? { status: params.status } : {}),
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

export async function confirmSubscription(context: RequestContext<Params<typeof tokenArgs>>, deps: MailingDeps) {
  const { provider } = deps;
  if (!provider.confirm) throw unsupported('confirm sign-ups through links of this site');
  const outcome = await followLink(() => provider.confirm!(context.params.token));
  return linkAnswer(outcome, deps.mailing.redirects.confirmed);
}

export async function cancelSubscription(context: RequestContext<Params<typeof tokenArgs>>, deps: MailingDeps) {
  const { provider } = deps;
  if (!provider.unsubscribe) throw unsupported('unsubscribe through links of this site');
  const outcome = await followLink(() => provider.unsubscribe!(context.params.token));
  return linkAnswer(outcome, deps.mailing.redirects.unsubscribed);
}
