/** Handlers of the `slider` routes. */
import { toInt } from '../format/php.js';
import type { HandlerResult, RequestContext } from '../core/context.js';
import { CmsError } from '../core/errors.js';
import { reply } from '../core/response.js';
import { pageOffset, paging } from '../core/paging.js';
import type { PostType } from '../content/post-type/index.js';
import type { CmsDeps } from '../deps.js';
import { answering, SliderFailure } from './failure.js';
import type { FullObjectReader } from './full-object.js';
import { sliderInputOf } from './input.js';
import { engineOf, requireSliderId, sliderForFullObject, sliderForModal } from './lookup.js';
import { modalAnswer } from './modal.js';
import { publishClock } from './publish-window.js';
import type { SliderRecord } from './record.js';
import type { SliderService, SliderSummary } from './service.js';
import { streamAnswer } from './stream.js';

export interface SlidersDeps extends Pick<CmsDeps, 'storage' | 'clock' | 'capabilityRules' | 'postEvents' | 'postSettings' | 'uploads'> {}

/** What the handlers share: the ports, the `post` type, the storage wrapper and the cached full-object reader. */
export interface SliderRuntime {
  deps: SlidersDeps;
  posts: PostType;
  service: SliderService;
  reader: FullObjectReader;
}

/** Sliders listed per page when `GET /slider/sliders` names no slider. */
export const LIST_PAGE_SIZE = 100;

function positive(value: unknown, fallback: number, maximum: number): number {
  const number = value === undefined || value === null ? fallback : toInt(value);
  return Math.min(Math.max(number, 1), maximum);
}

/** Our answer where the reference prints "Slide ID should not be empty": the sliders, by id, a page at a time. */
async function listSliders(context: RequestContext, runtime: SliderRuntime): Promise<HandlerResult> {
  const perPage = positive(context.params.per_page, LIST_PAGE_SIZE, LIST_PAGE_SIZE);
  const page = positive(context.params.page, 1, Number.MAX_SAFE_INTEGER);
  const offset = pageOffset(page, perPage);
  const { items, total } = await runtime.service.list(Number.isSafeInteger(offset) ? offset : 0, perPage);
  const figures = paging(total, page, perPage);
  return reply({
    success: true,
    message: '',
    sliders: items.map((slider) => ({ id: slider.id, alias: slider.alias, title: slider.title })),
    total: figures.total,
    total_pages: figures.totalPages,
  });
}

/** `/sliders`, `/sliders/{slider}` and `/sliders/slides/{id}`. */
export function readFullObject(context: RequestContext, runtime: SliderRuntime): Promise<HandlerResult> {
  return answering(async () => {
    const slider = await sliderForFullObject(context.params, engineOf(context.query), runtime.service);
    if (!slider) return listSliders(context, runtime);
    const clock = publishClock(runtime.deps.clock.now(), context.site);
    // Joined from each slide's kept JSON unless `_fields` asks for part of the answer.
    return reply(await runtime.reader.read(slider, context.params.slideid, clock, context.params._fields === undefined));
  });
}

export function readModal(context: RequestContext, runtime: SliderRuntime): Promise<HandlerResult> {
  return answering(async () => {
    const { slider, shownId } = await sliderForModal(context.params, engineOf(context.query), runtime.service);
    return reply(modalAnswer(slider, shownId));
  });
}

export function readStream(context: RequestContext, runtime: SliderRuntime): Promise<HandlerResult> {
  return answering(async () => reply(await streamAnswer(context, {
    posts: runtime.posts,
    uploads: runtime.deps.uploads,
    service: runtime.service,
  })));
}

/**
 * The slider a write names by id or alias (the path's last segment, read as the read routes read it: an
 * integer value of 0 is an alias).
 */
export async function sliderNamed(value: string, service: SliderService): Promise<SliderRecord> {
  let slider: SliderRecord | null;
  if (toInt(value) === 0) {
    slider = await service.findByAlias(value);
  } else {
    let id: number;
    try {
      id = requireSliderId(value);
    } catch (failure) {
      if (failure instanceof SliderFailure) throw new CmsError(failure.code, failure.message, failure.status);
      throw failure;
    }
    slider = await service.getSlider(id);
  }
  if (!slider) throw new CmsError('slider_not_found', 'Slider not found.', 404);
  return slider;
}

function pathSlider(context: RequestContext): string {
  return context.path.slice(context.path.lastIndexOf('/') + 1);
}

export async function createSlider(context: RequestContext, runtime: SliderRuntime): Promise<HandlerResult> {
  const created = await runtime.service.create(sliderInputOf(context.params));
  return reply(created, { status: 201, headers: { Location: context.url(`${context.route}/${created.id}`) } });
}

export async function updateSlider(context: RequestContext, runtime: SliderRuntime): Promise<HandlerResult> {
  const slider = await sliderNamed(pathSlider(context), runtime.service);
  const updated: SliderSummary | null = await runtime.service.update(slider.id, sliderInputOf(context.params));
  if (!updated) throw new CmsError('slider_not_found', 'Slider not found.', 404);
  return reply(updated);
}

export async function deleteSlider(context: RequestContext, runtime: SliderRuntime): Promise<HandlerResult> {
  const slider = await sliderNamed(pathSlider(context), runtime.service);
  const removed = await runtime.service.remove(slider.id);
  if (!removed) throw new CmsError('slider_not_found', 'Slider not found.', 404);
  return reply({ deleted: true, previous: removed });
}
