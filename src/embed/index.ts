/** `oembed/1.0`: this site's posts as oEmbed objects, and the editors' proxy to other sites' providers. */
import type { Registry } from '../core/registry.js';
import { oembedApi, type OembedApi } from './api.js';
import type { OembedDeps } from './options.js';
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

export function registerOembed(registry: Registry, deps: OembedDeps): void {
  registry.addRoutes('oembed/1.0', oembedRoutes(runtimeOf(deps)));
}

export function createOembedApi(deps: OembedDeps): OembedApi {
  return oembedApi(runtimeOf(deps));
}
