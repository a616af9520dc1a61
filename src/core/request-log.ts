/**
 * The request log: one entry per answered request, made where every request passes once with its final status
 * (the core), so that every adapter and in-process `cms.handle` calls report alike. Runtime-neutral.
 */
import type { CmsRequest, ParamMap, ParamValue } from './types.js';

/** One answered request, as the `onRequest` hook of `createCms` receives it. */
export interface RequestLogEntry {
  /** When the request arrived, in milliseconds since 1970 (`Date.now()`). */
  time: number;
  method: string;
  /** The path from the site root with its query, values of secret-bearing parameters replaced by `[redacted]`. */
  path: string;
  status: number;
  /** Length of the encoded body sent (0 for none). */
  bytes: number;
  /** Milliseconds from arrival to the encoded answer. */
  durationMs: number;
  /** The client address as the adapter resolved it, or null when unknown. */
  clientAddress: string | null;
  /** The authenticated user's id, or null for an anonymous caller. */
  userId: number | null;
}

export type RequestLogHook = (entry: RequestLogEntry) => void;

export const REDACTED = '[redacted]';

/** Query keys (or their last part: `a_token`, `api-key`) whose values never reach a log. */
const SECRET_KEY = /(?:^|[_-])(?:password|passwd|pwd|token|key|secret|hash|nonce|signature)$|^_?wpnonce$/i;

/** Whether a key (or any of its bracketed parts: `data[password]`) names a secret. */
export function isSecretKey(name: string): boolean {
  return name.split(/[[\]]+/).some((part) => part !== '' && SECRET_KEY.test(part));
}

/** The query string with the values of secret-bearing keys redacted; keys keep their raw spelling. */
export function redactQuery(query: CmsRequest['query']): string {
  if (query === undefined || query === '') return '';
  if (typeof query !== 'string') return redactParams(query);
  let redacted = redactedQueries.get(query);
  if (redacted === undefined) {
    redacted = redactText(query);
    if (query.length <= MAX_REMEMBERED_QUERY_LENGTH) {
      if (redactedQueries.size >= MAX_REMEMBERED_QUERIES) redactedQueries.clear();
      redactedQueries.set(query, redacted);
    }
  }
  return redacted;
}

/** Query strings logged lately, redacted: a server sees the same few again and again. Bounded. */
const redactedQueries = new Map<string, string>();
const MAX_REMEMBERED_QUERIES = 500;
const MAX_REMEMBERED_QUERY_LENGTH = 1000;

function redactText(query: string): string {
  return query.split('&').map((pair) => {
    const mark = pair.indexOf('=');
    if (mark === -1) return pair;
    let name = pair.slice(0, mark);
    try {
      name = decodeURIComponent(name.replace(/\+/g, ' '));
    } catch {
      // A malformed escape: judge the raw spelling.
    }
    return isSecretKey(name) ? `${pair.slice(0, mark)}=${REDACTED}` : pair;
  }).join('&');
}

function redactParams(params: ParamMap): string {
  const pairs: string[] = [];
  const walk = (name: string, value: ParamValue, secret: boolean) => {
    if (typeof value === 'string') pairs.push(`${name}=${secret ? REDACTED : encodeURIComponent(value)}`);
    else for (const [key, inner] of Object.entries(value)) walk(`${name}[${Array.isArray(value) ? '' : encodeURIComponent(key)}]`, inner, secret || isSecretKey(key));
  };
  for (const [name, value] of Object.entries(params)) walk(encodeURIComponent(name), value, isSecretKey(name));
  return pairs.join('&');
}

/** The logged path: API root and route path, then the redacted query. */
export function loggedPath(apiRoot: string, request: CmsRequest): string {
  const query = redactQuery(request.query);
  const path = `${apiRoot}${request.path || '/'}`;
  return query === '' ? path : `${path}?${query}`;
}

/**
 * The client address to log. Adapters pass the one they resolved (the socket's, or the forwarded one when they
 * trust a proxy); kept in one place so that the address the core resolves replaces it here alone.
 */
export function clientAddressOf(request: CmsRequest): string | null {
  return request.remoteAddress ?? null;
}
