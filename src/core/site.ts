import { NEUTRAL_NAMES, type Names } from './names.js';
import { buildQueryString } from './query.js';

/** Site settings a host passes to `createCms`; all optional. */
export interface SiteSettings {
  /** Site title (`name` in the index). */
  name?: string;
  description?: string;
  /** Public address of the site, e.g. `https://example.com`. Without it, each request's own origin is used. */
  url?: string;
  /** Home address; defaults to `url`. */
  home?: string;
  /** Path of the API root below the site address; default `/cms-json` (`/wp-json` under WordPress names). */
  apiRoot?: string;
  /** IANA time zone name, e.g. `Europe/Paris`; empty for a fixed offset. */
  timezone?: string;
  /** Offset from GMT in hours (e.g. 5.5), used when `timezone` is empty. */
  gmtOffset?: number;
  showOnFront?: 'posts' | 'page';
  pageOnFront?: number;
  pageForPosts?: number;
  siteLogo?: number;
  siteIcon?: number;
  siteIconUrl?: string;
  /** Where a user grants an application a credential; default `{url}/admin/authorize-application`. */
  authorizationUrl?: string;
  /** The site administrator's address (form mail goes there by default); default `admin@example.com`. */
  adminEmail?: string;
  /** Words that mark a form submission as spam when any posted value, the address or the user agent holds one. */
  disallowedKeys?: readonly string[];
  /** The site's locale, e.g. `en_US` (the default); new forms take it. */
  locale?: string;
  /** Whether emoticons in content become emoji (default true). */
  useSmilies?: boolean;
}

/** The settings resolved for one request. */
export interface Site {
  readonly name: string;
  readonly description: string;
  readonly url: string;
  readonly home: string;
  readonly apiRoot: string;
  /** Absolute URL of the API root, without a trailing slash. */
  readonly apiUrl: string;
  readonly timezone: string;
  readonly gmtOffset: number;
  readonly showOnFront: 'posts' | 'page';
  readonly pageOnFront: number;
  readonly pageForPosts: number;
  readonly siteLogo: number;
  readonly siteIcon: number;
  readonly siteIconUrl: string;
  readonly authorizationUrl: string;
  readonly useSmilies: boolean;
  /** Absolute URL for an API path, e.g. `/cms/v2/posts/4`, its namespace under the names served. */
  apiLink(path: string, query?: Record<string, unknown>): string;
}

export function normalizeApiRoot(apiRoot: string | undefined, names: Names = NEUTRAL_NAMES): string {
  const trimmed = (apiRoot ?? names.defaultApiRoot).replace(/\/+$/, '');
  return trimmed === '' ? '' : trimmed.startsWith('/') ? trimmed : `/${trimmed}`;
}

/**
 * Resolves the settings for a request. `requestApiUrl` is the API root as the request reached it (adapters fill
 * it); it decides the links only when no `url` is configured.
 */
export function resolveSite(settings: SiteSettings, requestApiUrl: string | undefined, names: Names = NEUTRAL_NAMES): Site {
  const apiRoot = normalizeApiRoot(settings.apiRoot, names);
  const configuredUrl = settings.url?.replace(/\/+$/, '');
  const apiUrl = configuredUrl !== undefined
    ? `${configuredUrl}${apiRoot}`
    : (requestApiUrl?.replace(/\/+$/, '') ?? `http://localhost${apiRoot}`);
  const url = configuredUrl ?? apiUrl.slice(0, apiUrl.length - apiRoot.length);
  const home = settings.home?.replace(/\/+$/, '') ?? url;
  const timezone = settings.timezone ?? '';
  return {
    name: settings.name ?? 'quire',
    description: settings.description ?? '',
    url,
    home,
    apiRoot,
    apiUrl,
    timezone,
    gmtOffset: settings.gmtOffset ?? (timezone ? offsetHoursOf(timezone, new Date()) : 0),
    showOnFront: settings.showOnFront ?? 'posts',
    pageOnFront: settings.pageOnFront ?? 0,
    pageForPosts: settings.pageForPosts ?? 0,
    siteLogo: settings.siteLogo ?? 0,
    siteIcon: settings.siteIcon ?? 0,
    siteIconUrl: settings.siteIconUrl ?? '',
    authorizationUrl: settings.authorizationUrl ?? `${url}/admin/authorize-application`,
    useSmilies: settings.useSmilies ?? true,
    apiLink(path: string, query?: Record<string, unknown>): string {
      const search = query ? buildQueryString(query) : '';
      return `${apiUrl}${names.path(path)}${search ? `?${search}` : ''}`;
    },
  };
}

/** The offset of an IANA zone from GMT at an instant, in hours. */
export function offsetHoursOf(timezone: string, at: Date): number {
  const parts = formatterFor(timezone).formatToParts(at);
  const value = (type: string) => Number(parts.find((part) => part.type === type)?.value ?? 0);
  const asUtc = Date.UTC(value('year'), value('month') - 1, value('day'), value('hour'), value('minute'), value('second'));
  return Math.round((asUtc - Math.floor(at.getTime() / 1000) * 1000) / 60000) / 60;
}

/** Formatters by time zone: making one costs far more than using it, and every request asks for the offset. */
const formatters = new Map<string, Intl.DateTimeFormat>();
const MAX_FORMATTERS = 64;

function formatterFor(timezone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timezone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone: timezone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit',
      hour: '2-digit', minute: '2-digit', second: '2-digit',
    });
    if (formatters.size >= MAX_FORMATTERS) formatters.clear();
    formatters.set(timezone, formatter);
  }
  return formatter;
}

/** The last site resolved, reused while the settings object and the request's API root stay the same. */
export class SiteResolver {
  #last: { settings: SiteSettings; baseUrl: string | undefined; site: Site } | null = null;

  resolve(settings: SiteSettings, requestApiUrl: string | undefined, names: Names): Site {
    const last = this.#last;
    if (last !== null && last.settings === settings && last.baseUrl === requestApiUrl) return last.site;
    const site = resolveSite(settings, requestApiUrl, names);
    // Under a named time zone the offset follows the clock (daylight saving time): such a site is resolved afresh.
    if (settings.gmtOffset !== undefined || !settings.timezone) this.#last = { settings, baseUrl: requestApiUrl, site };
    return site;
  }
}
