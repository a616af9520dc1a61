/**
 * `cms.sliders`: the write routes in-process, taking exactly their body (`{alias, title, settings, slides}`),
 * checked by the same rules and failing with the same `CmsError`s; and the stored sliders for export.
 */
import { CmsError } from '../core/errors.js';
import { sliderNamed } from './handlers.js';
import { checkSliderBodyInTurns, type SlideInput } from './input.js';
import type { SliderRecord } from './record.js';
import type { SliderService, SliderSummary } from './service.js';

/** A stored slider in the write routes' shape (plus its ids): what `get` answers and `create` accepts back. */
export interface SliderDocument extends SliderSummary {
  settings: Record<string, unknown>;
  slides: SlideInput[];
}

export interface SlidersApi {
  /** Creates a slider and its slides (`slide.global: true` marks the static slide). */
  create(body: unknown): Promise<SliderSummary>;
  /** Changes the members given; `slides` replaces every slide. `slider` is an id, or an alias. */
  update(slider: number | string, body: unknown): Promise<SliderSummary>;
  /** Removes the slider and its slides; answers what was removed. */
  delete(slider: number | string): Promise<SliderSummary>;
  /** The stored slider, or null. */
  get(slider: number | string): Promise<SliderDocument | null>;
  /** Every slider, by id. */
  list(): Promise<{ id: number; alias: string; title: string }[]>;
}

const PAGE = 100;

export function slidersApiOver(service: SliderService): SlidersApi {
  const find = (slider: number | string): Promise<SliderRecord> =>
    typeof slider === 'number' ? service.getSlider(slider).then((found) => {
      if (!found) throw new CmsError('slider_not_found', 'Slider not found.', 404);
      return found;
    }) : sliderNamed(slider, service);
  const notFound = () => new CmsError('slider_not_found', 'Slider not found.', 404);

  return {
    create: async (body) => service.create(await checkSliderBodyInTurns(body, true)),
    async update(slider, body) {
      const input = await checkSliderBodyInTurns(body, false);
      const updated = await service.update((await find(slider)).id, input);
      if (!updated) throw notFound();
      return updated;
    },
    async delete(slider) {
      const removed = await service.remove((await find(slider)).id);
      if (!removed) throw notFound();
      return removed;
    },
    async get(slider) {
      let record: SliderRecord;
      try {
        record = await find(slider);
      } catch (error) {
        if (error instanceof CmsError && error.status === 404) return null;
        throw error;
      }
      const slides = await service.slidesOf(record.id);
      return {
        id: record.id,
        alias: record.alias,
        title: record.title,
        slide_ids: slides.map((slide) => slide.id),
        settings: record.settings,
        slides: slides.map((slide) => ({ slide: slide.slide, layers: slide.layers })),
      };
    },
    async list() {
      const sliders: { id: number; alias: string; title: string }[] = [];
      for (let offset = 0; ; offset += PAGE) {
        const { items } = await service.list(offset, PAGE);
        sliders.push(...items.map((slider) => ({ id: slider.id, alias: slider.alias, title: slider.title })));
        if (items.length < PAGE) return sliders;
      }
    },
  };
}
