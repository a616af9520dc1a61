/**
 * The default mailing-list provider: subscribers kept through the storage port, with double opt-in by email.
 *
 * Per list it follows the member rules of the reference plugin: a subscriber who is already `subscribed` is
 * `already_subscribed` unless the form allows updates (then merge fields, interests and tags are updated and the
 * answer is `updated`); anyone else becomes `pending` (double opt-in) or `subscribed`. Every list that leaves a
 * subscriber `pending` is named in one confirmation message whose link carries a fresh nonce, so signing up
 * again while pending re-sends the message and retires the older link — but not within a minute of the last
 * message to that address, whatever its lists (`resendAfterSeconds`), so the public sign-up route cannot be used
 * to flood someone's inbox. With `knownLists`, the provider has only those lists (`hasList`).
 */
import { randomBytes } from 'node:crypto';
import type { SiteSecret } from '../../../auth/index.js';
import { formatUtc, parseStored } from '../../../content/post-type/index.js';
import type { Clock } from '../../../ports/clock.js';
import type { Mailer } from '../../../ports/mailer.js';
import {
  isMailingListError,
  MailingListError,
  type MailingListProvider,
  type SignupOrigin,
  type SubscribeRequest,
  type SubscribeResult,
  type SubscriberPage,
  type SubscriberQuery,
  type TokenOutcome,
} from '../../../ports/mailing-list.js';
import type { StoragePort } from '../../../ports/storage.js';
import { confirmationMessage, defaultConfirmationMail, defaultSender, type ConfirmationMailComposer } from './confirmation-mail.js';
import { loadedOnce, siteSecret, storedSecret } from './secret.js';
import { lastMailed, forgetMailed, noteMailed } from './mailed.js';
import {
  findSubscriber,
  insertSubscriber,
  listSubscriberRecords,
  updateSubscriber,
  type NewSubscriber,
  type SubscriberRecord,
} from './subscribers.js';
import { createToken, readToken, type TokenPurpose } from './tokens.js';

export interface LocalMailingProviderOptions {
  storage: StoragePort;
  mailer: Mailer;
  clock: Clock;
  /** Signs link tokens (at least 16 characters); default: a key derived from `siteSecret`. */
  secret?: string;
  /** The site secret (a `Cms` passes its own); without it or `secret`, a secret of its own is kept in storage. */
  siteSecret?: SiteSecret;
  /** How long a confirmation link works, in seconds (default 7 days). */
  confirmTtlSeconds?: number;
  /** How long an unsubscribe link works, in seconds (default 365 days). */
  unsubscribeTtlSeconds?: number;
  /** A pending subscriber gets another confirmation message only this long after the last one (default 60 s). */
  resendAfterSeconds?: number;
  /** Sender of confirmation messages; default `"<site name>" <noreply@<site host>>`. */
  from?: string;
  /** The wording of confirmation messages. */
  confirmationMail?: ConfirmationMailComposer;
  /** The lists this provider has; without it every list id is taken. */
  knownLists?: () => Promise<ReadonlySet<string>>;
}

export interface LocalMailingProvider extends MailingListProvider {
  confirm: NonNullable<MailingListProvider['confirm']>;
  unsubscribe: NonNullable<MailingListProvider['unsubscribe']>;
  listSubscribers: NonNullable<MailingListProvider['listSubscribers']>;
  /** A token for an unsubscribe link (for the host's own newsletters). */
  unsubscribeToken(email: string, lists: string[]): Promise<string>;
}

const DAY = 86_400;

/**
 * What link tokens are signed with: the given secret; else a secret this provider stored before the site secret
 * existed (so links already mailed keep working); else the site secret's `mailing/links` key; without a site
 * secret, one stored now.
 */
function linkKey(options: LocalMailingProviderOptions): () => Promise<string | Buffer> {
  const site = options.siteSecret;
  if (options.secret !== undefined || site === undefined) return siteSecret(options.storage, options.secret);
  return loadedOnce<string | Buffer>(async () => {
    const older = await storedSecret(options.storage);
    if (older !== null) return older;
    await site.ready();
    return site.key('mailing/links');
  });
}

export function createLocalMailingProvider(options: LocalMailingProviderOptions): LocalMailingProvider {
  const { storage, mailer, clock } = options;
  const secret = linkKey(options);
  const confirmTtl = options.confirmTtlSeconds ?? 7 * DAY;
  const unsubscribeTtl = options.unsubscribeTtlSeconds ?? 365 * DAY;
  const resendAfterMs = (options.resendAfterSeconds ?? 60) * 1000;
  const compose = options.confirmationMail ?? defaultConfirmationMail;
  const nowSeconds = () => Math.floor(clock.now().getTime() / 1000);

  async function token(purpose: TokenPurpose, email: string, lists: string[], nonce: string, ttl: number): Promise<string> {
    return createToken(await secret(), { purpose, email, lists, nonce, expires: nowSeconds() + ttl });
  }

  /** Sign-ups of one address run one at a time, so that two at once cannot both decide to mail it. */
  const signupsByAddress = new Map<string, Promise<unknown>>();
  function oneAtATime<T>(email: string, task: () => Promise<T>): Promise<T> {
    const result = (signupsByAddress.get(email) ?? Promise.resolve()).then(task);
    const settled = result.then(() => undefined, () => undefined);
    signupsByAddress.set(email, settled);
    void settled.then(() => {
      if (signupsByAddress.get(email) === settled) signupsByAddress.delete(email);
    });
    return result;
  }

  /**
   * Adds or updates one list's subscriber; returns whether a confirmation message should name the list
   * (`mayMail`: no message went to the address lately).
   */
  async function subscribeToList(list: string, request: SubscribeRequest, email: string, nonce: string, mayMail: boolean): Promise<{ result: SubscribeResult; mail: boolean }> {
    return storage.transaction(async (tx) => {
      const existing = await findSubscriber(tx, list, email);
      const now = formatUtc(clock.now());
      const wanted = request.doubleOptin ? 'pending' : 'subscribed';
      let status: SubscriberRecord['status'] = wanted;
      let interests = { ...request.interests };
      let outcome: SubscribeResult['outcome'] = 'subscribed';
      if (existing?.status === 'subscribed') {
        if (!request.updateExisting) throw new MailingListError('already_subscribed', 'That subscriber already exists.');
        status = 'subscribed';
        outcome = 'updated';
        const kept = request.replaceInterests
          ? Object.fromEntries(Object.keys(existing.interests).map((id) => [id, false]))
          : existing.interests;
        interests = { ...kept, ...request.interests };
      } else if (existing) {
        interests = { ...existing.interests, ...request.interests };
      }
      const tags = new Set(existing?.tags ?? []);
      for (const tag of request.tags) {
        if (tag.status === 'active') tags.add(tag.name);
        else tags.delete(tag.name);
      }
      const fields: Partial<NewSubscriber> = {
        status,
        merge_fields: { ...existing?.merge_fields, ...request.mergeFields },
        interests,
        tags: [...tags],
        email_type: request.emailType,
        ip_signup: request.ipSignup ?? existing?.ip_signup ?? null,
        language: request.language ?? existing?.language ?? null,
        form_id: request.formId ?? existing?.form_id ?? null,
        modified: now,
        confirm_nonce: existing?.confirm_nonce ?? null,
        confirm_sent: existing?.confirm_sent ?? null,
      };
      const sentLately = existing?.status === 'pending' && existing.confirm_sent !== null
        && clock.now().getTime() - parseStored(existing.confirm_sent).getTime() < resendAfterMs;
      const mail = status === 'pending' && mayMail && !sentLately;
      if (mail) {
        fields.confirm_nonce = nonce;
        fields.confirm_sent = now;
      }
      if (status === 'subscribed' && existing?.status !== 'subscribed') fields.confirmed = now;
      if (existing) await updateSubscriber(tx, existing.id, fields);
      else await insertSubscriber(tx, { list, email, created: now, confirmed: null, ...fields } as NewSubscriber);
      return { result: { outcome }, mail };
    });
  }

  async function sendConfirmation(email: string, lists: string[], nonce: string, origin: SignupOrigin): Promise<void> {
    const confirmUrl = origin.confirmUrl(await token('confirm', email, lists, nonce, confirmTtl));
    const unsubscribeUrl = origin.unsubscribeUrl(await token('unsubscribe', email, lists, '', unsubscribeTtl));
    const details = {
      siteName: origin.siteName, email, lists, confirmUrl, unsubscribeUrl, expires: new Date((nowSeconds() + confirmTtl) * 1000),
    };
    const message = confirmationMessage(details, compose, options.from ?? defaultSender(origin.siteName, confirmUrl));
    await noteMailed(storage, email, formatUtc(clock.now()));
    try {
      await mailer.send(message);
    } catch {
      // Nothing was sent, so the next sign-up may send at once.
      await forgetMailed(storage, email);
      for (const list of lists) {
        const subscriber = await findSubscriber(storage, list, email);
        if (subscriber) await updateSubscriber(storage, subscriber.id, { confirm_sent: null });
      }
      throw new MailingListError('mail_failed', 'The confirmation message could not be sent.');
    }
  }

  return {
    subscribe(request, origin) {
      const email = request.email.toLowerCase();
      return oneAtATime(email, async () => {
        const nonce = randomBytes(12).toString('base64url');
        const mailed = await lastMailed(storage, email);
        const mayMail = mailed === null || clock.now().getTime() - parseStored(mailed).getTime() >= resendAfterMs;
        const mailLists: string[] = [];
        let last: SubscribeResult | MailingListError = new MailingListError('provider_error', 'No list was given.');
        for (const list of request.lists) {
          try {
            const { result, mail } = await subscribeToList(list, request, email, nonce, mayMail);
            if (mail) mailLists.push(list);
            last = result;
          } catch (error) {
            if (!isMailingListError(error)) throw error;
            last = error;
          }
        }
        if (mailLists.length > 0) await sendConfirmation(email, mailLists, nonce, origin);
        if (last instanceof MailingListError) throw last;
        return last;
      });
    },

    ...(options.knownLists ? { hasList: async (list: string) => (await options.knownLists!()).has(list) } : {}),

    async confirm(tokenText) {
      const payload = readToken(await secret(), tokenText, 'confirm', nowSeconds());
      const confirmed: string[] = [];
      for (const list of payload.lists) {
        const done = await storage.transaction(async (tx) => {
          const subscriber = await findSubscriber(tx, list, payload.email);
          if (!subscriber || subscriber.confirm_nonce !== payload.nonce) return false;
          if (subscriber.status === 'pending') {
            const now = formatUtc(clock.now());
            await updateSubscriber(tx, subscriber.id, { status: 'subscribed', confirmed: now, modified: now });
          }
          return subscriber.status !== 'unsubscribed';
        });
        if (done) confirmed.push(list);
      }
      if (confirmed.length === 0) throw new MailingListError('invalid_token', 'The link is no longer valid.');
      return { email: payload.email, lists: confirmed, status: 'subscribed' } satisfies TokenOutcome;
    },

    async unsubscribe(tokenText) {
      const payload = readToken(await secret(), tokenText, 'unsubscribe', nowSeconds());
      for (const list of payload.lists) {
        await storage.transaction(async (tx) => {
          const subscriber = await findSubscriber(tx, list, payload.email);
          if (!subscriber || subscriber.status === 'unsubscribed') return;
          await updateSubscriber(tx, subscriber.id, { status: 'unsubscribed', confirm_nonce: null, confirm_sent: null, modified: formatUtc(clock.now()) });
        });
      }
      return { email: payload.email, lists: payload.lists, status: 'unsubscribed' } satisfies TokenOutcome;
    },

    listSubscribers: (query: SubscriberQuery): Promise<SubscriberPage> => listSubscriberRecords(storage, query),

    unsubscribeToken: (email, lists) => token('unsubscribe', email.toLowerCase(), lists, '', unsubscribeTtl),
  };
}
