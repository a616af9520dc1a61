/** `oembed/1.0`: this site's posts as oEmbed objects, and the editors' proxy to other sites' providers. */
import { OEMBED } from '../core/names.js';
import { defineResource } from '../core/resource.js';
import type { CmsDeps } from '../deps.js';
import { oembedApi, type OembedApi } from './api.js';
import type { OembedDeps, OembedOptions } from './options.js';
import { oembedRoutes } from './routes.js';
import { createOembedRuntime, type OembedRuntime } from './runtime.js';

export { type OembedApi, type OembedDiscoveryLinks } from './api.js';
export { type OembedCacheOptions, type OembedDeps, type OembedOptions } from './options.js';
export { DEFAULT_PROVIDERS, type OembedProvider } from './providers.js';
export { CACHE_COLLECTION as OEMBED_CACHE_COLLECTION } from './cache.js';

/**
 * One runtime (options, provider list, cache) per dependency object, so the routes and the in-process API of one
 * site share it.
 */
const runtimes = new WeakMap<OembedDeps, OembedRuntime>();

function runtimeOf(deps: OembedDeps): OembedRuntime {
  let runtime = runtimes.get(deps);
  if (!runtime) {
    runtime = createOembedRuntime(deps);
    runtimes.set(deps, runtime);
  }
  return runtime;
}

export const oembedResource = defineResource({
  namespace: OEMBED,
  deps: (shared: CmsDeps, options: { uploads?: { baseUrl?: string }; oembed?: OembedOptions }): OembedDeps =>
    Object.freeze({ ...shared, uploadsBaseUrl: options.uploads?.baseUrl, oembed: options.oembed }),
  routes: (deps) => oembedRoutes(runtimeOf(deps)),
  /** oEmbed in-process: a post's discovery links for the page head, this site's oEmbed objects. */
  api: { name: 'oembed', create: (deps): OembedApi => oembedApi(runtimeOf(deps)) },
});
