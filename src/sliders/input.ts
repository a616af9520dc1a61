/**
 * The body of a slider write, `{alias, title, settings, slides: [{slide, layers}]}`, checked by the same
 * argument definitions whether it arrives over HTTP (the core validates it) or in-process (checked here).
 */
import { toList } from '../core/args/coerce.js';
import { compileArg, type Arg, type ArgCheckContext, type ArgSpec } from '../core/args/define.js';
import { sanitizeValue, validateValue } from '../core/args/engine.js';
import type { JsonSchema } from '../core/args/schema.js';
import { CmsError } from '../core/errors.js';
import { validateValues } from '../core/params.js';
import { turnTaker } from '../core/turn.js';
import { isPlainObject } from '../format/php.js';
import { sliderWriteArgs } from './args.js';

export interface SlideInput {
  slide: Record<string, unknown>;
  layers: unknown[] | Record<string, unknown>;
}

/** A checked write; absent members are left as they are (update) or take their defaults (create). */
export interface SliderInput {
  alias?: string;
  title?: string;
  settings?: Record<string, unknown>;
  slides?: SlideInput[];
}

function given(value: unknown): boolean {
  return value !== undefined && value !== null;
}

function slideOf(item: unknown): SlideInput {
  const entry = isPlainObject(item) ? item : {};
  const slide = isPlainObject(entry.slide) ? entry.slide : {};
  const layers = Array.isArray(entry.layers) || isPlainObject(entry.layers) ? entry.layers : [];
  return { slide, layers };
}

/** Builds the input from checked values (the route's sanitised parameters, or `checkSliderBody`'s). */
export function sliderInputOf(values: Readonly<Record<string, unknown>>): SliderInput {
  const input: SliderInput = {};
  if (typeof values.alias === 'string') input.alias = values.alias;
  if (typeof values.title === 'string') input.title = values.title;
  if (given(values.settings)) input.settings = isPlainObject(values.settings) ? { ...values.settings } : {};
  if (given(values.slides)) input.slides = Array.isArray(values.slides) ? values.slides.map(slideOf) : [];
  return input;
}

/**
 * The write routes' own arguments, compiled once: the in-process API declares nothing of its own. `slidesAsList`
 * has the same arguments with `slides` checked as a list only (type, length, its own check), for a body whose
 * slides were checked one by one beforehand.
 */
const declared = {
  create: { args: compileAll(true) },
  update: { args: compileAll(false) },
  slidesAsList: { create: { args: compileAll(true, true) }, update: { args: compileAll(false, true) } },
};
const SLIDE_SCHEMA = sliderWriteArgs(true).slides!.schema.items as JsonSchema;

function compileAll(creating: boolean, slidesAsList = false): Map<string, Arg> {
  const specs = Object.entries(sliderWriteArgs(creating)).map(([name, spec]): [string, ArgSpec] =>
    [name, slidesAsList && name === 'slides' ? { ...spec, schema: { ...spec.schema, items: undefined } } : spec]);
  return new Map(specs.map(([name, spec]) => [name, compileArg(name, spec)]));
}

function assertObject(body: unknown): asserts body is Record<string, unknown> {
  if (!isPlainObject(body)) {
    throw new CmsError('rest_invalid_param', 'A slider is an object: {alias, title, settings, slides}.', 400);
  }
}

function contextOf(body: Readonly<Record<string, unknown>>, creating: boolean): ArgCheckContext {
  return { user: null, method: creating ? 'POST' : 'PATCH', param: (name) => body[name] };
}

/** Checks an in-process body with the core's argument engine, as the routes check theirs; throws their `CmsError`s. */
export function checkSliderBody(body: unknown, creating: boolean): SliderInput {
  assertObject(body);
  return sliderInputOf(validateValues(body, creating ? declared.create : declared.update, contextOf(body, creating)));
}

/**
 * `checkSliderBody` taking turns: the slides (the bulk of a large body) are checked and sanitised one at a time,
 * the loop taking a turn between them, then the rest of the body in one go. Accepts and refuses exactly what
 * `checkSliderBody` does, with the same errors: when slide `k` fails, the body is checked again with slides
 * `0..k-1` (known to pass) standing in as `{}`, so the failure, its path and its company are the same.
 */
export async function checkSliderBodyInTurns(body: unknown, creating: boolean): Promise<SliderInput> {
  assertObject(body);
  if (!Array.isArray(body.slides)) return checkSliderBody(body, creating);
  const slides = toList(body.slides);
  const take = turnTaker();
  for (const [index, slide] of slides.entries()) {
    await take();
    if (validateValue(slide, SLIDE_SCHEMA, `slides[${index}]`) === null) continue;
    const standIns: unknown[] = Array.from({ length: index }, () => ({}));
    standIns.push(slide);
    checkSliderBody({ ...body, slides: standIns }, creating);
    // Unreachable while slide `index` fails alone; the whole check decides if it ever does not.
    return checkSliderBody(body, creating);
  }
  const values = validateValues(body, (creating ? declared.slidesAsList.create : declared.slidesAsList.update), contextOf(body, creating));
  const sanitized: unknown[] = [];
  for (const [index, slide] of slides.entries()) {
    await take();
    const result = sanitizeValue(slide, SLIDE_SCHEMA, `slides[${index}]`);
    if (!result.ok) return checkSliderBody(body, creating);
    sanitized.push(result.value);
  }
  return sliderInputOf({ ...values, slides: sanitized });
}
