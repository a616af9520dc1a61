import { definePostType, POST_TYPE } from '../content/post-type/index.js';
import { SLIDER } from '../core/names.js';
import { defineResource } from '../core/resource.js';
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

export const slidersResource = defineResource({
  namespace: SLIDER,
  deps: (shared: SlidersDeps) => shared,
  routes: (deps) => sliderRoutes(runtimeOf(deps)),
  /** Sliders in-process: create, update, delete, get and list with the write routes' bodies. */
  api: { name: 'sliders', create: (deps): SlidersApi => slidersApiOver(runtimeOf(deps).service) },
});
