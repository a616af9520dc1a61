/**
 * One delivery attempt and what it leaves in the row: the outcome of a request, the retry schedule (exponential
 * backoff with jitter, within the retry window and attempt budget) and which failures are final.
 */
import { isOutboundError, type HttpClient } from '../ports/http-client.js';
import type { DeliveryRecord } from './records.js';
import { signatureHeader } from './signature.js';

export interface RetryPolicy {
  /** Delay before the second attempt; each later one doubles it (default 10 s). */
  baseDelayMs: number;
  /** The longest delay between two attempts (default 1 h). */
  maxDelayMs: number;
  /** Attempts in all, the first included (default 20). */
  maxAttempts: number;
  /** How long after its event a delivery is still tried (default 24 h). */
  maxAgeMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = Object.freeze({ baseDelayMs: 10_000, maxDelayMs: 3_600_000, maxAttempts: 20, maxAgeMs: 24 * 3_600_000 });

export interface AttemptOutcome {
  ok: boolean;
  /** Whether trying again may help (5xx, 408, 429, a timeout or a network failure). */
  retryable: boolean;
  status: number | null;
  error: string | null;
}

const MAX_ERROR_LENGTH = 500;

export async function sendDelivery(client: HttpClient, delivery: DeliveryRecord, payload: string, secret: string, unixSeconds: number, timeoutMs: number): Promise<AttemptOutcome> {
  try {
    const response = await client.fetch({
      url: delivery.target,
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'user-agent': 'quire-webhooks',
        'x-quire-event': delivery.event,
        'x-quire-delivery': String(delivery.id),
        'idempotency-key': delivery.event_id,
        'x-quire-signature': signatureHeader(secret, unixSeconds, payload),
      },
      body: payload,
      timeoutMs,
      maxRedirects: 0,
      maxBytes: 4096,
      truncate: true,
    });
    if (response.status >= 200 && response.status < 300) return { ok: true, retryable: false, status: response.status, error: null };
    const retryable = response.status >= 500 || response.status === 408 || response.status === 429;
    const reason = response.status >= 300 && response.status < 400 ? 'redirects are not followed' : 'the receiver refused it';
    return { ok: false, retryable, status: response.status, error: `HTTP ${response.status}: ${reason}.` };
  } catch (error) {
    if (isOutboundError(error)) {
      const retryable = error.code === 'timeout' || error.code === 'network_error' || error.code === 'dns_failure';
      return { ok: false, retryable, status: null, error: `${error.code}: ${error.message}`.slice(0, MAX_ERROR_LENGTH) };
    }
    return { ok: false, retryable: true, status: null, error: `network_error: ${String((error as Error)?.message ?? error)}`.slice(0, MAX_ERROR_LENGTH) };
  }
}

/** The delay before attempt `attempts + 1`: doubling from the base, capped, with jitter over its upper half. */
export function backoffMs(attempts: number, policy: RetryPolicy, random: () => number = Math.random): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.min(Math.max(attempts - 1, 0), 40));
  return Math.round(ceiling / 2 + (ceiling / 2) * random());
}

/** The row's fields after an attempt that ended with `outcome` at `now`. */
export function afterAttempt(delivery: DeliveryRecord, outcome: AttemptOutcome, now: number, policy: RetryPolicy): Partial<DeliveryRecord> {
  const common = { lease_until: 0, lease_owner: null, last_error: outcome.error, response_status: outcome.status };
  if (outcome.ok) return { ...common, state: 'delivered', finished: now };
  const next = now + backoffMs(delivery.attempts, policy);
  if (!outcome.retryable || delivery.attempts >= policy.maxAttempts || next > delivery.expires) {
    return { ...common, state: 'failed', finished: now };
  }
  return { ...common, state: 'pending', due: next };
}

export function checkRetryPolicy(policy: Partial<RetryPolicy> | undefined): RetryPolicy {
  const merged = { ...DEFAULT_RETRY, ...policy };
  for (const [name, value] of Object.entries(merged)) {
    if (typeof value !== 'number' || !Number.isFinite(value) || value < (name === 'maxAttempts' ? 1 : 0)) {
      throw new RangeError(`webhooks.retry.${name} must be a number of at least ${name === 'maxAttempts' ? 1 : 0}.`);
    }
  }
  return merged;
}
