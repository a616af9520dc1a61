/** What the oEmbed routes and the in-process API share, built once from the dependencies. */
import type { Site } from '../core/site.js';
import { createMemoryCache, createStorageCache, type OembedCache } from './cache.js';
import { resolveOembedOptions, type OembedDeps, type ResolvedOembedOptions } from './options.js';
import type { PostEmbedSite } from './post-embed.js';
import type { ProviderLookup } from './provider-fetch.js';

export interface OembedRuntime {
  readonly deps: OembedDeps;
  readonly options: ResolvedOembedOptions;
  readonly cache: OembedCache;
  /** The site facts a lookup needs, for the site as one request resolved it. */
  embedSite(site: Site): PostEmbedSite;
  providerLookup(site: Site): ProviderLookup;
}

export function createOembedRuntime(deps: OembedDeps): OembedRuntime {
  const options = resolveOembedOptions(deps.oembed);
  const { permalinkStructure } = deps.postSettings;
  const cache = options.store === 'storage'
    ? createStorageCache(deps.storage, options.maxEntries, deps.clock)
    : createMemoryCache(options.maxEntries, deps.clock);
  return {
    deps,
    options,
    cache,
    embedSite: (site) => ({
      storage: deps.storage,
      site,
      permalinkStructure,
      capabilityRules: deps.capabilityRules,
      uploadsBaseUrl: deps.uploadsBaseUrl?.replace(/\/+$/, '') ?? `${site.url}/uploads`,
      hostScript: options.hostScript,
    }),
    providerLookup: (site) => ({ http: deps.httpClient, providers: options.providers, home: site.home, timeoutMs: options.timeoutMs }),
  };
}
