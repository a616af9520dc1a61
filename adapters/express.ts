/**
 * Express adapter (4 and 5), layered on the Node adapter: `app.use('/cms-json', toExpress(cms))`.
 * The mount path is the API root; mounted at the app root, the API lives at `cms.apiRoot` and other requests fall
 * through. Works with or without a body parser before it.
 */
import type { ErrorRequestHandler, Request, RequestHandler } from 'express';
import { compileTrustProxy } from '../src/core/client-address.js';
import { normalizePrefix } from '../src/core/mount.js';
import type { Cms } from '../src/index.js';
import { nodeTarget, serveNode, type NodeAdapterOptions, type NodeTarget } from './node.js';

export type ExpressAdapterOptions = Omit<NodeAdapterOptions, 'user'> & {
  /** The user the host's own login resolved for this request (Express's `req`, with its session), if any. */
  user?: (req: Request) => ReturnType<NonNullable<NodeAdapterOptions['user']>>;
};

/**
 * Two middlewares for one `app.use`: the handler, and an error handler that answers requests a JSON body parser
 * rejected (the core reports `rest_invalid_json` itself, with the raw text the parser kept).
 */
export type ExpressMiddleware = [RequestHandler, ErrorRequestHandler];

export function toExpress(cms: Cms, expressOptions: ExpressAdapterOptions = {}): ExpressMiddleware {
  const { user, ...rest } = expressOptions;
  // The node adapter hands `user` the request it was given, which here is Express's.
  const options: NodeAdapterOptions = user ? { ...rest, user: (req) => user(req as Request) } : rest;
  const ownPrefix = options.prefix === undefined ? undefined : normalizePrefix(options.prefix);
  const trust = compileTrustProxy(options.trustProxy);

  /** `req.url` is below the mount path (`req.baseUrl`), which links keep. */
  const targetOf = (req: Request): NodeTarget | null => {
    const prefix = ownPrefix ?? (req.baseUrl === '' ? cms.apiRoot : '');
    const { path, ...target } = nodeTarget(req, prefix, trust, req.baseUrl + prefix);
    return path === null ? null : { ...target, path };
  };

  const handler: RequestHandler = (req, res, next) => {
    const target = targetOf(req);
    if (target === null) return next();
    void serveNode(cms, req, res, { ...target, ...bodyFromParser(req) }, options, next);
  };

  const onParserError: ErrorRequestHandler = (error, req, res, next) => {
    const target = targetOf(req);
    const rawJson = (error as { type?: unknown }).type === 'entity.parse.failed' ? (error as { body?: unknown }).body : undefined;
    if (target === null || typeof rawJson !== 'string') return next(error);
    void serveNode(cms, req, res, { ...target, body: rawJson }, options, next);
  };

  return [handler, onParserError];
}

/**
 * A body an earlier middleware read: bytes and text pass raw, anything else as already parsed. It counts only once the
 * stream is consumed (Express 4's body parsers set `{}` even when they leave a body, say multipart, unread).
 */
function bodyFromParser(req: Request): Pick<NodeTarget, 'body' | 'parsedBody'> {
  const body: unknown = req.body;
  if (body === undefined || !req.readableEnded) return {};
  if (body instanceof Uint8Array || typeof body === 'string') return { body };
  return { parsedBody: body };
}
