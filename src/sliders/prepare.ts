/**
 * Stored slider data in the shapes the read routes serve, as the reference (6.7.20, SR7) serves them:
 * - settings gain `version` and the site-wide values (`general.lazyLoad`, `general.slideshow.globalViewPort`,
 *   `globalViewDist`); `source` is cut down to its `type` and a few counters, so no token or key is served;
 * - slides gain `version`; timeline values wrapped as `[{0: a, 1: b}]` are unwrapped;
 * - layers of ordinary slides gain `content.text` and `toggle.text` (`""` when missing) unless they are images,
 *   SVGs, columns or shapes, and their `menu`/`link` actions gain `menu_link`/`image_link`;
 * - layers keyed `0…n-1` are a JSON list, as PHP's `json_encode` writes them.
 */
import { isPlainObject } from '../format/php.js';

/** The engine version the reference reports in every slider and slide. */
export const SLIDER_VERSION = '6.7.20';

/** The reference's global settings defaults: forced lazy loading, viewport start and its distance. */
export const GLOBAL_LAZY_LOAD = 'smart';
export const GLOBAL_VIEWPORT = true;
export const GLOBAL_VIEWPORT_DISTANCE = '-200px';

/** Source kinds and the only members of theirs that are served. */
const PUBLIC_SOURCES = ['post', 'specific_posts', 'specific_post', 'woo', 'woocommerce', 'instagram', 'facebook', 'flickr', 'twitter', 'vimeo', 'youtube'];
const PUBLIC_SOURCE_MEMBERS = ['excerptLimit', 'maxPosts', 'maxProducts', 'count'];

const TIMELINE_KEYS = ['duration', 'easeIn', 'easeOut', 'rotation', 'slots', 'transition'];
const UNTEXTED_LAYER_TYPES = new Set(['image', 'svg', 'column', 'shape']);

type Json = Record<string, unknown>;

/** PHP's `isset`: present and not null. */
function isSet(value: unknown): boolean {
  return value !== undefined && value !== null;
}

/** The reference's `get_val` over a path: the default when a step is missing, null or not an object. */
export function valueAt(root: unknown, path: readonly string[], fallback: unknown): unknown {
  let node = root;
  for (const key of path) {
    if (node === null || typeof node !== 'object' || !isSet((node as Json)[key])) return fallback;
    node = (node as Json)[key];
  }
  return node;
}

/** The member as an object, made one when it is missing or something else. */
function objectMember(owner: Json, key: string): Json {
  const current = owner[key];
  if (isPlainObject(current)) return current;
  const created: Json = {};
  owner[key] = created;
  return created;
}

function publicSource(source: unknown): Json {
  const cut: Json = { type: valueAt(source, ['type'], '') };
  if (!isPlainObject(source)) return cut;
  for (const kind of PUBLIC_SOURCES) {
    const members = source[kind];
    if (!isPlainObject(members)) continue;
    for (const member of PUBLIC_SOURCE_MEMBERS) {
      if (isSet(members[member])) objectMember(cut, kind)[member] = members[member];
    }
  }
  return cut;
}

/** The settings as served; changes `settings` (a fresh copy from storage) in place. */
export function publicSettings(settings: Json): Json {
  settings.version = SLIDER_VERSION;
  const general = objectMember(settings, 'general');
  const lazyLoad = valueAt(general, ['lazyLoad'], 'none');
  if (lazyLoad === 'none') general.lazyLoad = GLOBAL_LAZY_LOAD;
  const slideshow = objectMember(general, 'slideshow');
  slideshow.globalViewPort = GLOBAL_VIEWPORT;
  slideshow.globalViewDist = GLOBAL_VIEWPORT_DISTANCE;
  if (isSet(settings.source)) settings.source = publicSource(settings.source);
  return settings;
}

/** A slide's settings as served; changes `slide` in place. */
export function servedSlide(slide: Json): Json {
  const timeline = slide.timeline;
  if (isPlainObject(timeline)) {
    for (const key of TIMELINE_KEYS) {
      const wrapped = valueAt(timeline, [key, '0'], null);
      if (wrapped !== null && typeof wrapped === 'object') timeline[key] = Object.values(wrapped);
    }
  }
  slide.version = SLIDER_VERSION;
  return slide;
}

function withText(owner: Json, key: string): void {
  const member = owner[key];
  if (!isSet(member)) owner[key] = { text: '' };
  else if (isPlainObject(member) && !isSet(member.text)) member.text = '';
}

function addActionLinks(layer: Json): void {
  const actions = valueAt(layer, ['actions', 'action'], null);
  if (actions === null || typeof actions !== 'object') return;
  for (const action of Object.values(actions)) {
    if (!isPlainObject(action)) continue;
    const kind = action.action;
    if (kind !== 'menu' && kind !== 'link') continue;
    if (kind === 'link' && action.link_type === 'jquery') continue;
    action[kind === 'menu' ? 'menu_link' : 'image_link'] = valueAt(action, [kind], '');
  }
}

/** An ordinary slide's layers as served; changes the layers in place. */
export function servedLayers(layers: unknown[] | Json): unknown[] | Json {
  for (const layer of Object.values(layers)) {
    if (!isPlainObject(layer)) continue;
    const type = valueAt(layer, ['type'], 'text');
    if (typeof type === 'string' && UNTEXTED_LAYER_TYPES.has(type)) continue;
    withText(layer, 'content');
    withText(layer, 'toggle');
    addActionLinks(layer);
  }
  return asPhpList(layers);
}

/** A map keyed exactly `0…n-1` (or nothing) becomes a list, as PHP encodes such arrays. */
export function asPhpList(value: unknown[] | Json): unknown[] | Json {
  if (Array.isArray(value)) return value;
  const keys = Object.keys(value);
  for (let index = 0; index < keys.length; index++) {
    if (keys[index] !== String(index)) return value;
  }
  return Object.values(value);
}
