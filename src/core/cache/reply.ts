/**
 * Answers of `cache` routes, kept or not, go out the same way: encoded once, tagged with a strong `ETag`, marked
 * `Cache-Control: no-cache` (stored, but revalidated on every use, since any write may change them), and
 * answered 304 when the client's `If-None-Match` matches.
 */
import { EncodedJson, encodeBody, responseFromBytes, withEncodedBody, WRITTEN_OUT, type WrittenOutRequest } from '../encode.js';
import type { Principal } from '../context.js';
import { addTransportHeaders, transportHeaders, type Incoming } from '../transport.js';
import type { CmsResponse } from '../types.js';
import { builtBytesTag, entityTag, noneMatch, notModifiedHeaders } from './conditional.js';
import type { Route } from '../registry.js';
import type { Site } from '../site.js';
import type { CmsRequest } from '../types.js';
import type { Generation } from './generation.js';
import { keptKey } from './kept-key.js';
import type { KeptAnswer, ResponseCache } from './response-cache.js';

const decoder = new TextDecoder();

/** A 200 answer with its headers so far (fixed ones and the route's own, taken over: not copied) → what the cache keeps. */
export function keptAnswer(status: number, headers: Record<string, string>, body: unknown): KeptAnswer {
  const contentType = headers['Content-Type'];
  const kind = body instanceof Uint8Array ? 'bytes' : typeof body === 'string' && !/^application\/json\b/i.test(contentType ?? '') ? 'text' : 'json';
  const built = body instanceof Uint8Array ? builtBytesTag(body) : undefined;
  // Bytes a route answered with are copied, so no caller holding them can change what is kept.
  const bytes = body instanceof Uint8Array ? (built ? body : body.slice()) : encodeBody(body, contentType);
  // Joined fragments may be answered again and again: their tag is computed once.
  const etag = body instanceof EncodedJson ? (body.etag ??= entityTag(bytes)) : built ?? entityTag(bytes);
  headers.ETag = etag;
  headers['Cache-Control'] = 'no-cache';
  return { status, headers, bytes, kind, etag };
}

/** How a kept answer is sent to this request: HEAD or not, its `If-None-Match`, and the transport headers. */
export function replyRequest(incoming: Incoming, user: Principal | null, writtenOut = false): ReplyRequest {
  return { head: incoming.realMethod === 'HEAD', ifNoneMatch: incoming.headers['if-none-match'], transport: transportHeaders(incoming, 200, user), writtenOut };
}

/**
 * The kept answer of a route declared `cache` for this request, when the generation is known without waiting
 * (`Generations.known`) and the cache holds one; undefined otherwise. No promise turn on a hit.
 */
export function keptReply(
  cache: ResponseCache | undefined, generation: Generation | null | undefined, route: Route, request: CmsRequest, incoming: Incoming,
  user: Principal | null, site: Site,
): CmsResponse | undefined {
  if (!cache || !generation) return undefined;
  const key = keptKey({ varies: route.cache!.varies, apiUrl: site.apiUrl, gmtOffset: site.gmtOffset, path: incoming.path, query: request.query, user });
  const kept = key === null ? undefined : cache.get(key, generation);
  return kept && replyWith(kept, replyRequest(incoming, user, (request as WrittenOutRequest)[WRITTEN_OUT] === true));
}

export interface ReplyRequest {
  /** HEAD gets the headers alone. */
  head: boolean;
  ifNoneMatch: string | undefined;
  /** Headers that follow this request (CORS, `Vary`, no-cache for signed-in callers), laid over the kept ones. */
  transport: Record<string, string>;
  /** The adapter only writes the answer out (`WRITTEN_OUT`): the kept bytes and shared headers will do. */
  writtenOut?: boolean;
}

/**
 * The response for one request. `fresh` is the body just computed (sent as it is, with its bytes known; joined
 * fragments are sent as the kept bytes, as a body already encoded is); without
 * it the kept bytes are sent, and an in-process caller reading `body` gets a copy decoded from them.
 */
export function replyWith(answer: KeptAnswer, request: ReplyRequest, fresh?: { body: unknown }): CmsResponse {
  const made = madeFor(answer);
  const merged = mergedHeaders(made, answer, request.transport);
  if (request.writtenOut && !fresh && !request.head && request.ifNoneMatch === undefined) return { status: answer.status, headers: merged, body: answer.bytes };
  const headers = { ...merged };
  if (noneMatch(request.ifNoneMatch, answer.etag)) return { status: 304, headers: notModifiedHeaders(headers), body: null };
  if (request.head) return withEncodedBody({ status: answer.status, headers, body: null }, null);
  // Bytes the core built are kept as they are: a caller reading `body` gets a copy, as of any kept answer.
  if (!fresh || answer.bytes === fresh.body) return responseFromBytes(answer.status, headers, answer.bytes, made.decode);
  if (fresh.body instanceof EncodedJson) return responseFromBytes(answer.status, headers, answer.bytes, made.decode, false);
  return withEncodedBody({ status: answer.status, headers, body: fresh.body }, answer.bytes);
}

/**
 * The response for an answer computed for this request and not kept (`keptAnswer` made it; nothing else holds it):
 * its headers are taken over and the transport headers laid over them in place, as `replyWith` would in a copy.
 * `writtenOut`: the request carries `WRITTEN_OUT`.
 */
export function replyFresh(answer: KeptAnswer, incoming: Incoming, user: Principal | null, body: unknown, writtenOut = false): CmsResponse {
  const headers = addTransportHeaders(answer.headers as Record<string, string>, incoming, 200, user);
  if (noneMatch(incoming.headers['if-none-match'], answer.etag)) return { status: 304, headers: notModifiedHeaders(headers), body: null };
  if (incoming.realMethod === 'HEAD') return withEncodedBody({ status: answer.status, headers, body: null }, null);
  // An adapter that only writes the answer out sends its bytes: nothing will read the body as a value.
  if (writtenOut) return { status: answer.status, headers, body: answer.bytes };
  if (answer.bytes === body) return responseFromBytes(answer.status, headers, answer.bytes, () => decodeBody(answer));
  if (body instanceof EncodedJson) return responseFromBytes(answer.status, headers, answer.bytes, () => decodeBody(answer), false);
  return withEncodedBody({ status: answer.status, headers, body }, answer.bytes);
}

/** What every reply of a kept answer shares, made once for it rather than for each reply. */
interface MadeOnce {
  /** A copy of the body decoded from the kept bytes. */
  decode: () => unknown;
  /** The kept headers with each transport header set laid over (see `mergedHeaders`). */
  merged: { transport: Record<string, string>; headers: Record<string, string> }[];
}

const madeForAnswers = new WeakMap<KeptAnswer, MadeOnce>();

function madeFor(answer: KeptAnswer): MadeOnce {
  let made = madeForAnswers.get(answer);
  if (made === undefined) madeForAnswers.set(answer, (made = { decode: () => decodeBody(answer), merged: [] }));
  return made;
}

/**
 * The kept headers with these transport headers laid over, made once per answer for each of the few transport
 * sets its requests bring (anonymous, signed in, one `Origin`): a copy of a ready object is far cheaper than a
 * merge. Frozen, and handed out as it is only to an adapter that writes the answer out.
 */
function mergedHeaders(made: MadeOnce, answer: KeptAnswer, transport: Record<string, string>): Record<string, string> {
  for (const entry of made.merged) if (sameHeaders(entry.transport, transport)) return entry.headers;
  const headers = Object.freeze(Object.assign({}, answer.headers, transport));
  if (made.merged.length >= MAX_TRANSPORT_SETS) made.merged.shift();
  made.merged.push({ transport, headers });
  return headers;
}

const MAX_TRANSPORT_SETS = 4;

function sameHeaders(a: Record<string, string>, b: Record<string, string>): boolean {
  let count = 0;
  for (const name in a) {
    if (a[name] !== b[name]) return false;
    count += 1;
  }
  for (const _name in b) count -= 1;
  return count === 0;
}

function decodeBody(answer: KeptAnswer): unknown {
  if (answer.bytes === null) return null;
  if (answer.kind === 'bytes') return answer.bytes.slice();
  const text = decoder.decode(answer.bytes);
  return answer.kind === 'text' ? text : JSON.parse(text);
}
