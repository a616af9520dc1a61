/**
 * Fetch adapter for any runtime with Web `Request`/`Response` (Deno, Bun, workers, service workers):
 * `Deno.serve(toFetchHandler(cms))`, `export default { fetch: toFetchHandler(cms) }`. No Node built-ins.
 */
import {
  encodeResponse, mountTarget, normalizePrefix, outsideApi, readStreamBody, type Cms, type CmsRequest, type EncodedResponse,
  type MountTarget,
} from '../src/index.js';

export interface FetchAdapterOptions {
  /** Path of the API root in request URLs; default `cms.apiRoot` (`/cms-json`). */
  prefix?: string;
  /** Take scheme and host from `X-Forwarded-Proto` and `-Host` (only behind a proxy you run). */
  trustProxy?: boolean;
  /** The user the host's own login resolved for this request, if any. */
  user?: (request: Request) => CmsRequest['user'] | Promise<CmsRequest['user']>;
}

export type FetchHandler = (request: Request) => Promise<Response>;

/** Where a request goes: `path` is null when it is not for the API. */
export type FetchTarget = MountTarget;

export function toFetchHandler(cms: Cms, options: FetchAdapterOptions = {}): FetchHandler {
  const prefix = normalizePrefix(options.prefix ?? cms.apiRoot);
  return async (request) => {
    const { path, ...target } = fetchTarget(request, prefix, options.trustProxy);
    if (path !== null) return serveFetch(cms, request, { ...target, path }, options);
    return toResponse(outsideApi(cms.discoveryLink(target.baseUrl)));
  };
}

export function fetchTarget(request: Request, prefix: string, trustProxy = false): FetchTarget {
  const url = new URL(request.url);
  return mountTarget({
    pathname: url.pathname, query: url.search.slice(1), scheme: url.protocol.slice(0, -1), host: url.host, fallbackHost: url.host,
    forwardedProto: request.headers.get('x-forwarded-proto'), forwardedHost: request.headers.get('x-forwarded-host'),
    forwarded: request.headers.get('forwarded'),
  }, { prefix, trustProxy });
}

/** Extra facts a runtime knows: the client address, or a body a framework already read. */
export interface FetchExtras {
  remoteAddress?: string;
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
  const { path, query, baseUrl } = target;
  return toResponse(encodeResponse(await cms.handle({ method: request.method, path, query, headers, body, baseUrl, remoteAddress: extras.remoteAddress, user })));
}

function toResponse(encoded: EncodedResponse): Response {
  // The core's bytes never sit on a SharedArrayBuffer, which is all the DOM typing guards against.
  return new Response(encoded.body as Uint8Array<ArrayBuffer> | null, { status: encoded.status, headers: encoded.headers });
}
