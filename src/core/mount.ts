/**
 * What every adapter decides the same way, owned by the core so that adapters only convert: whether a request is
 * for the API, its path below the API root, the absolute URL of the API root as the client reached it, the answer
 * outside the API, and reading a body within the size limit. Runtime-neutral (no Node built-ins).
 */
import { compileTrustProxy, resolveClientAddress, trustsPeer, type ProxyTrust, type TrustProxy } from './client-address.js';
import type { EncodedResponse } from './encode.js';
import { parseQueryString } from './query.js';
import { normalizeApiRoot } from './site.js';

/** For adapters that only write answers out (see `WRITTEN_OUT`). */
export { WRITTEN_OUT, type WrittenOutRequest } from './encode.js';

/** Where a request goes: `path` (below the API root) is null when the request is not for the API. */
export interface MountTarget {
  path: string | null;
  /** The raw query string, without `?`. */
  query: string;
  /** The API root as the client reached it: `http://host:port/cms-json`. */
  baseUrl: string;
  /** The client's address (see `resolveClientAddress`), when the runtime told the socket's or a trusted proxy did. */
  remoteAddress?: string;
}

/** The facts of one request an adapter reads from its runtime. */
export interface MountRequest {
  /** The raw request path and query (without `?`); see `splitTarget`. */
  pathname: string;
  query: string;
  /** The connection's own scheme (`http`, `https`) and `Host` header. */
  scheme: string;
  host: string | null | undefined;
  /** The authority used when `Host` is missing or implausible (the server's own address). */
  fallbackHost: string;
  /** `X-Forwarded-Proto` and `X-Forwarded-Host`, honoured only when `trustProxy` trusts the socket's peer. */
  forwardedProto?: string | string[] | null | undefined;
  forwardedHost?: string | string[] | null | undefined;
  /** The socket's remote address, and `X-Forwarded-For` and `Forwarded`, read as `trustProxy` says. */
  socketAddress?: string | null | undefined;
  forwardedFor?: string | string[] | null | undefined;
  /** `Forwarded` (`for=…;proto=https;host=example.com`): its `for` for the client address, and its `proto` and
   *  `host` when the `X-Forwarded-` ones are absent. */
  forwarded?: string | string[] | null | undefined;
}

export interface MountOptions {
  /** The API root in `pathname`, normalised (`normalizePrefix`). */
  prefix: string;
  /** The API root's path in links, when it is not `prefix` (Express strips its mount path from `req.url`). */
  apiRootPath?: string | undefined;
  /** Which forwarded headers to believe (see `compileTrustProxy`); adapters compile it once. Default: none. */
  trustProxy?: TrustProxy | ProxyTrust | undefined;
}

export function mountTarget(request: MountRequest, options: MountOptions): MountTarget {
  const trust = compileTrustProxy(options.trustProxy);
  const trusted = trustsPeer(request.socketAddress, trust);
  const scheme = (trusted ? firstForwarded(request.forwardedProto) ?? forwardedParameter(request.forwarded, 'proto') : undefined) ?? request.scheme;
  const host = (trusted ? firstForwarded(request.forwardedHost) ?? forwardedParameter(request.forwarded, 'host') : undefined)
    ?? request.host ?? undefined;
  const target: MountTarget = {
    path: corePath(request.pathname, request.query, options.prefix),
    query: request.query,
    baseUrl: apiRootUrl(scheme, host, request.fallbackHost, options.apiRootPath ?? options.prefix),
  };
  const remoteAddress = resolveClientAddress(request.socketAddress, request.forwardedFor, request.forwarded, trust);
  if (remoteAddress !== undefined) target.remoteAddress = remoteAddress;
  return target;
}

/** `/cms-json/` → `/cms-json`; `/` or empty → `` (the API at the site root). */
export function normalizePrefix(prefix: string): string {
  return normalizeApiRoot(prefix);
}

/** Splits a request target into its raw path and raw query (without `?`); an absolute-form target loses its origin. */
export function splitTarget(target: string): { pathname: string; query: string } {
  // The same target as last time gives the same strings: no new ones, and the core's maps know their hashes.
  if (target === lastSplit.target) return lastSplit.parts;
  lastSplit = { target, parts: Object.freeze(splitAnew(target)) };
  return lastSplit.parts;
}

let lastSplit: { target: string | null; parts: { pathname: string; query: string } } = { target: null, parts: { pathname: '', query: '' } };

function splitAnew(target: string): { pathname: string; query: string } {
  // The origin form (`/path?query`) is what clients send; only another form needs the expression.
  const relative = target.charCodeAt(0) === 47 /* / */ ? target : target.replace(/^[a-z][a-z\d+.-]*:\/\/[^/?]*/i, '') || '/';
  const mark = relative.indexOf('?');
  return mark === -1
    ? { pathname: relative, query: '' }
    : { pathname: relative.slice(0, mark), query: relative.slice(mark + 1) };
}

/**
 * The path handed to the core, or null when the request is not for the API. Under the prefix the prefix is
 * stripped; anywhere else a non-empty `rest_route` query parameter makes it an API request (the dispatcher routes
 * by it). The path stays percent-encoded, as the reference matches routes against the raw request path.
 */
export function corePath(pathname: string, query: string, prefix: string): string | null {
  const last = lastCorePath;
  if (last.pathname === pathname && last.query === query && last.prefix === prefix) return last.path;
  const path = corePathAnew(pathname, query, prefix);
  lastCorePath = { pathname, query, prefix, path };
  return path;
}

let lastCorePath: { pathname: string | null; query: string; prefix: string; path: string | null } = { pathname: null, query: '', prefix: '', path: null };

function corePathAnew(pathname: string, query: string, prefix: string): string | null {
  if (pathname === prefix) return '/';
  if (pathname.startsWith(prefix) && pathname.charCodeAt(prefix.length) === 47 /* / */) return pathname.slice(prefix.length);
  if (query === '') return null;
  const restRoute = parseQueryString(query).rest_route;
  return typeof restRoute === 'string' && restRoute !== '' ? '/' : null;
}

/** The first entry of a comma-separated forwarding header. */
export function firstForwarded(value: string | string[] | null | undefined): string | undefined {
  const joined = Array.isArray(value) ? value[0] : value;
  const first = joined?.split(',')[0]?.trim();
  return first === '' ? undefined : first;
}

/** A parameter of the first element of a `Forwarded` header (RFC 7239), unquoted. */
export function forwardedParameter(value: string | string[] | null | undefined, name: string): string | undefined {
  const first = firstForwarded(value);
  if (first === undefined) return undefined;
  for (const pair of first.split(';')) {
    const mark = pair.indexOf('=');
    if (mark !== -1 && pair.slice(0, mark).trim().toLowerCase() === name) {
      const found = pair.slice(mark + 1).trim().replace(/^"(.*)"$/, '$1');
      return found === '' ? undefined : found;
    }
  }
  return undefined;
}

/** `http://host:port/prefix`, refusing scheme and host values that are not plausible (links are built from them). */
export function apiRootUrl(proto: string | undefined, host: string | undefined, fallbackHost: string, prefix: string): string {
  const scheme = proto === 'http' ? proto : proto && /^https?$/i.test(proto) ? proto.toLowerCase() : 'http';
  const authority = host && (host === lastPlausibleHost || plausibleHost(host)) ? host : fallbackHost;
  // The same URL as last time is the same string: no new one is made, and the core compares it at once.
  const last = lastApiRoot;
  if (last.scheme === scheme && last.authority === authority && last.prefix === prefix) return last.url;
  lastApiRoot = { scheme, authority, prefix, url: `${scheme}://${authority}${prefix}` };
  return lastApiRoot.url;
}

let lastApiRoot = { scheme: '', authority: '', prefix: '', url: '' };

/** `address:port` of the server's own socket (`[address]` for IPv6), the authority used when `Host` is not usable. */
export function serverAuthority(address: string | undefined, port: number | undefined): string {
  const last = lastServerAuthority;
  if (last.address === address && last.port === port) return last.authority;
  const host = address?.includes(':') ? `[${address}]` : address ?? 'localhost';
  lastServerAuthority = { address, port, authority: `${host}:${port ?? 80}` };
  return lastServerAuthority.authority;
}

let lastServerAuthority: { address: string | undefined; port: number | undefined; authority: string } = { address: '', port: -1, authority: '' };

/** The host last found plausible: requests to one server name it again and again. */
let lastPlausibleHost: string | undefined;

function plausibleHost(host: string): boolean {
  if (!/^[\w.-]+(:\d+)?$|^\[[\da-f:.]+\](:\d+)?$/i.test(host)) return false;
  lastPlausibleHost = host;
  return true;
}

/** The answer to a request outside the API when nothing else takes it: 404, pointing at the API. */
export function outsideApi(discoveryLink: string): EncodedResponse {
  return { status: 404, headers: { Link: discoveryLink }, body: null };
}

/**
 * An answer's headers as one flat list of names and values (`writeHead` takes it without another object being
 * made), with `Content-Length` when a length is given and `Connection: close` when asked; a header the answer
 * already has keeps its place and takes the new value.
 */
export function flatHeaders(headers: Readonly<Record<string, string>>, length: number | undefined, close: boolean): readonly (string | number)[] {
  // Frozen headers cannot change (kept answers sent as bytes share them): their list is made once, and frozen too.
  if (!Object.isFrozen(headers)) return flatList(headers, length, close);
  const known = flatLists.get(headers);
  if (known !== undefined && known.length === length && known.close === close) return known.flat;
  const flat = Object.freeze(flatList(headers, length, close));
  flatLists.set(headers, { length, close, flat });
  return flat;
}

/** The lists of frozen headers, as last asked for (a kept answer is sent with the same length again and again). */
const flatLists = new WeakMap<object, { length: number | undefined; close: boolean; flat: readonly (string | number)[] }>();

function flatList(headers: Readonly<Record<string, string>>, length: number | undefined, close: boolean): (string | number)[] {
  let count = 0;
  let lengthAt = -1;
  let closeAt = -1;
  for (const name in headers) {
    if (!Object.hasOwn(headers, name)) continue;
    if (name === 'Content-Length') lengthAt = count;
    else if (name === 'Connection') closeAt = count;
    count += 1;
  }
  const added = (length !== undefined && lengthAt === -1 ? 1 : 0) + (close && closeAt === -1 ? 1 : 0);
  // Made at its full length: a list grown pair by pair is copied twice over for an answer's dozen headers.
  const flat = new Array<string | number>(2 * (count + added));
  let end = 0;
  for (const name in headers) {
    if (!Object.hasOwn(headers, name)) continue;
    flat[end] = name;
    flat[end + 1] = headers[name]!;
    end += 2;
  }
  if (length !== undefined) end = setFlat(flat, end, lengthAt, 'Content-Length', length);
  if (close) setFlat(flat, end, closeAt, 'Connection', 'close');
  return flat;
}

/** Sets a header found at pair `at`, or adds it at `end`; answers the new end. */
function setFlat(flat: (string | number)[], end: number, at: number, name: string, value: string | number): number {
  if (at !== -1) {
    flat[2 * at + 1] = value;
    return end;
  }
  flat[end] = name;
  flat[end + 1] = value;
  return end + 2;
}

/** Whether a declared `Content-Length` is over the limit: such a body is not read at all (the core answers 413). */
export function declaredOverLimit(contentLength: string | null | undefined, limit: number): boolean {
  return contentLength !== undefined && contentLength !== null && Number(contentLength) > limit;
}

/**
 * Collects body chunks, holding at most `limit + 1` bytes: enough for the core to see the body is too large
 * (413) without keeping the rest. `add` answers false once the limit is passed (stop reading).
 */
export class BodyCollector {
  readonly #chunks: Uint8Array[] = [];
  #size = 0;

  constructor(readonly limit: number) {}

  add(chunk: Uint8Array): boolean {
    this.#chunks.push(chunk);
    this.#size += chunk.byteLength;
    return this.#size <= this.limit;
  }

  bytes(): Uint8Array {
    const body = new Uint8Array(Math.min(this.#size, this.limit + 1));
    let offset = 0;
    for (const chunk of this.#chunks) {
      const part = chunk.subarray(0, body.length - offset);
      body.set(part, offset);
      offset += part.length;
    }
    return body;
  }
}

/** Reads a Web stream body within the limit (see `BodyCollector`); a stream longer than that is left unread. */
export async function readStreamBody(stream: ReadableStream<Uint8Array> | null, contentLength: string | null, limit: number): Promise<Uint8Array | undefined> {
  if (!stream || declaredOverLimit(contentLength, limit)) return undefined;
  const reader = stream.getReader();
  const collector = new BodyCollector(limit);
  for (let next = await reader.read(); !next.done; next = await reader.read()) {
    if (!collector.add(next.value)) break;
  }
  reader.releaseLock();
  return collector.bytes();
}

/** A body that arrives as events (a Node `IncomingMessage`), with its request headers. */
export interface EventedBody {
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly readableEnded: boolean;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  on(event: string, listener: (...args: any[]) => void): unknown;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  off(event: string, listener: (...args: any[]) => void): unknown;
  pause(): unknown;
}

const NO_BODY = Object.freeze({ complete: true });
const BODY_OVER_LIMIT = Object.freeze({ complete: false });

/**
 * What `readEventedBody` answers when nothing is to be read (no body, or one declared over the limit), without
 * waiting; null when the body must be read.
 */
export function eventedBodyAtHand(source: EventedBody, limit: number): { readonly body?: Uint8Array; readonly complete: boolean } | null {
  const declared = source.headers['content-length'];
  if (typeof declared === 'string' && declaredOverLimit(declared, limit)) return BODY_OVER_LIMIT;
  const hasBody = source.headers['transfer-encoding'] !== undefined || (declared !== undefined && declared !== '0');
  return !hasBody || source.readableEnded ? NO_BODY : null;
}

/**
 * Reads an evented body within the limit (see `BodyCollector`). A declared length over the limit is not read at
 * all, and a stream that runs past it stops being read (paused); either way `complete` is false: the core answers
 * 413 and the connection should close, as unread bytes remain.
 */
export function readEventedBody(source: EventedBody, limit: number): Promise<{ body?: Uint8Array; complete: boolean }> {
  const settled = eventedBodyAtHand(source, limit);
  if (settled !== null) return Promise.resolve(settled);
  const collector = new BodyCollector(limit);
  return new Promise((resolve, reject) => {
    const finish = (complete: boolean) => {
      source.off('data', onData);
      source.off('end', onEnd);
      source.off('error', reject);
      if (!complete) source.pause();
      resolve({ body: collector.bytes(), complete });
    };
    const onData = (chunk: Uint8Array) => {
      if (!collector.add(chunk)) finish(false);
    };
    const onEnd = () => finish(true);
    source.on('data', onData);
    source.on('end', onEnd);
    source.on('error', reject);
  });
}
