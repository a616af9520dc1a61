/**
 * The `slider` namespace: the reference's five public read routes (no declared arguments, as there) and our
 * authenticated write routes on the same paths.
 */
import { publishingDuePosts } from '../content/post-type/index.js';
import { allowAnyone, CREATABLE, DELETABLE, READABLE, type RouteTable } from '../core/registry.js';
import { sliderWriteArgs } from './args.js';
import { createSlider, deleteSlider, readFullObject, readModal, readStream, updateSlider, type SliderRuntime } from './handlers.js';
import { canManageSliders } from './permissions.js';

export function sliderRoutes(runtime: SliderRuntime): RouteTable {
  return [
    { path: '/sliders', endpoints: [
      { methods: READABLE, permission: allowAnyone, handler: (c) => readFullObject(c, runtime) },
      { methods: CREATABLE, args: sliderWriteArgs(true), permission: (c) => canManageSliders(c, runtime.deps), handler: (c) => createSlider(c, runtime) },
    ] },
    { path: '/sliders/(?P<slider>[\\w\\-]+)', endpoints: [
      { methods: READABLE, permission: allowAnyone, handler: (c) => readFullObject(c, runtime) },
      { methods: ['PUT', 'PATCH'], args: sliderWriteArgs(false), permission: (c) => canManageSliders(c, runtime.deps), handler: (c) => updateSlider(c, runtime) },
      { methods: DELETABLE, permission: (c) => canManageSliders(c, runtime.deps), handler: (c) => deleteSlider(c, runtime) },
    ] },
    { path: '/sliders/slides/(?P<id>\\d+)', endpoints: [
      { methods: READABLE, permission: allowAnyone, handler: (c) => readFullObject(c, runtime) },
    ] },
    // The stream lists posts, so it reads them after the due scheduled ones are stored.
    ...publishingDuePosts([{ path: '/sliders/stream/(?P<id>[0-9,]+)', endpoints: [
      { methods: READABLE, permission: allowAnyone, handler: (c) => readStream(c, runtime) },
    ] }], runtime.posts.deps),
    { path: '/sliders/modal/(?P<slider>[\\w\\-]+)', endpoints: [
      { methods: READABLE, permission: allowAnyone, handler: (c) => readModal(c, runtime) },
    ] },
  ];
}
