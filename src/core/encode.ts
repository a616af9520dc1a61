import type { CmsResponse } from './types.js';

/** A response ready for the wire: what every adapter writes, so that all of them answer byte for byte alike. */
export interface EncodedResponse {
  status: number;
  headers: Record<string, string>;
  /** `null` when there is no body (204, HEAD, a null answer). */
  body: Uint8Array | null;
}

const encoder = new TextEncoder();
/** Frozen bodies cannot change, so each is encoded once (the cached index documents are frozen). */
const encodedFrozenBodies = new WeakMap<object, Uint8Array>();

export function encodeResponse(response: CmsResponse): EncodedResponse {
  const { status, headers, body } = response;
  if (body === null || body === undefined || status === 204 || status === 304) {
    return { status, headers, body: null };
  }
  if (body instanceof Uint8Array) return { status, headers, body };
  if (typeof body === 'string' && !isJsonContentType(headers['Content-Type'])) {
    return { status, headers, body: encoder.encode(body) };
  }
  if (typeof body === 'object' && Object.isFrozen(body)) {
    let bytes = encodedFrozenBodies.get(body);
    if (!bytes) {
      bytes = encoder.encode(JSON.stringify(body));
      encodedFrozenBodies.set(body, bytes);
    }
    return { status, headers, body: bytes };
  }
  return { status, headers, body: encoder.encode(JSON.stringify(body)) };
}

function isJsonContentType(contentType: string | undefined): boolean {
  return contentType === undefined || /^application\/json\b/i.test(contentType);
}
