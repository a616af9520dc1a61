/**
 * Fetch adapter for any runtime with Web `Request`/`Response` (Deno, Bun, workers, service workers):
 * `Deno.serve(toFetchHandler(cms))`, `export default { fetch: toFetchHandler(cms) }`. No Node built-ins.
 */
import { encodeResponse, type Cms, type CmsRequest } from '../src/index.js';
import { apiRootUrl, corePath, firstForwarded, normalizePrefix } from './routing.js';

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
export interface FetchTarget {
  path: string | null;
  query: string;
  baseUrl: string;
}

export function toFetchHandler(cms: Cms, options: FetchAdapterOptions = {}): FetchHandler {
  const prefix = normalizePrefix(options.prefix ?? cms.apiRoot);
  return async (request) => {
    const target = fetchTarget(request, prefix, options.trustProxy);
    if (target.path !== null) return serveFetch(cms, request, { ...target, path: target.path }, options);
    return new Response(null, { status: 404, headers: { Link: cms.discoveryLink(target.baseUrl) } });
  };
}

export function fetchTarget(request: Request, prefix: string, trustProxy = false): FetchTarget {
  const url = new URL(request.url);
  const query = url.search.slice(1);
  const proto = (trustProxy ? firstForwarded(request.headers.get('x-forwarded-proto')) : undefined) ?? url.protocol.slice(0, -1);
  const host = (trustProxy ? firstForwarded(request.headers.get('x-forwarded-host')) : undefined) ?? url.host;
  return { path: corePath(url.pathname, query, prefix), query, baseUrl: apiRootUrl(proto, host, url.host, prefix) };
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
  const body = extras.readBody ? new Uint8Array(await extras.readBody()) : await readLimited(request, cms.maxBodyBytes);
  const response = await cms.handle({
    method: request.method,
    path: target.path,
    query: target.query,
    headers,
    ...(body ? { body } : {}),
    baseUrl: target.baseUrl,
    ...(extras.remoteAddress ? { remoteAddress: extras.remoteAddress } : {}),
    ...(options.user ? { user: await options.user(request) } : {}),
  });
  const encoded = encodeResponse(response);
  // The core's bytes never sit on a SharedArrayBuffer, which is all the DOM typing guards against.
  return new Response(encoded.body as Uint8Array<ArrayBuffer> | null, { status: encoded.status, headers: encoded.headers });
}

/**
 * Reads at most `limit + 1` bytes: a declared length over the limit is not read (the core answers 413 from the
 * header), and a longer stream is left unread past that point (the core answers 413 from the size).
 */
async function readLimited(request: Request, limit: number): Promise<Uint8Array | undefined> {
  if (!request.body || Number(request.headers.get('content-length') ?? 0) > limit) return undefined;
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  while (size <= limit) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.byteLength;
  }
  reader.releaseLock();
  const body = new Uint8Array(Math.min(size, limit + 1));
  let offset = 0;
  for (const chunk of chunks) {
    const part = chunk.subarray(0, body.length - offset);
    body.set(part, offset);
    offset += part.length;
  }
  return body;
}
