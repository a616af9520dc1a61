/** Storage access for sliders and slides: typed reads, and writes that keep a slider and its slides together. */
import { CmsError } from '../core/errors.js';
import { nextTurn, TURN_MS } from '../format/turn.js';
import type { StoragePort } from '../ports/storage.js';
import type { SliderInput, SlideInput } from './input.js';
import { isSlideRecord, isSliderRecord, SLIDERS_COLLECTION, SLIDES_COLLECTION, type SlideRecord, type SliderRecord } from './record.js';

/** What the write routes and the in-process API answer. */
export interface SliderSummary {
  id: number;
  alias: string;
  title: string;
  /** The slides' ids in their order, the static slide where it was given. */
  slide_ids: number[];
}

export interface SliderService {
  getSlider(id: number): Promise<SliderRecord | null>;
  /** The slider with this alias, compared without regard to case (as the reference's database does). */
  findByAlias(alias: string): Promise<SliderRecord | null>;
  getSlide(id: number): Promise<SlideRecord | null>;
  /** A slider's slides by position (the static slide among them, where it was given). */
  slidesOf(sliderId: number, paged?: boolean): Promise<SlideRecord[]>;
  list(offset: number, limit: number): Promise<{ items: SliderRecord[]; total: number }>;
  create(input: SliderInput): Promise<SliderSummary>;
  update(id: number, input: SliderInput): Promise<SliderSummary | null>;
  remove(id: number): Promise<SliderSummary | null>;
}

function validId(id: number): boolean {
  return Number.isSafeInteger(id) && id > 0;
}

function aliasTaken(alias: string): CmsError {
  const message = `A slider with the alias ${alias} already exists.`;
  return new CmsError('rest_invalid_param', 'Invalid parameter(s): alias', 400, {
    params: { alias: message },
    details: { alias: { code: 'rest_slider_alias_exists', message, data: null } },
  });
}

function textOf(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function slideFields(input: SlideInput, sliderId: number, position: number): Omit<SlideRecord, 'id'> {
  const publish = input.slide.publish;
  const window = publish !== null && typeof publish === 'object' && !Array.isArray(publish) ? publish as Record<string, unknown> : {};
  return {
    parent: sliderId,
    menu_order: position,
    static: input.slide.global === true,
    state: window.state === 'unpublished' ? 'unpublished' : 'published',
    publish_from: textOf(window.from),
    publish_to: textOf(window.to),
    slide: input.slide,
    layers: input.layers,
  };
}

async function findAlias(storage: StoragePort, alias: string): Promise<SliderRecord | null> {
  const { items } = await storage.list(SLIDERS_COLLECTION, { where: [{ field: 'alias', op: 'textEquals', value: alias }], limit: 1 });
  const found = items[0] ?? null;
  return isSliderRecord(found) ? found : null;
}

/** Slides read per storage call when reading them in pages. */
const SLIDE_PAGE = 20;

/**
 * A slider's slides; `paged` reads them a page at a time with turns of the event loop between pages, so that
 * copying a large slider out of the store does not hold up other requests (the caller checks the revision).
 */
async function slidesOf(storage: StoragePort, sliderId: number, paged = false): Promise<SlideRecord[]> {
  const query = {
    where: [{ field: 'parent', op: 'eq' as const, value: sliderId }],
    orderBy: [{ field: 'menu_order', direction: 'asc' as const }, { field: 'id', direction: 'asc' as const }],
  };
  if (!paged) return (await storage.list(SLIDES_COLLECTION, query)).items.filter(isSlideRecord);
  const slides: SlideRecord[] = [];
  for (let offset = 0; ; offset += SLIDE_PAGE) {
    const { items } = await storage.list(SLIDES_COLLECTION, { ...query, offset, limit: SLIDE_PAGE });
    slides.push(...items.filter(isSlideRecord));
    if (items.length < SLIDE_PAGE) return slides;
    await nextTurn();
  }
}

/**
 * Inserts the slides in the order reads show them (the static slide last), so that ids ascend in that order:
 * a JSON object keyed by slide id then lists them in slide order in every client. Answers the ids in the
 * order given.
 */
async function insertSlides(storage: StoragePort, sliderId: number, slides: readonly SlideInput[]): Promise<number[]> {
  const ids: number[] = new Array<number>(slides.length);
  const order = slides.map((slide, position) => ({ slide, position }));
  order.sort((a, b) => Number(a.slide.slide.global === true) - Number(b.slide.slide.global === true) || a.position - b.position);
  let turnStarted = performance.now();
  for (const { slide, position } of order) {
    const record = await storage.insert(SLIDES_COLLECTION, slideFields(slide, sliderId, position));
    ids[position] = record.id;
    // Copying a large slider into the store (6 MiB for 200 slides of 50 layers) takes turns of the event loop.
    if (performance.now() - turnStarted > TURN_MS) {
      await nextTurn();
      turnStarted = performance.now();
    }
  }
  return ids;
}

function summary(slider: SliderRecord, slideIds: number[]): SliderSummary {
  return { id: slider.id, alias: slider.alias, title: slider.title, slide_ids: slideIds };
}

export function createSliderService(storage: StoragePort): SliderService {
  const getSlider = async (id: number) => {
    if (!validId(id)) return null;
    const record = await storage.get(SLIDERS_COLLECTION, id);
    return isSliderRecord(record) ? record : null;
  };

  return {
    getSlider,
    findByAlias: (alias) => (alias === '' ? Promise.resolve(null) : findAlias(storage, alias)),
    async getSlide(id) {
      if (!validId(id)) return null;
      const record = await storage.get(SLIDES_COLLECTION, id);
      return isSlideRecord(record) ? record : null;
    },
    slidesOf: (sliderId, paged) => slidesOf(storage, sliderId, paged),
    async list(offset, limit) {
      const result = await storage.list(SLIDERS_COLLECTION, { offset, limit, withTotal: true });
      return { items: result.items.filter(isSliderRecord), total: result.total ?? 0 };
    },

    create: (input) => storage.transaction(async (tx) => {
      const alias = input.alias!;
      if (await findAlias(tx, alias)) throw aliasTaken(alias);
      const slider = await tx.insert(SLIDERS_COLLECTION, {
        alias,
        title: input.title ?? alias,
        settings: input.settings ?? {},
        revision: 1,
      }) as SliderRecord;
      return summary(slider, await insertSlides(tx, slider.id, input.slides ?? []));
    }),

    update: (id, input) => storage.transaction(async (tx) => {
      if (!validId(id)) return null;
      const current = await tx.get(SLIDERS_COLLECTION, id);
      if (!isSliderRecord(current)) return null;
      if (input.alias !== undefined && input.alias.toLowerCase() !== current.alias.toLowerCase()) {
        const other = await findAlias(tx, input.alias);
        if (other && other.id !== id) throw aliasTaken(input.alias);
      }
      const patch: Record<string, unknown> = { revision: (typeof current.revision === 'number' ? current.revision : 0) + 1 };
      if (input.alias !== undefined) patch.alias = input.alias;
      if (input.title !== undefined) patch.title = input.title;
      if (input.settings !== undefined) patch.settings = input.settings;
      const updated = await tx.update(SLIDERS_COLLECTION, id, patch) as SliderRecord;
      let slideIds: number[];
      if (input.slides !== undefined) {
        for (const slide of await slidesOf(tx, id)) await tx.remove(SLIDES_COLLECTION, slide.id);
        slideIds = await insertSlides(tx, id, input.slides);
      } else {
        slideIds = (await slidesOf(tx, id)).map((slide) => slide.id);
      }
      return summary(updated, slideIds);
    }),

    remove: (id) => storage.transaction(async (tx) => {
      if (!validId(id)) return null;
      const current = await tx.get(SLIDERS_COLLECTION, id);
      if (!isSliderRecord(current)) return null;
      const slides = await slidesOf(tx, id);
      for (const slide of slides) await tx.remove(SLIDES_COLLECTION, slide.id);
      await tx.remove(SLIDERS_COLLECTION, id);
      return summary(current, slides.map((slide) => slide.id));
    }),
  };
}
