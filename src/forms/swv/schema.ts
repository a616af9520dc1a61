/**
 * The SWV schema of a form: the rules each tag family adds, in the plugin's order (checkbox/radio, date, file,
 * number/range, select, text/email/url/tel, textarea; then the checkbox and select enumerations), and the
 * meta-schema that describes it.
 */
import { resolveDateOption, type SiteTime } from '../dates.js';
import { TEXTS } from '../defaults.js';
import type { FormTag } from '../tags/form-tag.js';
import { decodeEntities } from '../text.js';
import { isNumber } from '../validators.js';
import { extensionsForMime, RULE_NAMES, type SwvRule } from './rules.js';

export const SCHEMA_VERSION = 'Contact Form 7 SWV Schema 2024-10';

export interface SwvSchema {
  version: string;
  locale: string;
  rules: SwvRule[];
}

export interface SchemaContext {
  /** A message of the form by key, filtered for display. */
  message(key: string): string;
  /** A fixed text filtered like a message. */
  text(text: string): string;
  now: Date;
  siteTime: SiteTime;
}

const of = (tags: readonly FormTag[], basetypes: readonly string[]) => tags.filter((tag) => basetypes.includes(tag.basetype));

/** `accept` values of an enumeration: entities decoded, duplicates and empty strings removed. */
function acceptList(values: readonly string[]): string[] {
  return [...new Set(values.map(decodeEntities))].filter((value) => value !== '');
}

/** The file types of a file field as the `accept` attribute lists them: `.ext` or `family/*`/known MIME types. */
export function acceptedFileTypes(tag: FormTag): string[] {
  const option = tag.optionValues('filetypes');
  const types = option.length === 0
    ? ['audio/*', 'video/*', 'image/*']
    : [...new Set(option.flatMap((value) => value.toLowerCase().split(/[\s|,]+/)))].filter((type) => type !== '');
  return types.map((type) => {
    if (!type.includes('/')) return `.${type.replace(/^\.+|\.+$/g, '')}`;
    const family = /^([a-z]+)\/[*]$/i.exec(type);
    if (family) return ['audio', 'video', 'image'].includes(family[1]!) ? type : '';
    return extensionsForMime(type).length > 0 ? type : '';
  }).filter((type) => type !== '');
}

export function buildSchema(tags: readonly FormTag[], locale: string, context: SchemaContext): SwvSchema {
  const rules: SwvRule[] = [];
  const add = (rule: SwvRule) => rules.push(rule);
  const required = (tag: FormTag) => add({ rule: 'required', field: tag.name, error: context.message('invalid_required') });

  for (const tag of of(tags, ['checkbox', 'radio'])) {
    if (tag.required || tag.type === 'radio') required(tag);
    if (tag.type === 'radio' || tag.hasOption('exclusive')) {
      add({ rule: 'maxitems', field: tag.name, threshold: 1, error: context.text(TEXTS.tooManyItems) });
    }
  }
  for (const tag of of(tags, ['date'])) {
    if (tag.required) required(tag);
    add({ rule: 'date', field: tag.name, error: context.message('invalid_date') });
    const minimum = dateOption(tag, 'min', context);
    const maximum = dateOption(tag, 'max', context);
    if (minimum !== null) add({ rule: 'mindate', field: tag.name, threshold: minimum, error: context.message('date_too_early') });
    if (maximum !== null) add({ rule: 'maxdate', field: tag.name, threshold: maximum, error: context.message('date_too_late') });
  }
  for (const tag of of(tags, ['file'])) {
    if (tag.required) add({ rule: 'requiredfile', field: tag.name, error: context.message('invalid_required') });
    add({ rule: 'file', field: tag.name, accept: acceptedFileTypes(tag), error: context.message('upload_file_type_invalid') });
    add({ rule: 'maxfilesize', field: tag.name, threshold: tag.limitOption(), error: context.message('upload_file_too_large') });
  }
  for (const tag of of(tags, ['number', 'range'])) {
    if (tag.required) required(tag);
    add({ rule: 'number', field: tag.name, error: context.message('invalid_number') });
    let minimum = tag.option('min', 'signed_num');
    let maximum = tag.option('max', 'signed_num');
    if (tag.basetype === 'range') {
      if (minimum === null || !isNumber(minimum)) minimum = '0';
      if (maximum === null || !isNumber(maximum)) maximum = '100';
    }
    if (minimum !== null && isNumber(minimum)) add({ rule: 'minnumber', field: tag.name, threshold: minimum, error: context.message('number_too_small') });
    if (maximum !== null && isNumber(maximum)) add({ rule: 'maxnumber', field: tag.name, threshold: maximum, error: context.message('number_too_large') });
  }
  for (const tag of tags.filter((tag) => tag.type === 'select*')) required(tag);
  for (const tag of of(tags, ['text', 'email', 'url', 'tel'])) {
    if (tag.required) required(tag);
    if (tag.basetype !== 'text') add({ rule: tag.basetype, field: tag.name, error: context.message(`invalid_${tag.basetype}`) });
    lengthRules(tag, '400', add, context);
  }
  for (const tag of of(tags, ['textarea'])) {
    if (tag.required) required(tag);
    lengthRules(tag, '2000', add, context);
  }

  const undefinedValue = context.text(TEXTS.undefinedValue);
  const choices = new Map<string, string[] | 'free_text'>();
  for (const tag of of(tags, ['checkbox', 'radio'])) {
    if (tag.hasOption('free_text')) choices.set(tag.name, 'free_text');
    const current = choices.get(tag.name);
    if (current === 'free_text') continue;
    choices.set(tag.name, [...(current ?? []), ...tag.values]);
  }
  for (const [field, values] of choices) {
    if (values !== 'free_text') add({ rule: 'enum', field, accept: acceptList(values), error: undefinedValue });
  }
  const selects = new Map<string, string[]>();
  for (const tag of of(tags, ['select'])) {
    const values = tag.hasOption('first_as_label') ? tag.values.slice(1) : [...tag.values];
    selects.set(tag.name, [...(selects.get(tag.name) ?? []), ...values]);
  }
  for (const [field, values] of selects) add({ rule: 'enum', field, accept: acceptList(values), error: undefinedValue });

  return { version: SCHEMA_VERSION, locale, rules };
}

function lengthRules(tag: FormTag, defaultMaximum: string, add: (rule: SwvRule) => void, context: SchemaContext): void {
  const minimum = tag.minlengthOption();
  if (minimum) add({ rule: 'minlength', field: tag.name, threshold: Number.parseInt(minimum, 10), error: context.message('invalid_too_short') });
  const maximum = tag.maxlengthOption(defaultMaximum);
  if (maximum) add({ rule: 'maxlength', field: tag.name, threshold: Number.parseInt(maximum, 10), error: context.message('invalid_too_long') });
}

function dateOption(tag: FormTag, name: 'min' | 'max', context: SchemaContext): string | null {
  const value = tag.option(name);
  if (!value) return null;
  return resolveDateOption(value, context.now, context.siteTime);
}

/** The JSON-schema (draft 2020-12) of the schema document: the route's schema, shown in help context. */
export function metaSchema(): Record<string, unknown> {
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    title: 'Contact Form 7 SWV',
    description: 'Contact Form 7 SWV meta-schema',
    type: 'object',
    properties: {
      version: { type: 'string' },
      locale: { type: 'string' },
      rules: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            rule: { type: 'string', enum: [...RULE_NAMES] },
            field: { type: 'string', pattern: '^[A-Za-z][-A-Za-z0-9_:]*$' },
            error: { type: 'string' },
            accept: { type: 'array', items: { type: 'string' } },
            base: { type: 'string' },
            interval: { type: 'number', minimum: 0 },
            threshold: { type: 'string' },
          },
          required: ['rule'],
        },
      },
    },
  };
}
