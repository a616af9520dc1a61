import { isHttpUrl } from '../format/url.js';
import type { Refuse } from './log-args.js';

/** What `--webhook` (repeatable) and its environment give `serve`: fixed targets, their key, the first retry delay. */
export interface WebhookChoice {
  targets: string[];
  secret: string;
  retryBaseMs: number | undefined;
  /** The deadline of one delivery (`QUIRE_WEBHOOK_TIMEOUT_MS`). */
  timeoutMs: number | undefined;
}

const MIN_SECRET_LENGTH = 16;

/**
 * The fixed webhook targets: absolute http or https URLs, trusted (loopback included), signed with
 * `QUIRE_WEBHOOK_SECRET`. None given: undefined.
 */
export function webhooksOf(values: readonly string[] | undefined, environment: NodeJS.ProcessEnv, refuse: Refuse): WebhookChoice | undefined {
  const retry = environment.QUIRE_WEBHOOK_RETRY_MS || undefined;
  if (retry !== undefined && !/^\d{1,9}$/.test(retry)) refuse(`QUIRE_WEBHOOK_RETRY_MS must be a whole number of milliseconds, not '${retry}'`);
  const retryBaseMs = retry === undefined ? undefined : Number(retry);
  const timeout = environment.QUIRE_WEBHOOK_TIMEOUT_MS || undefined;
  if (timeout !== undefined && !/^[1-9]\d{0,6}$/.test(timeout)) refuse(`QUIRE_WEBHOOK_TIMEOUT_MS must be a whole number of milliseconds from 1, not '${timeout}'`);
  const timeoutMs = timeout === undefined ? undefined : Number(timeout);
  if (values === undefined || values.length === 0) {
    return retryBaseMs === undefined && timeoutMs === undefined ? undefined : { targets: [], secret: '', retryBaseMs, timeoutMs };
  }
  for (const value of values) {
    if (!isHttpUrl(value)) refuse(`--webhook must be an http or https URL, not '${value}'`);
  }
  const secret = environment.QUIRE_WEBHOOK_SECRET ?? '';
  if (secret.length < MIN_SECRET_LENGTH) refuse(`--webhook needs QUIRE_WEBHOOK_SECRET, the key deliveries are signed with (at least ${MIN_SECRET_LENGTH} characters)`);
  return { targets: [...new Set(values)], secret, retryBaseMs, timeoutMs };
}
