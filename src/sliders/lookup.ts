/**
 * Which slider a read route names, by the reference's rules (6.7.20 with the SR7 engine):
 * - a `{slider}` value whose integer value is 0 is an alias (`0`, `hero`), anything else an id (`5`, `9x`);
 * - an alias, from the path or the query, wins over an id; `?id=slider-<id>` names a slider, a bare `?id=`
 *   a slide of it (`static_<id>` its static slide);
 * - `srengine=6` asks for the v6 tables, which hold nothing here: every lookup then fails as unknown;
 * - values are HTML-escaped before use, and ids are checked the PHP way (`is_numeric`, then `(int)`).
 */
import { escapeHtml } from '../format/entities.js';
import { isEmpty, isNumeric, toInt, toPhpString } from '../format/php.js';
import { sanitizeTextField } from '../format/text.js';
import type { ParamMap } from '../core/types.js';
import { aliasNotFound, SliderFailure, sliderNotFound } from './failure.js';
import type { SlideRecord, SliderRecord } from './record.js';
import type { SliderService } from './service.js';

export type Engine = 6 | 7;

/** `srengine` counts only in the query string, and only as 6 or 7; the site's engine is SR7. */
export function engineOf(query: Readonly<ParamMap>): Engine {
  return toInt(query.srengine) === 6 ? 6 : 7;
}

/** A parameter as the reference reads it: missing or null is `''`, anything else its escaped PHP string. */
export function paramText(value: unknown): string {
  return value === undefined || value === null ? '' : escapeHtml(toPhpString(value));
}

/** The reference's `validate_numeric`: "<label> should not be empty", then "<label> should be numeric". */
function requireNumeric(value: string, label: string, code: string): number {
  if (isEmpty(value) && !isNumeric(value)) throw new SliderFailure(400, code, `${label} should not be empty`);
  if (!isNumeric(value)) throw new SliderFailure(400, code, `${label} should be numeric`);
  return toInt(value);
}

export const requireSliderId = (value: string) => requireNumeric(value, 'Slider ID', 'slider_invalid_id');

function aliasFailure(alias: string): SliderFailure {
  return aliasNotFound(sanitizeTextField(alias));
}

interface Names {
  id: string;
  alias: string;
}

/**
 * The `id` and `alias` a request names. A `slider` parameter (the path's, or a query's, which wins over the
 * path) becomes the alias when its integer value is 0, else the id (`prefix` + value).
 */
function namesOf(params: Readonly<Record<string, unknown>>, prefix: string): Names {
  const names: Names = { id: paramText(params.id), alias: paramText(params.alias) };
  const slider = params.slider;
  if (slider !== undefined && slider !== null) {
    if (toInt(slider) === 0) names.alias = paramText(slider);
    else names.id = `${prefix}${paramText(slider)}`;
  }
  return names;
}

async function byAlias(alias: string, service: SliderService): Promise<SliderRecord> {
  const hyphenated = alias.replaceAll(' ', '-');
  const slider = await service.findByAlias(hyphenated) ?? (hyphenated === alias ? null : await service.findByAlias(alias));
  if (!slider) throw aliasFailure(alias);
  return slider;
}

async function byId(id: number, service: SliderService): Promise<SliderRecord> {
  const slider = await service.getSlider(id);
  if (!slider) throw sliderNotFound();
  return slider;
}

/** The slide an `id` names: `static_<n>` a static slide, a number any slide. */
async function slideNamed(id: string, service: SliderService): Promise<SlideRecord | null> {
  if (id.includes('static_')) {
    const slide = await service.getSlide(requireNumeric(id.replaceAll('static_', ''), 'Static Slide ID', 'slide_invalid_id'));
    return slide?.static ? slide : null;
  }
  return service.getSlide(requireNumeric(id, 'Slide ID', 'slide_invalid_id'));
}

/**
 * The slider of the full-object routes (`/sliders`, `/sliders/{slider}`, `/sliders/slides/{id}`), or null when
 * the request names nothing (the list is answered then).
 */
export async function sliderForFullObject(
  params: Readonly<Record<string, unknown>>,
  engine: Engine,
  service: SliderService,
): Promise<SliderRecord | null> {
  const { id, alias } = namesOf(params, 'slider-');
  if (id === '' && alias === '') return null;
  if (alias !== '') {
    if (engine === 6) throw aliasFailure(alias);
    return byAlias(alias, service);
  }
  if (id.includes('slider-')) {
    const sliderId = requireSliderId(id.replaceAll('slider-', ''));
    if (engine === 6) throw sliderNotFound();
    return byId(sliderId, service);
  }
  const slide = await slideNamed(id, service);
  if (engine === 6) throw new SliderFailure(404, 'slide_not_found', 'Slider could not be loaded');
  if (!slide) throw new SliderFailure(404, 'slide_not_found', 'V7 Slider could not be found');
  return byId(slide.parent, service);
}

/** The slider of the modal route, and the id the answer shows: the path's text as given, or the alias's slider id. */
export async function sliderForModal(
  params: Readonly<Record<string, unknown>>,
  engine: Engine,
  service: SliderService,
): Promise<{ slider: SliderRecord; shownId: string }> {
  const { id, alias } = namesOf(params, '');
  if (alias !== '') {
    if (engine === 6) throw aliasFailure(alias);
    const slider = await byAlias(alias, service);
    return { slider, shownId: String(slider.id) };
  }
  const sliderId = requireSliderId(id);
  if (engine === 6) throw sliderNotFound();
  return { slider: await byId(sliderId, service), shownId: id };
}
