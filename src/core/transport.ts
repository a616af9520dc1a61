/**
 * The HTTP side of an answer, apart from routing: what the outer request says about itself (method override,
 * `rest_route`, output switches) and what every answer carries (fixed headers, CORS, no-cache, JSONP, pretty
 * printing, the `_envelope` wrapper).
 */
import type { Principal } from './context.js';
import { CmsError } from './errors.js';
import { toSafeTree } from './safe-object.js';
import { parsedQuery } from './params-memo.js';
import { parseList } from './shape.js';
import type { Site } from './site.js';
import type { CmsRequest, HeaderMap, ParamMap } from './types.js';

/**
 * The most characters a query string may hold (more is 414 `rest_request_uri_too_long`, before anything reads it):
 * it is decoded in one call, 2–6 ms a mebibyte. Web servers take far less (Apache 8,190 bytes of request line,
 * Node 16 KiB of headers); an in-process caller or an adapter with a larger limit could send 21 MiB, decoded in
 * 75 ms at once.
 */
export const MAX_QUERY_STRING_LENGTH = 1024 * 1024;

/** The outer request as the dispatcher reads it, once. */
export interface Incoming {
  /** The method as sent (HEAD answers have no body, CORS and `Vary` follow it). */
  realMethod: string;
  /** The effective method, after `?_method=` or `X-HTTP-Method-Override`. */
  method: string;
  /** Whether the method came from the `X-HTTP-Method-Override` header. */
  overrideHeader: boolean;
  /** The route path: `?rest_route=` when given, else the request path; trailing slashes removed. */
  path: string;
  query: ParamMap;
  /** The query string `query` was parsed from, when the request sent one as text (null: the host parsed it). */
  queryText: string | null;
  /** Header names lower-cased, repeated values joined with `,`. */
  headers: Record<string, string>;
  /** `_embed` (all links, or the rels named), null when not asked. */
  embed: true | string[] | null;
  envelope: boolean;
  /** Whether `_jsonp` is in the query. */
  jsonp: boolean;
}

/** An answer before the transport headers: a JSON value, or text/bytes for JSONP, pretty or own formats. */
export interface Answer {
  status: number;
  headers: Record<string, string | number>;
  body: unknown;
}

export const NO_CACHE = { Expires: 'Wed, 11 Jan 1984 05:00:00 GMT', 'Cache-Control': 'no-cache, must-revalidate, max-age=0' };

export function readIncoming(request: CmsRequest): Incoming {
  return new IncomingRequest(request);
}

/** `Incoming` as a class: its lazy members live on the prototype, so reading a request builds one plain object. */
class IncomingRequest implements Incoming {
  realMethod: string;
  method: string;
  overrideHeader: boolean;
  path: string;
  headers: Record<string, string>;
  envelope: boolean;
  jsonp: boolean;
  readonly queryText: string | null;
  readonly #embed: boolean;
  #query: ParamMap | undefined;

  constructor(request: CmsRequest) {
    const headers = normalizeHeaders(request.headers);
    const raw = typeof request.query === 'string' ? request.query : null;
    if (raw !== null && raw.length > MAX_QUERY_STRING_LENGTH) {
      throw new CmsError('rest_request_uri_too_long', `The query string is longer than the ${MAX_QUERY_STRING_LENGTH} characters allowed.`, 414, {
        max_length: MAX_QUERY_STRING_LENGTH,
      });
    }
    const facts = typeof request.query === 'string' ? factsOfText(request.query) : hostQueryFacts(request.query);
    const realMethod = request.method.toUpperCase();
    const override = headers['x-http-method-override'];
    this.realMethod = realMethod;
    this.method = facts.method ?? (override ? override.toUpperCase() : realMethod);
    this.overrideHeader = Boolean(override);
    this.path = routePath(facts.restRoute ?? request.path);
    this.headers = headers;
    this.envelope = facts.envelope;
    this.jsonp = facts.jsonp;
    this.queryText = raw;
    this.#embed = facts.embed;
    // A query string is parsed only when something reads it: a kept answer needs none of its parameters.
    this.#query = facts.query;
  }

  get query(): ParamMap {
    return (this.#query ??= parsedQuery(this.queryText!));
  }

  get embed(): true | string[] | null {
    return this.#embed ? embedParam(this.query._embed) : null;
  }
}

/** The route path: trailing slashes removed (`/` when nothing else is left). */
function routePath(path: string): string {
  if (path.charCodeAt(path.length - 1) !== 47 /* / */) return path === '' ? '/' : path;
  const trimmed = path.replace(/\/+$/, '');
  return trimmed === '' ? '/' : trimmed;
}

/** What a query says about the request itself, before any route reads it; `query` is set for a host's own map. */
interface QueryFacts {
  /** `_method`, upper-cased, when given and not empty. */
  method: string | null;
  restRoute: string | null;
  jsonp: boolean;
  embed: boolean;
  envelope: boolean;
  query?: ParamMap;
}

/** Parameters a host parsed itself are copied for every request (the copy is this request's). */
function hostQueryFacts(query: Exclude<CmsRequest['query'], string>): QueryFacts {
  const copy = safeParams(query);
  return { ...factsOf(copy), query: copy };
}

function factsOf(query: ParamMap): QueryFacts {
  return {
    method: typeof query._method === 'string' && query._method !== '' ? query._method.toUpperCase() : null,
    restRoute: typeof query.rest_route === 'string' && query.rest_route !== '' ? query.rest_route : null,
    jsonp: '_jsonp' in query,
    embed: '_embed' in query,
    envelope: '_envelope' in query,
  };
}

/**
 * The facts of query strings read lately: the same text always says the same, so a repeated query is not parsed
 * again to learn them. Bounded in entries and in the length of the text kept.
 */
const factsOfQueries = new Map<string, QueryFacts>();
const MAX_REMEMBERED_QUERIES = 500;
const MAX_REMEMBERED_QUERY_LENGTH = 1000;

function factsOfText(text: string): QueryFacts {
  const known = factsOfQueries.get(text);
  if (known) return known;
  const query = parsedQuery(text);
  const facts = factsOf(query);
  if (text.length <= MAX_REMEMBERED_QUERY_LENGTH) {
    if (factsOfQueries.size >= MAX_REMEMBERED_QUERIES) factsOfQueries.clear();
    factsOfQueries.set(text, facts);
  }
  // This request may read the map just parsed; the remembered facts never hold one.
  return { ...facts, query };
}

/** JSONP refused before anything else runs: disabled, or a callback name that is not a plain identifier path. */
export function jsonpRefusal(query: ParamMap, enabled: boolean): Answer | null {
  if (!('_jsonp' in query)) return null;
  if (!enabled) return { status: 400, headers: {}, body: { code: 'rest_callback_disabled', message: 'JSONP support is disabled on this site.' } };
  const callback = query._jsonp;
  if (typeof callback !== 'string' || !/^[\w.]+$/.test(callback)) {
    return { status: 400, headers: {}, body: { code: 'rest_callback_invalid', message: 'Invalid JSONP callback function.' } };
  }
  return null;
}

/** `_envelope`: the status and headers move into the body, and the answer itself is a 200. */
export function envelope(answer: Answer): Answer {
  const headers = Object.keys(answer.headers).length === 0 ? [] : answer.headers;
  return { status: 200, headers: {}, body: { body: answer.body, status: answer.status, headers } };
}

/** Pretty printing and JSONP wrapping: the body becomes text. */
export function formatBody(body: unknown, query: ParamMap): unknown {
  if (typeof query._jsonp === 'string') return `/**/${query._jsonp}(${JSON.stringify(body ?? null)})`;
  if ('_pretty' in query && body !== null && body !== undefined) return new TextEncoder().encode(JSON.stringify(body, null, 4));
  return body;
}

/**
 * The headers every answer starts with, and the answer's own laid over them (a route's `Link` replaces the
 * discovery link in its place), every value as text.
 */
export function answerHeaders(site: Site, headerPrefix: string, jsonp: boolean, own: Record<string, string | number>): Record<string, string> {
  const texts = fixedTexts(site, headerPrefix);
  // A literal: copying a kept object (by spread or `Object.assign`) makes a slower one to add the route's headers to.
  const headers: Record<string, string> = {
    'Content-Type': jsonp ? 'application/javascript; charset=UTF-8' : 'application/json; charset=UTF-8',
    'X-Robots-Tag': 'noindex',
    Link: texts.link,
    'X-Content-Type-Options': 'nosniff',
    'Access-Control-Expose-Headers': texts.exposed,
    'Access-Control-Allow-Headers': 'Authorization, X-WP-Nonce, Content-Disposition, Content-MD5, Content-Type',
  };
  // Own names by `for…in`: no list of them is made for every answer.
  for (const name in own) {
    if (!Object.hasOwn(own, name)) continue;
    const value = own[name];
    headers[name] = typeof value === 'string' ? value : String(value);
  }
  return headers;
}

/** The texts of the fixed headers that follow the site and prefix, spelt once while they stay the same. */
let lastTexts = { apiUrl: '', headerPrefix: '', link: '', exposed: '' };

function fixedTexts(site: Site, headerPrefix: string): { link: string; exposed: string } {
  if (lastTexts.apiUrl !== site.apiUrl || lastTexts.headerPrefix !== headerPrefix || lastTexts.link === '') {
    lastTexts = { apiUrl: site.apiUrl, headerPrefix, link: discoveryLink(site), exposed: `${headerPrefix}-Total, ${headerPrefix}-TotalPages, Link` };
  }
  return lastTexts;
}

/** The site-root discovery header value: `<{api root}/>; rel="https://api.w.org/"`. */
export function discoveryLink(site: Pick<Site, 'apiUrl'>): string {
  return `<${site.apiUrl}/>; rel="https://api.w.org/"`;
}

/** CORS and caching headers, which depend on the caller and the real method; laid over the answer's own. */
export function transportHeaders(incoming: Incoming, status: number, user: Principal | null): Record<string, string> {
  return addTransportHeaders({}, incoming, status, user);
}

/** `transportHeaders` laid over `headers` in place (the same names in the same order as `Object.assign` would). */
export function addTransportHeaders(headers: Record<string, string>, incoming: Incoming, status: number, user: Principal | null): Record<string, string> {
  const origin = incoming.headers.origin;
  if (origin !== undefined) {
    headers['Access-Control-Allow-Origin'] = origin === 'null' ? 'null' : sanitizeOrigin(origin);
    headers['Access-Control-Allow-Methods'] = 'OPTIONS, GET, POST, PUT, PATCH, DELETE';
    headers['Access-Control-Allow-Credentials'] = 'true';
    headers.Vary = 'Origin';
  } else if (incoming.realMethod === 'GET' && !user) {
    headers.Vary = 'Origin';
  }
  if (user || (incoming.overrideHeader && status >= 400 && status < 500)) Object.assign(headers, NO_CACHE);
  return headers;
}

export function normalizeHeaders(headers: HeaderMap | undefined): Record<string, string> {
  const normalized: Record<string, string> = {};
  if (headers === undefined) return normalized;
  // Key by key rather than through `Object.entries` or `Object.keys`: nothing is allocated per header, nor a list of names.
  for (const name in headers) {
    if (!Object.hasOwn(headers, name)) continue;
    const value = headers[name];
    if (value === undefined) continue;
    normalized[name.toLowerCase()] = Array.isArray(value) ? value.join(',') : value;
  }
  return normalized;
}

/** Parameters a host parsed itself, copied into prototype-less maps. */
function safeParams(query: ParamMap | undefined): ParamMap {
  const copy = toSafeTree(query ?? {});
  return copy !== null && typeof copy === 'object' && !Array.isArray(copy) ? copy as ParamMap : Object.create(null) as ParamMap;
}

function embedParam(value: unknown): true | string[] {
  if (value === undefined || value === '' || value === '0' || value === 'true' || value === '1') return true;
  const rels = parseList(value);
  return rels.length === 0 ? true : rels;
}

function sanitizeOrigin(origin: string): string {
  return origin.replace(/[^\w\-~+/?%@.:;&=#[\]!$'()*,]/g, '');
}
