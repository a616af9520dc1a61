/**
 * What every adapter decides the same way: whether a request is for the API, its path below the API root, and the
 * absolute URL of the API root as the client reached it. Runtime-neutral (no Node built-ins).
 */
import { parseQueryString } from '../src/core/query.js';
import { normalizeApiRoot } from '../src/core/site.js';

/** `/cms-json/` → `/cms-json`; `/` or empty → `` (the API at the site root). */
export function normalizePrefix(prefix: string): string {
  return normalizeApiRoot(prefix);
}

/** Splits a request target into its raw path and raw query (without `?`); an absolute-form target loses its origin. */
export function splitTarget(target: string): { pathname: string; query: string } {
  const relative = target.replace(/^[a-z][a-z\d+.-]*:\/\/[^/?]*/i, '') || '/';
  const mark = relative.indexOf('?');
  return mark === -1
    ? { pathname: relative, query: '' }
    : { pathname: relative.slice(0, mark), query: relative.slice(mark + 1) };
}

/**
 * The path handed to the core, or null when the request is not for the API. Under the prefix the prefix is
 * stripped; anywhere else a non-empty `rest_route` query parameter makes it an API request (the core routes by it).
 * The path stays percent-encoded, as the reference matches routes against the raw request path.
 */
export function corePath(pathname: string, query: string, prefix: string): string | null {
  if (pathname === prefix) return '/';
  if (pathname.startsWith(`${prefix}/`)) return pathname.slice(prefix.length);
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

/** `http://host:port/prefix`, refusing scheme and host values that are not plausible (links are built from them). */
export function apiRootUrl(proto: string | undefined, host: string | undefined, fallbackHost: string, prefix: string): string {
  const scheme = proto && /^https?$/i.test(proto) ? proto.toLowerCase() : 'http';
  const authority = host && /^[\w.-]+(:\d+)?$|^\[[\da-f:.]+\](:\d+)?$/i.test(host) ? host : fallbackHost;
  return `${scheme}://${authority}${prefix}`;
}
