/**
 * Signing deliveries: `X-Quire-Signature: t=<unix seconds>,v1=<hex>`, the HMAC-SHA256 of `${t}.${body}` under the
 * subscription's secret. The timestamp inside the signed text lets a receiver refuse replays of old deliveries.
 */
import { createHmac, randomBytes } from 'node:crypto';

export const SIGNATURE_HEADER = 'x-quire-signature';

export function signatureHeader(secret: string, unixSeconds: number, body: string): string {
  const digest = createHmac('sha256', secret).update(`${unixSeconds}.${body}`).digest('hex');
  return `t=${unixSeconds},v1=${digest}`;
}

/** A new subscription secret: 32 random bytes, base64url, prefixed so it is recognised in a leak. */
export function newSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}
