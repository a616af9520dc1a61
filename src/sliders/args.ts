/**
 * Arguments of the write routes. The read routes declare none (the reference's `"args": []`): their parameters
 * are read raw, with the reference's own rules, in `lookup.ts`.
 */
import { args, type ArgCheck, type ArgSpec } from '../core/args/define.js';
import type { JsonSchema } from '../core/args/schema.js';
import { isPlainObject, toInt } from '../format/php.js';

/** Most slides one slider may hold. */
export const MAX_SLIDES = 1000;
export const MAX_ALIAS_LENGTH = 200;
export const MAX_TITLE_LENGTH = 255;

const LAYERS_SCHEMA: JsonSchema = {
  description: 'The slide\'s layers: a list of layer objects, or a map of them keyed by layer id.',
  type: ['array', 'object'],
  items: { type: 'object' },
  additionalProperties: { type: 'object' },
};

const SLIDE_ITEM_SCHEMA: JsonSchema = {
  type: 'object',
  properties: {
    slide: { description: 'The slide\'s settings; `global: true` makes it the static slide.', type: 'object' },
    layers: LAYERS_SCHEMA,
  },
  additionalProperties: false,
};

/** `/slider/sliders/{slider}` reads a value whose integer value is not 0 as an id, so such an alias could never be reached there. */
const aliasCheck: ArgCheck = (value, _context, param) => {
  if (typeof value !== 'string') return null;
  if (!/^[A-Za-z0-9_-]+$/.test(value)) {
    return { code: 'rest_invalid_pattern', message: `${param} may hold only the letters a-z and A-Z, digits, underscores and hyphens.`, data: null };
  }
  if (toInt(value) !== 0) {
    return {
      code: 'rest_invalid_param',
      message: `${param} must not begin with a number other than 0: /slider/sliders/{slider} would read it as a slider id.`,
      data: null,
    };
  }
  return null;
};

/** PHP reads a list as an object too; settings are a map, so only an empty list passes (it is stored as `{}`). */
const settingsCheck: ArgCheck = (value, _context, param) => {
  if (Array.isArray(value) && value.length > 0) {
    return { code: 'rest_invalid_type', message: `${param} is not of type object.`, data: { param } };
  }
  return null;
};

const slidesCheck: ArgCheck = (value, _context, param) => {
  if (!Array.isArray(value)) return null;
  const statics = value.filter((item) => isPlainObject(item) && isPlainObject(item.slide) && item.slide.global === true);
  if (statics.length > 1) {
    return { code: 'rest_invalid_param', message: `${param} may hold only one static slide (slide.global true).`, data: null };
  }
  return null;
};

/** The body of a create (`required` true) or an update. */
export function sliderWriteArgs(creating: boolean): Record<string, ArgSpec> {
  return {
    alias: args.string({
      description: 'Unique name of the slider: letters, digits, underscores and hyphens.',
      pattern: '^[\\w-]+$',
      minLength: 1,
      maxLength: MAX_ALIAS_LENGTH,
    }, { required: creating, check: aliasCheck }),
    title: args.string({ description: 'Title of the slider; the alias when not given.', maxLength: MAX_TITLE_LENGTH }),
    settings: args.object({ description: 'The slider\'s settings (SR7 shape), stored as given.' }, { check: settingsCheck }),
    slides: args.array(SLIDE_ITEM_SCHEMA, {
      description: 'The slides in order, each `{slide, layers}`; on update they replace every slide of the slider.',
      maxItems: MAX_SLIDES,
    }, { check: slidesCheck, inTurns: true }),
  };
}
