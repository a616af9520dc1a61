/**
 * What the forms resource is given: the ports it uses, the site settings it reads, and the host's options (the
 * hashing secret, spam and pre-send hooks, formats).
 */
import type { Throttles } from '../auth/index.js';
import { createHmac } from 'node:crypto';
import type { CmsDeps } from '../deps.js';
import type { SubmissionSummary } from './submission/summary.js';

export interface FormsDeps extends Pick<CmsDeps, 'storage' | 'clock' | 'mailer' | 'site' | 'names' | 'blobs' | 'capabilityRules' | 'secret'> {
  /** The per-client feedback limit lives in `throttles.feedback`; none: no limit. */
  readonly throttles?: Pick<Throttles, 'feedback'>;
}

/** What a spam check answers: true (or a reason) for spam. */
export type SpamVerdict = boolean | string;

/** What a pre-send hook answers: nothing to go on, or `{abort: true}` (with a message to show) to stop. */
export type BeforeSendMailVerdict = void | undefined | { abort?: boolean; message?: string };

export interface FormsOptions {
  /**
   * The key of the quiz-answer and posted-data hashes. Default: keys derived from the site secret
   * (`createCms({ secret })`), which every process of the site shares; set this only to keep an older key.
   */
  secret?: string;
  /** An extra spam check, run after the built-in ones (user agent, disallowed words, honeypots). */
  spamCheck?: (submission: SubmissionSummary) => SpamVerdict | Promise<SpamVerdict>;
  /** Runs after every check passed, before mail is sent; may stop the submission (status `aborted`). */
  beforeSendMail?: (submission: SubmissionSummary) => BeforeSendMailVerdict | Promise<BeforeSendMailVerdict>;
  /** Keep accepted submissions for the form's editors (default true). */
  keepSubmissions?: boolean;
  /** PHP date formats of `[_date]` and `[_time]` (default `F j, Y` and `g:i a`). */
  dateFormat?: string;
  timeFormat?: string;
  /** The largest upload a form may declare (`limit:`) without a configuration error; default 8 MiB. */
  maxUploadBytes?: number;
}

export interface FormsRuntime {
  readonly deps: FormsDeps;
  readonly options: Readonly<FormsOptions>;
  /** HMAC-MD5 of a value under a purpose (`wpcf7_quiz`, `wpcf7_submission`): 32 hex characters. */
  hash(value: string, purpose: string): string;
  readonly adminEmail: string;
  readonly locale: string;
  readonly dateFormat: string;
  readonly timeFormat: string;
  readonly maxUploadBytes: number;
}

const runtimes = new WeakMap<object, FormsRuntime>();

/** One runtime per dependency object, so the routes and the in-process API share the secret. */
export function formsRuntime(deps: FormsDeps, options: FormsOptions = {}): FormsRuntime {
  const existing = runtimes.get(deps);
  if (existing) return existing;
  const { secret } = options;
  const keyOf = secret === undefined ? (purpose: string) => deps.secret.key(`forms/${purpose}`) : (purpose: string) => `${secret}:${purpose}`;
  const runtime: FormsRuntime = {
    deps,
    options,
    hash: (value, purpose) => createHmac('md5', keyOf(purpose)).update(value).digest('hex'),
    adminEmail: deps.site.adminEmail ?? 'admin@example.com',
    locale: deps.site.locale ?? 'en_US',
    dateFormat: options.dateFormat ?? 'F j, Y',
    timeFormat: options.timeFormat ?? 'g:i a',
    maxUploadBytes: options.maxUploadBytes ?? 8 * 1024 * 1024,
  };
  runtimes.set(deps, runtime);
  return runtime;
}
