/**
 * The full slider object (`{success, message, settings, slides, id, addOns}`) and its `slideid` variant.
 *
 * Slides are prepared once per stored revision of a slider and kept (frozen) in a bounded cache, so a read
 * costs two storage reads, the publish-window filter and the response's own encoding.
 */
import { LRUCache } from 'lru-cache';
import { isEmpty, isNumeric, isPlainObject, toFloat } from '../core/args/php.js';
import { deepFreeze } from '../core/freeze.js';
import { paramText } from './lookup.js';
import { asPhpList, publicSettings, servedLayers, servedSlide } from './prepare.js';
import { isShown, type PublishClock } from './publish-window.js';
import type { SlideRecord, SliderRecord } from './record.js';
import type { SliderService } from './service.js';

/** One slide as served: `{id, slide, layers}`, the id a number for ordinary slides and a string for the static one. */
export interface ServedSlide {
  readonly id: number | string;
  readonly slide: unknown;
  readonly layers: unknown;
}

interface PreparedSlide {
  readonly id: number;
  readonly window: Pick<SlideRecord, 'state' | 'publish_from' | 'publish_to'>;
  readonly served: ServedSlide;
}

interface PreparedSlides {
  readonly revision: unknown;
  readonly ordinary: readonly PreparedSlide[];
  readonly staticSlide: PreparedSlide | null;
}

/** How many layers and slides the cache may hold in all (about 500 slides of 100 layers). */
const CACHE_UNITS = 50_000;

function prepareSlide(record: SlideRecord): PreparedSlide {
  const slide = servedSlide(isPlainObject(record.slide) ? record.slide : {});
  const layers = Array.isArray(record.layers) || isPlainObject(record.layers) ? record.layers : [];
  const served: ServedSlide = record.static
    ? { id: String(record.id), slide, layers: asPhpList(layers) }
    : { id: record.id, slide, layers: servedLayers(layers) };
  return { id: record.id, window: { state: record.state, publish_from: record.publish_from, publish_to: record.publish_to }, served };
}

function unitsOf(prepared: PreparedSlides): number {
  let units = 1;
  for (const slide of [...prepared.ordinary, ...(prepared.staticSlide ? [prepared.staticSlide] : [])]) {
    units += 1 + Object.keys(slide.served.layers as object).length;
  }
  return units;
}

/** The `slideid` values, as the reference reads them: none when empty, a single value as a list of one. */
function slideFilter(value: unknown): unknown[] {
  if (isEmpty(value)) return [];
  const values = Array.isArray(value) ? value : isPlainObject(value) ? Object.values(value) : [value];
  return values.map((item) => (typeof item === 'string' ? paramText(item) : item));
}

/** PHP's loose `==` between a slide's integer id and a requested value (`in_array` without strict). */
function looselyEquals(id: number, wanted: unknown): boolean {
  if (typeof wanted === 'number') return wanted === id;
  if (typeof wanted === 'string') return isNumeric(wanted) ? toFloat(wanted) === id : wanted === String(id);
  if (typeof wanted === 'boolean') return wanted;
  return false;
}

export interface FullObjectReader {
  /** The answer for a slider; `slideid` (the raw parameter) restricts the slides and drops settings and id. */
  read(slider: SliderRecord, slideid: unknown, clock: PublishClock): Promise<Record<string, unknown>>;
}

export function createFullObjectReader(service: SliderService): FullObjectReader {
  const cache = new LRUCache<number, PreparedSlides>({ maxSize: CACHE_UNITS, sizeCalculation: unitsOf });

  async function preparedSlides(slider: SliderRecord): Promise<PreparedSlides> {
    const cached = cache.get(slider.id);
    if (cached && cached.revision === slider.revision) return cached;
    const records = await service.slidesOf(slider.id);
    const ordinary = records.filter((record) => !record.static).map(prepareSlide);
    const staticRecord = records.find((record) => record.static);
    const prepared: PreparedSlides = deepFreeze({
      revision: slider.revision,
      ordinary,
      staticSlide: staticRecord ? prepareSlide(staticRecord) : null,
    });
    if (unitsOf(prepared) <= CACHE_UNITS) cache.set(slider.id, prepared);
    return prepared;
  }

  return {
    async read(slider, slideid, clock) {
      const wanted = slideFilter(slideid);
      const body: Record<string, unknown> = { success: true, message: '' };
      if (wanted.length === 0) body.settings = publicSettings(isPlainObject(slider.settings) ? slider.settings : {});
      body.slides = [];
      if (wanted.length === 0) body.id = String(slider.id);

      const { ordinary, staticSlide } = await preparedSlides(slider);
      // The reference answers a slider without ordinary slides here: no static slide, no `addOns`.
      if (ordinary.length === 0) return body;

      const slides: Record<string, ServedSlide> = {};
      let count = 0;
      for (const slide of ordinary) {
        if (wanted.length > 0 && !wanted.some((value) => looselyEquals(slide.id, value))) continue;
        if (!isShown(slide.window, clock)) continue;
        slides[slide.id] = slide.served;
        count++;
      }
      if (staticSlide && (wanted.length === 0 || wanted.includes(String(staticSlide.id)))) {
        slides[staticSlide.id] = staticSlide.served;
        count++;
      }
      if (count > 0) body.slides = slides;
      body.addOns = [];
      return body;
    },
  };
}
