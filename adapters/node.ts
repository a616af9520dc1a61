/**
 * Node `http` adapter: `http.createServer(toNodeListener(cms))`, or connect-style middleware with `next`.
 * It converts an IncomingMessage into a CmsRequest and the encoded CmsResponse back; the core does the rest.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TLSSocket } from 'node:tls';
import { compileTrustProxy, type ProxyTrust } from '../src/core/client-address.js';
import {
  eventedBodyAtHand, flatHeaders, mountTarget, normalizePrefix, outsideApi, readEventedBody, serverAuthority, splitTarget, WRITTEN_OUT,
  type MountTarget, type WrittenOutRequest,
} from '../src/core/mount.js';
import { encodeResponse, type Cms, type CmsRequest, type EncodedResponse, type TrustProxy } from '../src/index.js';

export interface NodeAdapterOptions {
  /** Path of the API root on this server; default `cms.apiRoot` (`/cms-json`). */
  prefix?: string;
  /** Which proxies may tell scheme, host and client address (`X-Forwarded-*`, `Forwarded`): `true`, a hop count or addresses. */
  trustProxy?: TrustProxy;
  /** The user the host's own login resolved for this request, if any. */
  user?: (req: IncomingMessage) => CmsRequest['user'] | Promise<CmsRequest['user']>;
}

export type NodeListener = (req: IncomingMessage, res: ServerResponse, next?: (error?: unknown) => void) => void;

/** One API request as resolved; a body a framework already read goes in `body` or `parsedBody`. */
export type NodeTarget = MountTarget & { path: string; body?: Uint8Array | string; parsedBody?: unknown };

export function toNodeListener(cms: Cms, options: NodeAdapterOptions = {}): NodeListener {
  const prefix = normalizePrefix(options.prefix ?? cms.apiRoot);
  const trust = compileTrustProxy(options.trustProxy);
  return (req, res, next) => {
    const target = nodeTarget(req, prefix, trust);
    if (target.path !== null) void serveNode(cms, req, res, target as NodeTarget, options, next);
    else if (next) next();
    else writeResponse(res, outsideApi(cms.discoveryLink(target.baseUrl)));
  };
}

/** Where a request goes (`apiRootPath`: the API root's path in links, when it is not `prefix`). */
export function nodeTarget(req: IncomingMessage, prefix: string, trustProxy: TrustProxy | ProxyTrust = false, apiRootPath?: string): MountTarget {
  const socket = req.socket as Partial<TLSSocket>;
  // Built property by property: an object spread followed by more properties is slow on the hot path.
  const { pathname, query } = splitTarget(req.url ?? '/');
  return mountTarget({
    pathname, query, scheme: socket.encrypted ? 'https' : 'http', host: req.headers.host, fallbackHost: serverAuthority(socket.localAddress, socket.localPort),
    forwardedProto: req.headers['x-forwarded-proto'], forwardedHost: req.headers['x-forwarded-host'],
    socketAddress: socket.remoteAddress, forwardedFor: req.headers['x-forwarded-for'], forwarded: req.headers.forwarded,
  }, { prefix, trustProxy, apiRootPath });
}

/** The API root as this request reached it: `http://host:port/cms-json`. */
export const baseUrlOf = (req: IncomingMessage, apiRootPath: string, trustProxy: TrustProxy | ProxyTrust = false): string => nodeTarget(req, apiRootPath, trustProxy).baseUrl;

/** Answers one API request; failures reading the request go to `next` when given, else the socket is dropped. */
export async function serveNode(cms: Cms, req: IncomingMessage, res: ServerResponse, target: NodeTarget, options: NodeAdapterOptions, next?: (error?: unknown) => void): Promise<void> {
  try {
    const read = target.body !== undefined || target.parsedBody !== undefined ? { complete: true }
      : eventedBodyAtHand(req, cms.maxBodyBytes) ?? await readBody(req, cms.maxBodyBytes);
    const user = options.user ? await options.user(req) : undefined;
    const { path, query, baseUrl, body = read.body, parsedBody, remoteAddress } = target;
    const request: CmsRequest & WrittenOutRequest = { method: req.method ?? 'GET', path, query, headers: req.headers, body, parsedBody, baseUrl, remoteAddress, user, [WRITTEN_OUT]: true };
    const response = await cms.handle(request);
    writeResponse(res, encodeResponse(response), read.complete ? KEEP_OPEN : CLOSE);
  } catch (error) {
    if (next && !res.headersSent) next(error);
    else res.destroy();
  }
}

/** Reads the body within `limit`; `complete` is false when bytes were left unread (413 follows). */
export const readBody = (req: IncomingMessage, limit: number) => readEventedBody(req, limit);

const [KEEP_OPEN, CLOSE] = [Object.freeze({ close: false }), Object.freeze({ close: true })];
/** Writes an encoded response; `close` asks Node to end the connection after it. */
export function writeResponse(res: ServerResponse, encoded: EncodedResponse, options: { close?: boolean } = {}): void {
  const { status } = encoded;
  const length = res.req?.method !== 'HEAD' && status !== 204 && status !== 304 ? encoded.body?.byteLength ?? 0 : undefined;
  res.writeHead(status, flatHeaders(encoded.headers, length, options.close === true) as (string | number)[]);
  res.end(encoded.body ?? undefined);
}
