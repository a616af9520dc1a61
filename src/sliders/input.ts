/**
 * The body of a slider write, `{alias, title, settings, slides: [{slide, layers}]}`, checked by the same
 * argument definitions whether it arrives over HTTP (the core validates it) or in-process (checked here).
 */
import { compileArg, type Arg, type ArgCheckContext } from '../core/args/define.js';
import { CmsError } from '../core/errors.js';
import { validateValuesInTurns } from '../core/params-in-turns.js';
import { validateValues } from '../core/params.js';
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

/** The write routes' own arguments, compiled once: the in-process API declares nothing of its own. */
const declared = {
  create: { args: compileAll(true) },
  update: { args: compileAll(false) },
};

function compileAll(creating: boolean): Map<string, Arg> {
  return new Map(Object.entries(sliderWriteArgs(creating)).map(([name, spec]) => [name, compileArg(name, spec)]));
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

/** `checkSliderBody` with the slides checked one at a time, the loop taking turns between them: the same outcome. */
export async function checkSliderBodyInTurns(body: unknown, creating: boolean): Promise<SliderInput> {
  assertObject(body);
  return sliderInputOf(await validateValuesInTurns(body, creating ? declared.create : declared.update, contextOf(body, creating)));
}
