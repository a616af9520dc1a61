/**
 * The mailing-list provider port: where sign-ups go. The default keeps subscribers in storage with double
 * opt-in (`createLocalMailingProvider`); `createMailchimpProvider` sends them to Mailchimp's Marketing API.
 * A host may pass its own implementation.
 */

export type SubscriberStatus = 'pending' | 'subscribed' | 'unsubscribed';

/** A merge-field value: text, or a list or map of text (an address's parts, a group of checkboxes). */
export type MergeValue = string | string[] | Record<string, string>;

export interface SubscriberTag {
  name: string;
  /** `active` adds the tag, `inactive` removes it. */
  status: 'active' | 'inactive';
}

/** One sign-up, already validated: the same subscriber for every list in `lists`. */
export interface SubscribeRequest {
  /** At least one list id. */
  lists: string[];
  email: string;
  /** Upper-case merge tags (`FNAME`) → values; never `EMAIL`. */
  mergeFields: Record<string, MergeValue>;
  /** Interest (group) ids → chosen or not. */
  interests: Record<string, boolean>;
  tags: SubscriberTag[];
  emailType: 'html' | 'text';
  /** New subscribers start `pending` (a confirmation is sent) instead of `subscribed`. */
  doubleOptin: boolean;
  /** Whether a subscriber who is already `subscribed` may be updated; otherwise that is `already_subscribed`. */
  updateExisting: boolean;
  /** On such an update, interests not chosen now are turned off rather than kept. */
  replaceInterests: boolean;
  ipSignup?: string;
  language?: string;
  /** The sign-up form the request came through. */
  formId?: number;
}

/** Where the sign-up was made: what a confirmation message needs to name the site and link back to it. */
export interface SignupOrigin {
  siteName: string;
  /** Address of the confirmation link carrying `token`. */
  confirmUrl(token: string): string;
  /** Address of the unsubscribe link carrying `token`. */
  unsubscribeUrl(token: string): string;
}

export interface SubscribeResult {
  /** `updated` when the subscriber was already subscribed to the (last) list and was updated. */
  outcome: 'subscribed' | 'updated';
}

/** What a confirmation or unsubscribe link did. */
export interface TokenOutcome {
  email: string;
  lists: string[];
  status: SubscriberStatus;
}

export interface Subscriber {
  id: number;
  list: string;
  email: string;
  status: SubscriberStatus;
  mergeFields: Record<string, MergeValue>;
  interests: Record<string, boolean>;
  tags: string[];
  emailType: 'html' | 'text';
  ipSignup: string | null;
  language: string | null;
  formId: number | null;
  /** UTC, `YYYY-MM-DDTHH:MM:SS`. */
  created: string;
  modified: string;
  confirmed: string | null;
}

export interface SubscriberQuery {
  list: string;
  status?: SubscriberStatus;
  /** 1-based. */
  page: number;
  perPage: number;
}

export interface SubscriberPage {
  items: Subscriber[];
  total: number;
}

/** Why a provider call failed. */
export type MailingListErrorCode =
  /** The subscriber is already `subscribed` and updates are not allowed. */
  | 'already_subscribed'
  /** The provider answered with an error (`status` holds its HTTP status). */
  | 'provider_error'
  /** The provider could not be reached. */
  | 'connection_error'
  /** A confirmation message could not be sent. */
  | 'mail_failed'
  /** A confirmation or unsubscribe token is malformed, forged, or no longer matches a subscriber. */
  | 'invalid_token'
  | 'expired_token';

export class MailingListError extends Error {
  readonly code: MailingListErrorCode;
  /** The provider's HTTP status, for `provider_error`. */
  readonly status: number | undefined;

  constructor(code: MailingListErrorCode, message: string, status?: number) {
    super(message);
    this.name = 'MailingListError';
    this.code = code;
    this.status = status;
  }
}

export function isMailingListError(error: unknown): error is MailingListError {
  return error instanceof MailingListError;
}

export interface MailingListProvider {
  /**
   * Adds or updates the subscriber on every list, in order; the last list's result is the answer (as the
   * reference's plugin reports it). Rejects with `MailingListError`.
   */
  subscribe(request: SubscribeRequest, origin: SignupOrigin): Promise<SubscribeResult>;
  /**
   * Whether the provider has this list. A sign-up naming a list the provider does not have is refused before
   * `subscribe` is called (without this method every list is taken). Rejects with `MailingListError` when the
   * provider cannot tell.
   */
  hasList?(list: string): Promise<boolean>;
  /** Confirms a double opt-in from the token of a confirmation link (providers that send their own links). */
  confirm?(token: string): Promise<TokenOutcome>;
  /** Unsubscribes from the token of an unsubscribe link. */
  unsubscribe?(token: string): Promise<TokenOutcome>;
  /** One page of a list's subscribers, ordered by email address. */
  listSubscribers?(query: SubscriberQuery): Promise<SubscriberPage>;
}
