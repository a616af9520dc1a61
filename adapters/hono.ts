/**
 * Hono adapter, layered on the fetch adapter: `app.all('/cms-json/*', toHono(cms))` plus `app.all('/cms-json', …)`,
 * or `app.use(toHono(cms))` to also serve `?rest_route=` anywhere. Requests that are not for the API go to `next()`.
 */
import type { Context, MiddlewareHandler } from 'hono';
import { compileTrustProxy } from '../src/core/client-address.js';
import { normalizePrefix } from '../src/core/mount.js';
import type { Cms } from '../src/index.js';
import { fetchTarget, serveFetch, type FetchAdapterOptions } from './fetch.js';

/** `prefix` is the API root in the full request path: under `app.route('/api', sub)` it starts with `/api`. */
export type HonoAdapterOptions = Omit<FetchAdapterOptions, 'user'> & {
  /** The user the host's own login resolved for this request (from Hono's context), if any. */
  user?: (c: Context) => ReturnType<NonNullable<FetchAdapterOptions['user']>>;
};

export function toHono(cms: Cms, honoOptions: HonoAdapterOptions = {}): MiddlewareHandler {
  const { user, ...options } = honoOptions;
  const prefix = normalizePrefix(options.prefix ?? cms.apiRoot);
  const trust = compileTrustProxy(options.trustProxy);
  return async (c, next) => {
    const request = c.req.raw;
    const target = fetchTarget(request, prefix, trust, options.remoteAddress?.(request) ?? remoteAddressOf(c.env));
    if (target.path === null) return next();
    return serveFetch(cms, request, { ...target, path: target.path }, user ? { ...options, user: () => user(c) } : options, {
      // A validator that read the body leaves the stream used; Hono keeps a copy.
      ...(request.bodyUsed ? { readBody: () => c.req.arrayBuffer() } : {}),
    });
  };
}

/** The client address on @hono/node-server, whose bindings carry the IncomingMessage. */
function remoteAddressOf(env: unknown): string | undefined {
  const address = (env as { incoming?: { socket?: { remoteAddress?: unknown } } } | undefined)?.incoming?.socket?.remoteAddress;
  return typeof address === 'string' ? address : undefined;
}
