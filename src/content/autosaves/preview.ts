/**
 * Preview addresses of autosaves. An autosave revision previews through its post's address with
 * `preview_id={post}&preview_nonce={token}&preview=true`; the token is bound to the user, the post and a
 * twelve-hour window (valid for two windows), like the reference's nonces. A post updated in place by an
 * autosave previews at its own address with `preview=true`.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

const WINDOW_SECONDS = 12 * 60 * 60;

function windowOf(at: Date): number {
  return Math.ceil(at.getTime() / 1000 / WINDOW_SECONDS);
}

function tokenFor(secret: string | Buffer, window: number, userId: number, postId: number): string {
  return createHmac('sha256', secret).update(`${window}|post_preview_${postId}|${userId}`).digest('hex').slice(-12, -2);
}

/** A ten-character token letting `userId` preview the autosave of `postId`. */
export function previewToken(secret: string | Buffer, userId: number, postId: number, now: Date): string {
  return tokenFor(secret, windowOf(now), userId, postId);
}

/** Whether a token was made for this user and post in the current or the previous window. */
export function isValidPreviewToken(secret: string | Buffer, token: string, userId: number, postId: number, now: Date): boolean {
  const given = Buffer.from(token);
  const current = windowOf(now);
  return [current, current - 1].some((window) => {
    const expected = Buffer.from(tokenFor(secret, window, userId, postId));
    return expected.length === given.length && timingSafeEqual(expected, given);
  });
}

/** `address` with query arguments added after any it already has. */
export function withQuery(address: string, query: Record<string, string | number>): string {
  const pairs = Object.entries(query).map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(String(value))}`);
  if (pairs.length === 0) return address;
  return `${address}${address.includes('?') ? '&' : '?'}${pairs.join('&')}`;
}
