import type { Principal, Services } from './core/context.js';
import { HttpCore, type Authenticator } from './core/http.js';
import { namespaceRoot, registerIndex } from './core/index-document.js';
import { Registry } from './core/registry.js';
import { normalizeApiRoot, type SiteSettings } from './core/site.js';
import type { CmsRequest, CmsResponse } from './core/types.js';
import { systemClock, type Clock } from './ports/clock.js';

declare module './core/context.js' {
  interface Services {
    clock: Clock;
  }
}

export interface CmsOptions {
  /** Site settings: name, description, url, home, apiRoot, timezone, gmtOffset, front page, authorization URL. */
  site?: SiteSettings;
  clock?: Clock;
  /** Resolves the caller from the request (in addition to a principal passed as `request.user`). */
  authenticate?: Authenticator;
  /** Receives every unexpected error; the client sees only a 500 `internal_error`. */
  onError?: (error: unknown) => void;
  /** Largest accepted request body, in bytes (default 32 MiB); larger ones get 413. */
  maxBodyBytes?: number;
  /** Prefix of the paging headers (default `X-WP`, as existing clients expect). */
  headerPrefix?: string;
  /** Serve `_jsonp` callbacks (default true, as the reference). */
  jsonp?: boolean;
}

export interface Cms {
  /** Answers one request; never throws. */
  handle(request: CmsRequest): Promise<CmsResponse>;
  /** The API root path below the site address, e.g. `/cms-json`. */
  readonly apiRoot: string;
  readonly maxBodyBytes: number;
  /** The value of the site-root discovery header: `<…/cms-json/>; rel="https://api.w.org/"`. */
  discoveryLink(requestApiUrl?: string): string;
  readonly registry: Registry;
}

/** Namespaces the index advertises, in its order. */
export const NAMESPACES = [
  'oembed/1.0', 'forms/v1', 'slider', 'mailing/v1', 'cms/v2', 'cms-site-health/v1', 'cms-block-editor/v1', 'cms-abilities/v1',
] as const;

export const DEFAULT_MAX_BODY_BYTES = 32 * 1024 * 1024;

export function createCms(options: CmsOptions = {}): Cms {
  const registry = new Registry();
  const services: Services = { clock: options.clock ?? systemClock };
  registerIndex(registry);
  for (const namespace of NAMESPACES) registry.namespace(namespace, namespaceRoot(registry));

  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const core = new HttpCore({
    registry,
    services,
    site: options.site ?? {},
    maxBodyBytes,
    headerPrefix: options.headerPrefix ?? 'X-WP',
    jsonp: options.jsonp ?? true,
    authenticate: async (input) => (input.user ? (input.user as Principal) : (await options.authenticate?.(input)) ?? null),
    ...(options.onError ? { onError: options.onError } : {}),
  });
  return {
    handle: (request) => core.handle(request),
    apiRoot: normalizeApiRoot(options.site?.apiRoot),
    maxBodyBytes,
    discoveryLink: (requestApiUrl) => core.discoveryLink(requestApiUrl),
    registry,
  };
}
