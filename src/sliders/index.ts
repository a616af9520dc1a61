import { definePostType, POST_TYPE } from '../content/post-type/index.js';
import type { Registry } from '../core/registry.js';
import { slidersApiOver, type SlidersApi } from './api.js';
import { createFullObjectReader } from './full-object.js';
import type { SliderRuntime, SlidersDeps } from './handlers.js';
import { sliderRoutes } from './routes.js';
import { createSliderService } from './service.js';

export type { SlidersApi, SliderDocument } from './api.js';
export type { SliderSummary } from './service.js';
export type { SlidersDeps } from './handlers.js';
export { SLIDERS_COLLECTION, SLIDES_COLLECTION } from './record.js';

const runtimes = new WeakMap<SlidersDeps, SliderRuntime>();

/** One runtime per dependency object, so the routes and `cms.sliders` share the storage wrapper and read cache. */
function runtimeOf(deps: SlidersDeps): SliderRuntime {
  let runtime = runtimes.get(deps);
  if (!runtime) {
    const service = createSliderService(deps.storage);
    runtime = { deps, posts: definePostType(POST_TYPE, deps), service, reader: createFullObjectReader(service) };
    runtimes.set(deps, runtime);
  }
  return runtime;
}

export function registerSliders(registry: Registry, deps: SlidersDeps, namespace = 'slider'): void {
  registry.addRoutes(namespace, sliderRoutes(runtimeOf(deps)));
}

export function createSlidersApi(deps: SlidersDeps): SlidersApi {
  return slidersApiOver(runtimeOf(deps).service);
}
