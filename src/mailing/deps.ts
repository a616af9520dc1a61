/** What the mailing resource is given: the ports it uses, its provider and its settings. */
import type { Throttles } from '../auth/index.js';
import { resolveSite, type Site } from '../core/site.js';
import type { CmsDeps } from '../deps.js';
import type { MailingListProvider } from '../ports/mailing-list.js';
import type { ConfirmationMailComposer } from './providers/local/confirmation-mail.js';
import { createLocalMailingProvider, type LocalMailingProvider } from './providers/local/provider.js';
import { createMailchimpProvider } from './providers/mailchimp/provider.js';
import { signupFormLists } from './forms-store.js';

export interface MailingOptions {
  /**
   * Where sign-ups go. Default: the local provider (subscribers in storage, double opt-in by email through the
   * mailer). `mailchimp` sends them to Mailchimp through the site's outbound HTTP client instead.
   */
  provider?: MailingListProvider;
  mailchimp?: { apiKey: string; baseUrl?: string; timeoutMs?: number };
  /** Signs confirmation and unsubscribe links (at least 16 characters); default: generated once, kept in storage. */
  secret?: string;
  /** Lifetime of confirmation links in seconds (default 7 days) and of unsubscribe links (default 365 days). */
  confirmTtlSeconds?: number;
  unsubscribeTtlSeconds?: number;
  /** A pending subscriber gets another confirmation message only this long after the last one (default 60 s). */
  resendAfterSeconds?: number;
  /** Sender of confirmation messages; default `"<site name>" <noreply@<site host>>`. */
  from?: string;
  /** The wording of confirmation messages. */
  confirmationMail?: ConfirmationMailComposer;
  /**
   * Where administrators edit a form, linked from the `no_lists_selected` message; `{id}` is replaced.
   * Default: the form's admin route.
   */
  editFormUrl?: string;
  /** Send people who confirm or unsubscribe through a link to these pages (302) instead of answering JSON. */
  redirects?: { confirmed?: string; unsubscribed?: string };
}

/** The settings the routes read, resolved once. */
export interface MailingSettings {
  editFormUrl(id: number, site: Site): string;
  redirects: { confirmed?: string; unsubscribed?: string };
}

export interface MailingDeps extends Pick<CmsDeps, 'storage' | 'clock' | 'mailer' | 'httpClient' | 'site' | 'names'> {
  readonly provider: MailingListProvider;
  /** Set when the provider is the built-in local one (for unsubscribe links made in-process). */
  readonly localProvider: LocalMailingProvider | null;
  readonly mailing: MailingSettings;
  /** The per-client sign-up limit lives in `throttles.signups`; none: no limit. */
  readonly throttles?: Pick<Throttles, 'signups'>;
}

export function createMailingDeps(deps: CmsDeps, options: MailingOptions = {}): MailingDeps {
  let provider: MailingListProvider;
  let localProvider: LocalMailingProvider | null = null;
  if (options.provider) {
    provider = options.provider;
  } else if (options.mailchimp) {
    provider = createMailchimpProvider({ ...options.mailchimp, httpClient: deps.httpClient, clock: deps.clock });
  } else {
    const { secret, confirmTtlSeconds, unsubscribeTtlSeconds, resendAfterSeconds, from, confirmationMail } = options;
    localProvider = createLocalMailingProvider({
      storage: deps.storage, mailer: deps.mailer, clock: deps.clock, siteSecret: deps.secret,
      secret, confirmTtlSeconds, unsubscribeTtlSeconds, resendAfterSeconds, from, confirmationMail,
      knownLists: () => signupFormLists(deps.storage),
    });
    provider = localProvider;
  }
  const editFormUrl = options.editFormUrl;
  return Object.freeze({
    storage: deps.storage,
    clock: deps.clock,
    mailer: deps.mailer,
    httpClient: deps.httpClient,
    site: deps.site,
    names: deps.names,
    throttles: deps.throttles,
    provider,
    localProvider,
    mailing: Object.freeze({
      editFormUrl: (id: number, site: Site) =>
        editFormUrl === undefined ? site.apiLink(`/mailing/v1/forms/${id}`) : editFormUrl.replaceAll('{id}', String(id)),
      redirects: { ...options.redirects },
    }),
  });
}

/** The site as seen outside a request (in-process calls): its configured address, or localhost. */
export function siteOutsideRequests(deps: Pick<MailingDeps, 'site' | 'names'>): Site {
  return resolveSite(deps.site, undefined, deps.names);
}
