/** What the oEmbed resource is given, and the choices a host can make (`createCms({ oembed: {...} })`). */
import type { CmsDeps } from '../deps.js';
import { DEFAULT_PROVIDERS, type OembedProvider } from './providers.js';

export interface OembedCacheOptions {
  /** How long a provider's answer is kept, in milliseconds (default one day, as the reference). */
  ttlMs?: number;
  /** How long a failed lookup is remembered, so a bad URL cannot make the service hammer a provider (default 5 minutes). */
  failureTtlMs?: number;
  /** Most answers kept (default 500). The store-backed cache removes the oldest beyond it. */
  maxEntries?: number;
  /**
   * `'memory'` (default): an LRU cache in this process. `'storage'`: records in the storage port, so several
   * processes sharing one database share the cache.
   */
  store?: 'memory' | 'storage';
}

export interface OembedOptions {
  /**
   * The trusted provider list (URL pattern → oEmbed endpoint, first match wins). A list replaces the default (the
   * reference's 6.1 list, `DEFAULT_PROVIDERS`); a function receives the default and returns the list to use.
   */
  providers?: readonly OembedProvider[] | ((defaults: readonly OembedProvider[]) => readonly OembedProvider[]);
  cache?: OembedCacheOptions;
  /** Deadline of each outbound request of a proxy lookup, in milliseconds (default 5000). */
  timeoutMs?: number;
  /** Whether `html` of this site's embeds carries the inline host script that resizes the frame (default true). */
  hostScript?: boolean;
}

/** The ports and settings the oEmbed routes use. */
/** `postSettings`: the permalink structure. */
export interface OembedDeps extends Pick<CmsDeps, 'storage' | 'clock' | 'httpClient' | 'site' | 'names' | 'capabilityRules' | 'postSettings'> {
  /** Public address of uploaded files (thumbnails); default `{site url}/uploads`. */
  readonly uploadsBaseUrl?: string | undefined;
  readonly oembed?: OembedOptions | undefined;
}

export interface ResolvedOembedOptions {
  providers: readonly OembedProvider[];
  ttlMs: number;
  failureTtlMs: number;
  maxEntries: number;
  store: 'memory' | 'storage';
  timeoutMs: number;
  hostScript: boolean;
}

export const DAY_MS = 86_400_000;

function positive(value: number | undefined, fallback: number): number {
  return value !== undefined && Number.isFinite(value) && value > 0 ? value : fallback;
}

export function resolveOembedOptions(options: OembedOptions = {}): ResolvedOembedOptions {
  const providers = typeof options.providers === 'function'
    ? options.providers(DEFAULT_PROVIDERS)
    : options.providers ?? DEFAULT_PROVIDERS;
  return {
    providers: Object.freeze([...providers]),
    ttlMs: positive(options.cache?.ttlMs, DAY_MS),
    failureTtlMs: positive(options.cache?.failureTtlMs, 5 * 60_000),
    maxEntries: Math.floor(positive(options.cache?.maxEntries, 500)),
    store: options.cache?.store ?? 'memory',
    timeoutMs: positive(options.timeoutMs, 5000),
    hostScript: options.hostScript ?? true,
  };
}
