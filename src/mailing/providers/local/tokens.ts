/**
 * The tokens of confirmation and unsubscribe links: `v1.<payload>.<signature>`, both base64url, the payload a
 * small JSON object (purpose, email, lists, nonce, expiry in unix seconds), the signature an HMAC-SHA256 of
 * the payload text under the site's secret. The signature is checked (in constant time) before the payload
 * is parsed, and expiry only once the signature holds, so a forged token never reads as merely expired.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { MailingListError } from '../../../ports/mailing-list.js';

export type TokenPurpose = 'confirm' | 'unsubscribe';

export interface TokenPayload {
  purpose: TokenPurpose;
  email: string;
  lists: string[];
  /** Ties a confirmation link to one sign-up: a later sign-up (or an unsubscribe) makes older links stale. */
  nonce: string;
  /** Unix seconds. */
  expires: number;
}

const MAX_TOKEN_LENGTH = 4096;
const PURPOSES: Record<TokenPurpose, string> = { confirm: 'c', unsubscribe: 'u' };

function sign(secret: string | Buffer, payloadText: string): Buffer {
  return createHmac('sha256', secret).update(`quire-mailing-token.${payloadText}`).digest();
}

export function createToken(secret: string | Buffer, payload: TokenPayload): string {
  const text = Buffer.from(JSON.stringify({
    p: PURPOSES[payload.purpose], e: payload.email, l: payload.lists, n: payload.nonce, x: payload.expires,
  })).toString('base64url');
  return `v1.${text}.${sign(secret, text).toString('base64url')}`;
}

function invalid(): MailingListError {
  return new MailingListError('invalid_token', 'The link is not valid.');
}

/** The payload of a token made with `secret` for `purpose`; `invalid_token` or `expired_token` otherwise. */
export function readToken(secret: string | Buffer, token: string, purpose: TokenPurpose, nowSeconds: number): TokenPayload {
  if (token.length > MAX_TOKEN_LENGTH) throw invalid();
  const parts = token.split('.');
  if (parts.length !== 3 || parts[0] !== 'v1') throw invalid();
  const [, text, signature] = parts as [string, string, string];
  if (!/^[A-Za-z0-9_-]+$/.test(text) || !/^[A-Za-z0-9_-]{43}$/.test(signature)) throw invalid();
  const expected = sign(secret, text);
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw invalid();

  let raw: unknown;
  try {
    raw = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  const { p, e, l, n, x } = (raw ?? {}) as Record<string, unknown>;
  if (p !== PURPOSES[purpose] || typeof e !== 'string' || typeof n !== 'string' || typeof x !== 'number'
    || !Array.isArray(l) || !l.every((list) => typeof list === 'string')) {
    throw invalid();
  }
  if (x < nowSeconds) throw new MailingListError('expired_token', 'The link has expired.');
  return { purpose, email: e, lists: l as string[], nonce: n, expires: x };
}
