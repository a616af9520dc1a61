import type { CmsResponse } from './types.js';

/** A response ready for the wire: what every adapter writes, so that all of them answer byte for byte alike. */
export interface EncodedResponse {
  status: number;
  headers: Record<string, string>;
  /** `null` when there is no body (204, HEAD, a null answer). */
  body: Uint8Array | null;
}

/**
 * Set on a request by an adapter that only writes its answer out (`encodeResponse`, then the bytes): an answer from
 * the response cache then comes as its kept bytes, with headers made once for all its hits and frozen, rather than
 * with a body decoded on demand and a copy of the headers.
 */
export const WRITTEN_OUT = Symbol('answer written out as bytes');

/** A request that may carry `WRITTEN_OUT`. */
export interface WrittenOutRequest {
  [WRITTEN_OUT]?: true;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * A JSON body the core already holds as bytes (joined view fragments). The adapters send the bytes; anything
 * that serialises it (`JSON.stringify`) gets the value back, and an in-process caller reading `body` gets a copy.
 */
export class EncodedJson {
  static #last = 0;
  /** Tells this value apart from every other (joined lists are kept by the serials of their parts). */
  readonly serial = ++EncodedJson.#last;
  /** The entity tag of the bytes, once computed (they never change). */
  etag: string | undefined;

  constructor(readonly bytes: Uint8Array) {}

  /** A fresh copy of the value the bytes spell. */
  decode(): unknown {
    return JSON.parse(decoder.decode(this.bytes));
  }

  toJSON(): unknown {
    return this.decode();
  }
}

/** The bytes `[a,b,…]` of a JSON array whose elements are already encoded. */
export function joinJsonArray(elements: readonly Uint8Array[]): Uint8Array {
  let length = 2 + Math.max(0, elements.length - 1);
  for (const element of elements) length += element.byteLength;
  const joined = new Uint8Array(length);
  joined[0] = 0x5b;
  let offset = 1;
  for (let index = 0; index < elements.length; index += 1) {
    const element = elements[index]!;
    if (index > 0) joined[offset++] = 0x2c;
    joined.set(element, offset);
    offset += element.byteLength;
  }
  joined[offset] = 0x5d;
  return joined;
}

/** A response for a body that may be `EncodedJson`: its bytes are sent, and `body` reads as the value. */
export function responseWithBody(status: number, headers: Record<string, string>, body: unknown): CmsResponse {
  if (body instanceof EncodedJson) return responseFromBytes(status, headers, body.bytes, () => body.decode(), false);
  return { status, headers, body };
}
/** Frozen bodies cannot change, so each is encoded once. */
const encodedFrozenBodies = new WeakMap<object, Uint8Array>();
/**
 * Responses whose body the dispatcher already encoded (to tag it, or to answer from its cache) carry the bytes and the body the
 * bytes stand for; `LAZY` marks a response whose body is itself read from the bytes when asked for.
 */
const LAZY = Symbol('lazy body');
interface Encoded { bytes: Uint8Array | null; body: unknown; kept?: boolean; decode?: () => unknown; decoded?: { value: unknown } }

/** Makes nothing: a subclass's fields are then added to the object handed over, as they are to `this`. */
class Stamp {
  constructor(target: object) {
    return target;
  }
}

/**
 * The encoded body kept on the response itself, in a private field: no copy of the response (`{ ...response }`)
 * carries it and no one else sees it, and adding one costs far less than defining a property (or a WeakMap entry).
 */
class Remembered extends Stamp {
  readonly #encoded: Encoded;

  constructor(response: CmsResponse, encoded: Encoded) {
    super(response);
    this.#encoded = encoded;
  }

  static of(response: CmsResponse): Encoded | undefined {
    return #encoded in response ? (response as unknown as Remembered).#encoded : undefined;
  }
}

function remember(response: CmsResponse, encoded: Encoded): void {
  new Remembered(response, encoded);
}

function known(response: CmsResponse): Encoded | undefined {
  return Remembered.of(response);
}

/** The bytes of a body as the wire carries it: JSON text, unless it is bytes or non-JSON text already. */
export function encodeBody(body: unknown, contentType: string | undefined): Uint8Array | null {
  if (body === null || body === undefined) return null;
  if (body instanceof Uint8Array) return body;
  if (body instanceof EncodedJson) return body.bytes;
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
  remember(response, { bytes, body: response.body });
  return response;
}

/**
 * A response whose body is already bytes: the adapters send them as they are, and an in-process caller reading
 * `body` gets its own copy of the value (decoded once, on first read), so nobody can change what others are sent.
 * `kept`: the bytes come from the response cache (a hit), not from fragments joined for this answer.
 */
export function responseFromBytes(
  status: number, headers: Record<string, string>, bytes: Uint8Array | null, decode: () => unknown, kept = true,
): CmsResponse {
  const response = { status, headers } as CmsResponse;
  // In this order: the accessor defined after the private field keeps the shape shared by all such responses.
  remember(response, { bytes, body: LAZY, kept, decode });
  Object.defineProperty(response, 'body', lazyBody);
  return response;
}

/**
 * The `body` of a response from bytes: an own, enumerable getter (a copy of the response carries the value), one
 * function for all of them, so that every such response shares its shape (a getter in each literal costs a shape each).
 */
const lazyBody: PropertyDescriptor = {
  enumerable: true,
  configurable: true,
  get(this: CmsResponse): unknown {
    const encoded = known(this)!;
    encoded.decoded ??= { value: encoded.decode!() };
    return encoded.decoded.value;
  },
};

/** Whether the bytes of a response's body are already remembered on it. */
export function hasEncodedBody(response: CmsResponse): boolean {
  return known(response) !== undefined;
}

/** Whether a response was answered from bytes kept earlier (a response cache hit). */
export function isFromKeptBytes(response: CmsResponse): boolean {
  return known(response)?.kept === true;
}

export function encodeResponse(response: CmsResponse): EncodedResponse {
  const { status, headers } = response;
  if (status === 204 || status === 304) return { status, headers, body: null };
  const encoded = known(response);
  // A body the host replaced after the core answered is encoded anew.
  if (encoded && (encoded.body === LAZY || Object.is(encoded.body, response.body))) return { status, headers, body: encoded.bytes };
  return { status, headers, body: encodeBody(response.body, headers['Content-Type']) };
}

function isJsonContentType(contentType: string | undefined): boolean {
  return contentType === undefined || /^application\/json\b/i.test(contentType);
}
