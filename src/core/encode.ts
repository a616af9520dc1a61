import type { CmsResponse } from './types.js';

/** A response ready for the wire: what every adapter writes, so that all of them answer byte for byte alike. */
export interface EncodedResponse {
  status: number;
  headers: Record<string, string>;
  /** `null` when there is no body (204, HEAD, a null answer). */
  body: Uint8Array | null;
}

const encoder = new TextEncoder();
/** Frozen bodies cannot change, so each is encoded once. */
const encodedFrozenBodies = new WeakMap<object, Uint8Array>();
/**
 * Responses whose body the dispatcher already encoded (to tag it, or to answer from its cache), with the body the
 * bytes stand for; `LAZY` marks a response whose body is itself read from the bytes when asked for.
 */
const encodedResponses = new WeakMap<CmsResponse, { bytes: Uint8Array | null; body: unknown }>();
const LAZY = Symbol('lazy body');

/** The bytes of a body as the wire carries it: JSON text, unless it is bytes or non-JSON text already. */
export function encodeBody(body: unknown, contentType: string | undefined): Uint8Array | null {
  if (body === null || body === undefined) return null;
  if (body instanceof Uint8Array) return body;
  if (typeof body === 'string' && !isJsonContentType(contentType)) return encoder.encode(body);
  if (typeof body === 'object' && Object.isFrozen(body)) {
    let bytes = encodedFrozenBodies.get(body);
    if (!bytes) {
      bytes = encoder.encode(JSON.stringify(body));
      encodedFrozenBodies.set(body, bytes);
    }
    return bytes;
  }
  return encoder.encode(JSON.stringify(body));
}

/** Remembers the bytes of a response's body, so that `encodeResponse` sends them without encoding again. */
export function withEncodedBody<T extends CmsResponse>(response: T, bytes: Uint8Array | null): T {
  encodedResponses.set(response, { bytes, body: response.body });
  return response;
}

/**
 * A response whose body is already bytes: the adapters send them as they are, and an in-process caller reading
 * `body` gets its own copy of the value (decoded once, on first read), so nobody can change what others are sent.
 */
export function responseFromBytes(status: number, headers: Record<string, string>, bytes: Uint8Array | null, decode: () => unknown): CmsResponse {
  let decoded: { value: unknown } | null = null;
  const response: CmsResponse = {
    status,
    headers,
    get body() {
      decoded ??= { value: decode() };
      return decoded.value;
    },
  };
  encodedResponses.set(response, { bytes, body: LAZY });
  return response;
}

/** Whether a response was answered from bytes kept earlier (a response cache hit). */
export function isFromKeptBytes(response: CmsResponse): boolean {
  return encodedResponses.get(response)?.body === LAZY;
}

export function encodeResponse(response: CmsResponse): EncodedResponse {
  const { status, headers } = response;
  if (status === 204 || status === 304) return { status, headers, body: null };
  const known = encodedResponses.get(response);
  // A body the host replaced after the core answered is encoded anew.
  if (known && (known.body === LAZY || Object.is(known.body, response.body))) return { status, headers, body: known.bytes };
  return { status, headers, body: encodeBody(response.body, headers['Content-Type']) };
}

function isJsonContentType(contentType: string | undefined): boolean {
  return contentType === undefined || /^application\/json\b/i.test(contentType);
}
