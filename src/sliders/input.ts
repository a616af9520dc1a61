/**
 * The body of a slider write, `{alias, title, settings, slides: [{slide, layers}]}`, checked by the same
 * argument definitions whether it arrives over HTTP (the core validates it) or in-process (checked here).
 */
import * as v from 'valibot';
import { compileArg, issueFromValibot, type Arg, type ArgCheckContext } from '../core/args/define.js';
import { isPlainObject } from '../format/php.js';
import { CmsError, type ArgIssue } from '../core/errors.js';
import type { JsonObject } from '../core/types.js';
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

const FIELDS = ['alias', 'title', 'settings', 'slides'] as const;

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

const compiled = {
  create: compileAll(true),
  update: compileAll(false),
};

function compileAll(creating: boolean): Map<string, Arg> {
  return new Map(Object.entries(sliderWriteArgs(creating)).map(([name, spec]) => [name, compileArg(name, spec)]));
}

function invalidParams(failures: Map<string, ArgIssue>): CmsError {
  const params: JsonObject = {};
  const details: JsonObject = {};
  for (const [name, issue] of failures) {
    params[name] = issue.message;
    details[name] = { code: issue.code, message: issue.message, data: issue.data };
  }
  return new CmsError('rest_invalid_param', `Invalid parameter(s): ${[...failures.keys()].join(', ')}`, 400, { params, details });
}

/**
 * Checks an in-process body as the routes check theirs: missing required members, then every member's
 * schema and own rule (errors gathered), then sanitising. Throws the routes' `CmsError`s.
 */
export function checkSliderBody(body: unknown, creating: boolean): SliderInput {
  if (!isPlainObject(body)) {
    throw new CmsError('rest_invalid_param', 'A slider is an object: {alias, title, settings, slides}.', 400);
  }
  const args = creating ? compiled.create : compiled.update;
  const missing = FIELDS.filter((name) => args.get(name)!.required && !given(body[name]));
  if (missing.length > 0) {
    throw new CmsError('rest_missing_callback_param', `Missing parameter(s): ${missing.join(', ')}`, 400, { params: missing });
  }
  const context: ArgCheckContext = { user: null, method: creating ? 'POST' : 'PATCH', param: (name) => body[name] };
  const failures = new Map<string, ArgIssue>();
  const values: Record<string, unknown> = {};
  for (const name of FIELDS) {
    const value = body[name];
    if (!given(value)) continue;
    const arg = args.get(name)!;
    const checked = v.safeParse(arg.validator, value);
    const issue = checked.success ? arg.check?.(value, context, name) ?? null : issueFromValibot(checked.issues);
    if (issue) {
      failures.set(name, issue);
      continue;
    }
    const sanitised = v.safeParse(arg.sanitizer, value);
    if (sanitised.success) values[name] = sanitised.output;
    else failures.set(name, issueFromValibot(sanitised.issues));
  }
  if (failures.size > 0) throw invalidParams(failures);
  return sliderInputOf(values);
}
