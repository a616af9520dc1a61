/**
 * Fetch adapter for any runtime with Web `Request`/`Response` (Deno, Bun, workers, service workers):
 * `Deno.serve(toFetchHandler(cms))`, `export default { fetch: toFetchHandler(cms) }`. No Node built-ins.
 */
import { compileTrustProxy, type ProxyTrust } from '../src/core/client-address.js';
import { mountTarget, normalizePrefix, outsideApi, readStreamBody, type MountTarget } from '../src/core/mount.js';
import { encodeResponse, type Cms, type CmsRequest, type EncodedResponse, type TrustProxy } from '../src/index.js';

export interface FetchAdapterOptions {
  /** Path of the API root in request URLs; default `cms.apiRoot` (`/cms-json`). */
  prefix?: string;
  /** Which proxies may tell scheme, host and client address (`X-Forwarded-*`, `Forwarded`): `true`, a hop count or addresses. */
  trustProxy?: TrustProxy;
  /** The connection's remote address, when the runtime tells it (Deno: `info.remoteAddr.hostname`). */
  remoteAddress?: (request: Request) => string | undefined;
  /** The user the host's own login resolved for this request, if any. */
  user?: (request: Request) => CmsRequest['user'] | Promise<CmsRequest['user']>;
}

export type FetchHandler = (request: Request) => Promise<Response>;

/** Where a request goes: `path` is null when it is not for the API. */
export type FetchTarget = MountTarget;

export function toFetchHandler(cms: Cms, options: FetchAdapterOptions = {}): FetchHandler {
  const prefix = normalizePrefix(options.prefix ?? cms.apiRoot);
  const trust = compileTrustProxy(options.trustProxy);
  return async (request) => {
    const { path, ...target } = fetchTarget(request, prefix, trust, options.remoteAddress?.(request));
    if (path !== null) return serveFetch(cms, request, { ...target, path }, options);
    return toResponse(outsideApi(cms.discoveryLink(target.baseUrl)));
  };
}

export function fetchTarget(request: Request, prefix: string, trustProxy: TrustProxy | ProxyTrust = false, socketAddress?: string): FetchTarget {
  const url = new URL(request.url);
  const { headers } = request;
  return mountTarget({
    pathname: url.pathname, query: url.search.slice(1), scheme: url.protocol.slice(0, -1), host: url.host, fallbackHost: url.host,
    forwardedProto: headers.get('x-forwarded-proto'), forwardedHost: headers.get('x-forwarded-host'),
    socketAddress, forwardedFor: headers.get('x-forwarded-for'), forwarded: headers.get('forwarded'),
  }, { prefix, trustProxy });
}

/** A body a framework already read. */
export interface FetchExtras {
  readBody?: () => Promise<ArrayBuffer>;
}

export async function serveFetch(
  cms: Cms, request: Request, target: FetchTarget & { path: string }, options: FetchAdapterOptions, extras: FetchExtras = {},
): Promise<Response> {
  const headers = Object.fromEntries(request.headers);
  headers.host ??= new URL(request.url).host;
  const body = extras.readBody
    ? new Uint8Array(await extras.readBody())
    : await readStreamBody(request.body, request.headers.get('content-length'), cms.maxBodyBytes);
  const user = options.user ? await options.user(request) : undefined;
  const { path, query, baseUrl, remoteAddress } = target;
  return toResponse(encodeResponse(await cms.handle({ method: request.method, path, query, headers, body, baseUrl, remoteAddress, user })));
}

function toResponse(encoded: EncodedResponse): Response {
  // The core's bytes never sit on a SharedArrayBuffer, which is all the DOM typing guards against.
  return new Response(encoded.body as Uint8Array<ArrayBuffer> | null, { status: encoded.status, headers: encoded.headers });
}
