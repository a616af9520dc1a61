/**
 * Node `http` adapter: `http.createServer(toNodeListener(cms))`, or connect-style middleware with `next`.
 * It converts an IncomingMessage into a CmsRequest and the encoded CmsResponse back; the core does the rest.
 */
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { TLSSocket } from 'node:tls';
import { encodeResponse, type Cms, type CmsRequest, type EncodedResponse } from '../src/index.js';
import { apiRootUrl, corePath, firstForwarded, normalizePrefix, splitTarget } from './routing.js';

export interface NodeAdapterOptions {
  /** Path of the API root on this server; default `cms.apiRoot` (`/cms-json`). */
  prefix?: string;
  /** Take scheme, host and client address from `X-Forwarded-Proto`, `-Host` and `-For` (only behind a proxy you run). */
  trustProxy?: boolean;
  /** The user the host's own login resolved for this request, if any. */
  user?: (req: IncomingMessage) => CmsRequest['user'] | Promise<CmsRequest['user']>;
}

export type NodeListener = (req: IncomingMessage, res: ServerResponse, next?: (error?: unknown) => void) => void;

/** What an adapter resolved for one API request; a body a framework already read goes in `body`/`parsedBody`. */
export interface NodeTarget {
  path: string;
  query: string;
  baseUrl: string;
  body?: Uint8Array | string;
  parsedBody?: unknown;
}

export function toNodeListener(cms: Cms, options: NodeAdapterOptions = {}): NodeListener {
  const prefix = normalizePrefix(options.prefix ?? cms.apiRoot);
  return (req, res, next) => {
    const { pathname, query } = splitTarget(req.url ?? '/');
    const path = corePath(pathname, query, prefix);
    const baseUrl = () => baseUrlOf(req, prefix, options.trustProxy);
    if (path !== null) void serveNode(cms, req, res, { path, query, baseUrl: baseUrl() }, options, next);
    else if (next) next();
    else writeResponse(res, { status: 404, headers: { Link: cms.discoveryLink(baseUrl()) }, body: null });
  };
}

/** Answers one API request; failures reading the request go to `next` when given, else the socket is dropped. */
export async function serveNode(
  cms: Cms, req: IncomingMessage, res: ServerResponse, target: NodeTarget, options: NodeAdapterOptions, next?: (error?: unknown) => void,
): Promise<void> {
  try {
    const alreadyRead = target.body !== undefined || target.parsedBody !== undefined;
    const read: { body?: Uint8Array; complete: boolean } = alreadyRead ? { complete: true } : await readBody(req, cms.maxBodyBytes);
    const body = target.body ?? read.body;
    const remoteAddress = (options.trustProxy ? firstForwarded(req.headers['x-forwarded-for']) : undefined) ?? req.socket.remoteAddress;
    const response = await cms.handle({
      method: req.method ?? 'GET',
      path: target.path,
      query: target.query,
      headers: req.headers,
      ...(body !== undefined ? { body } : {}),
      ...(target.parsedBody !== undefined ? { parsedBody: target.parsedBody } : {}),
      baseUrl: target.baseUrl,
      ...(remoteAddress ? { remoteAddress } : {}),
      ...(options.user ? { user: await options.user(req) } : {}),
    });
    writeResponse(res, encodeResponse(response), { close: !read.complete });
  } catch (error) {
    if (next && !res.headersSent) next(error);
    else res.destroy();
  }
}

/**
 * Reads the body, holding at most `limit + 1` bytes. A declared length over the limit is not read at all, and a
 * stream that runs past it stops being read; either way `complete` is false (the core answers 413 and the
 * connection should close, as unread bytes remain).
 */
export function readBody(req: IncomingMessage, limit: number): Promise<{ body?: Uint8Array; complete: boolean }> {
  const declared = req.headers['content-length'];
  if (declared !== undefined && Number(declared) > limit) return Promise.resolve({ complete: false });
  const hasBody = req.headers['transfer-encoding'] !== undefined || (declared !== undefined && declared !== '0');
  if (!hasBody || req.readableEnded) return Promise.resolve({ complete: true });
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (complete: boolean) => {
      req.off('data', onData).off('end', onEnd).off('error', reject);
      if (!complete) req.pause();
      resolve({ body: Buffer.concat(chunks, Math.min(size, limit + 1)), complete });
    };
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      if (size > limit) finish(false);
    };
    const onEnd = () => finish(true);
    req.on('data', onData).on('end', onEnd).on('error', reject);
  });
}

/** Writes an encoded response; `close` asks Node to end the connection after it. */
export function writeResponse(res: ServerResponse, encoded: EncodedResponse, options: { close?: boolean } = {}): void {
  const headers: OutgoingHttpHeaders = { ...encoded.headers };
  const bodiless = res.req?.method === 'HEAD' || encoded.status === 204 || encoded.status === 304;
  if (!bodiless) headers['Content-Length'] = encoded.body?.byteLength ?? 0;
  if (options.close) headers.Connection = 'close';
  res.writeHead(encoded.status, headers);
  res.end(encoded.body ?? undefined);
}

/** The API root as this request reached it: `http://host:port/cms-json`. */
export function baseUrlOf(req: IncomingMessage, apiRootPath: string, trustProxy = false): string {
  const socket = req.socket as Partial<TLSSocket>;
  const proto = (trustProxy ? firstForwarded(req.headers['x-forwarded-proto']) : undefined) ?? (socket.encrypted ? 'https' : 'http');
  const host = (trustProxy ? firstForwarded(req.headers['x-forwarded-host']) : undefined) ?? req.headers.host;
  const local = socket.localAddress?.includes(':') ? `[${socket.localAddress}]` : socket.localAddress ?? 'localhost';
  return apiRootUrl(proto, host, `${local}:${socket.localPort ?? 80}`, apiRootPath);
}
