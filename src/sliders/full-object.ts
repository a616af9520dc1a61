/**
 * The full slider object (`{success, message, settings, slides, id, addOns}`) and its `slideid` variant.
 *
 * Slides are prepared once per stored revision of a slider and kept (frozen, with the JSON bytes of each) in a
 * bounded cache, so a read costs two storage reads, the publish-window filter and joining the slides' bytes.
 * Preparing a large slider (200 slides of 50 layers is about 6 MiB) takes a turn of the event loop every few
 * milliseconds, so the first read after a write does not hold up other requests.
 */
import { LRUCache } from 'lru-cache';
import { isEmpty, isNumeric, isPlainObject, toFloat } from '../format/php.js';
import { EncodedJson } from '../core/encode.js';
import { deepFreeze } from '../core/freeze.js';
import { nextTurn, TURN_MS } from '../format/turn.js';
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
  /** `served` as JSON text. */
  readonly json: string;
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
  const window = { state: record.state, publish_from: record.publish_from, publish_to: record.publish_to };
  return deepFreeze({ id: record.id, window, served, json: JSON.stringify(served) });
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
  /**
   * The answer for a slider; `slideid` (the raw parameter) restricts the slides and drops settings and id. With
   * `encoded`, the answer is its JSON bytes (the very bytes `JSON.stringify` of the object would give).
   */
  read(slider: SliderRecord, slideid: unknown, clock: PublishClock, encoded?: boolean): Promise<Record<string, unknown> | EncodedJson>;
}

const encoder = new TextEncoder();

export function createFullObjectReader(service: SliderService): FullObjectReader {
  const cache = new LRUCache<number, PreparedSlides>({ maxSize: CACHE_UNITS, sizeCalculation: unitsOf });

  const preparing = new Map<number, { revision: unknown; prepared: Promise<PreparedSlides> }>();

  async function prepareAll(slider: SliderRecord): Promise<PreparedSlides> {
    let records = await service.slidesOf(slider.id, true);
    // A write between the pages could have mixed two revisions: then the slides are read again in one piece.
    const consistent = (await service.getSlider(slider.id))?.revision === slider.revision;
    if (!consistent) records = await service.slidesOf(slider.id);
    const ordinary: PreparedSlide[] = [];
    let staticSlide: PreparedSlide | null = null;
    let turnStarted = performance.now();
    for (const record of records) {
      if (record.static) staticSlide ??= prepareSlide(record);
      else ordinary.push(prepareSlide(record));
      if (performance.now() - turnStarted > TURN_MS) {
        await nextTurn();
        turnStarted = performance.now();
      }
    }
    const prepared: PreparedSlides = Object.freeze({ revision: slider.revision, ordinary: Object.freeze(ordinary), staticSlide });
    if (consistent && unitsOf(prepared) <= CACHE_UNITS) cache.set(slider.id, prepared);
    return prepared;
  }

  /** Concurrent first reads of one revision share one preparation. */
  function preparedSlides(slider: SliderRecord): Promise<PreparedSlides> {
    const cached = cache.get(slider.id);
    if (cached && cached.revision === slider.revision) return Promise.resolve(cached);
    const running = preparing.get(slider.id);
    if (running && running.revision === slider.revision) return running.prepared;
    const prepared = prepareAll(slider).finally(() => {
      if (preparing.get(slider.id)?.prepared === prepared) preparing.delete(slider.id);
    });
    preparing.set(slider.id, { revision: slider.revision, prepared });
    return prepared;
  }

  return {
    async read(slider, slideid, clock, encoded = false) {
      const wanted = slideFilter(slideid);
      const body: Record<string, unknown> = { success: true, message: '' };
      if (wanted.length === 0) body.settings = publicSettings(isPlainObject(slider.settings) ? slider.settings : {});
      body.slides = [];
      if (wanted.length === 0) body.id = String(slider.id);

      const { ordinary, staticSlide } = await preparedSlides(slider);
      // The reference answers a slider without ordinary slides here: no static slide, no `addOns`.
      if (ordinary.length === 0) return body;

      const slides: Record<string, PreparedSlide> = {};
      let count = 0;
      for (const slide of ordinary) {
        if (wanted.length > 0 && !wanted.some((value) => looselyEquals(slide.id, value))) continue;
        if (!isShown(slide.window, clock)) continue;
        slides[slide.id] = slide;
        count++;
      }
      if (staticSlide && (wanted.length === 0 || wanted.includes(String(staticSlide.id)))) {
        slides[staticSlide.id] = staticSlide;
        count++;
      }
      body.addOns = [];
      if (encoded) return encodedBody(body, count > 0 ? slides : null);
      if (count > 0) body.slides = Object.fromEntries(Object.entries(slides).map(([id, slide]) => [id, slide.served]));
      return body;
    },
  };
}

/**
 * The bytes of `body` with `slides` in place of its `slides` member, joined from each slide's JSON in the order
 * `JSON.stringify` would write the object's keys (integer-like keys ascending: the order of `Object.keys`).
 */
function encodedBody(body: Record<string, unknown>, slides: Record<string, PreparedSlide> | null): EncodedJson {
  const parts: string[] = [];
  for (const [key, value] of Object.entries(body)) {
    let json: string;
    if (key === 'slides' && slides) json = `{${Object.keys(slides).map((id) => `${JSON.stringify(id)}:${slides[id]!.json}`).join(',')}}`;
    else json = JSON.stringify(value);
    parts.push(`${JSON.stringify(key)}:${json}`);
  }
  return new EncodedJson(encoder.encode(`{${parts.join(',')}}`));
}
