/**
 * The posted sign-up, read from a urlencoded, multipart or JSON body and cleaned as the reference plugin cleans
 * it: every text has its tags stripped, is trimmed and has `&amp;`-style references decoded. Field names that
 * do not start with `_` are data fields, upper-cased. Every map is prototype-less.
 *
 * Limits the reference does not have (it relies on PHP's), each a 400 with its own code before anything is
 * stored: at most 100 fields, text of at most 1,024 characters (the reference cuts longer values silently; text
 * sent longer than 16 KiB is refused before it is cleaned, so no value costs more than a moment), and a value is
 * text or one level of list or map of text with at most 100 items.
 */
import { isIntegerKey, phpTrim, toPhpString } from '../../format/php.js';
import { stripAllTags } from '../../format/strip-tags.js';
import { CmsError } from '../../core/errors.js';

export type Value = string | Value[] | { [key: string]: Value };

export const MAX_FIELDS = 100;
export const MAX_ITEMS = 100;
export const MAX_TEXT = 1024;
const MAX_RAW_TEXT = 16 * 1024;
const MAX_NAME = 191;
const UNSAFE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

export interface PostedSignup {
  /** Every posted field, cleaned, under its own name. */
  raw: Record<string, Value>;
  /** Data fields (names not starting with `_`), upper-cased, empty list items dropped. */
  data: Record<string, Value>;
}

/** The body's fields, or null when the body holds no object (a JSON array or text, or nothing). */
export function bodyFields(body: { json: unknown; form: Record<string, unknown>; mediaType: string }): Record<string, unknown> | null {
  const source = body.json !== undefined ? body.json : body.form;
  if (source === null || typeof source !== 'object' || Array.isArray(source)) return null;
  return source as Record<string, unknown>;
}

function tooMany(): CmsError {
  return new CmsError('too_many_fields', `A sign-up may carry at most ${MAX_FIELDS} fields and ${MAX_ITEMS} values per field.`, 400);
}

const ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', nbsp: '\u00a0' };

/** `html_entity_decode` without quotes: named `&amp; &lt; &gt; &nbsp;` and numeric references (not `"` or `'`). */
function decodeReferences(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&(?:#(\d{1,7})|#x([0-9a-f]{1,6})|(amp|lt|gt|nbsp));/gi, (whole, decimal?: string, hex?: string, name?: string) => {
    if (name !== undefined) return ENTITIES[name.toLowerCase()] ?? whole;
    const code = decimal !== undefined ? Number(decimal) : parseInt(hex!, 16);
    if (code === 0x22 || code === 0x27 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff) || code === 0) return whole;
    return String.fromCodePoint(code);
  });
}

function tooLong(field: string): CmsError {
  return new CmsError('field_too_long', `The field ${field.slice(0, 100)} is longer than ${MAX_TEXT} characters.`, 400, { field: field.slice(0, 191) });
}

function cleanText(value: unknown, field: string): string {
  const sent = toPhpString(value);
  if (sent.length > MAX_RAW_TEXT) throw tooLong(field);
  const text = phpTrim(decodeReferences(sent.includes('<') ? stripAllTags(sent) : phpTrim(sent)));
  if (text.length > MAX_TEXT) throw tooLong(field);
  return text;
}

function cleanValue(value: unknown, field: string, depth: number): Value | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value !== 'object') return cleanText(value, field);
  if (depth > 0) {
    throw new CmsError('invalid_field', `The field ${field.slice(0, 100)} is nested too deeply: values are text or lists of text.`, 400);
  }
  if (Array.isArray(value) ? value.length > MAX_ITEMS : hasMoreKeys(value, MAX_ITEMS)) throw tooMany();
  const entries = Array.isArray(value) ? value.map((item, index) => [String(index), item] as const) : Object.entries(value);
  if (Array.isArray(value)) {
    return entries.map(([, item]) => cleanValue(item, field, depth + 1)).filter((item): item is Value => item !== undefined);
  }
  const map: Record<string, Value> = Object.create(null);
  for (const [key, item] of entries) {
    if (UNSAFE_KEYS.has(key)) continue;
    const cleaned = cleanValue(item, field, depth + 1);
    if (cleaned !== undefined) map[key] = cleaned;
  }
  return map;
}

/** PHP's `array_filter` without a callback: drops `''`, `'0'` and empty lists or maps. */
export function withoutEmptyItems(value: Value): Value {
  if (typeof value === 'string') return value;
  const keep = (item: Value) => (typeof item === 'string' ? item !== '' && item !== '0' : Object.keys(item).length > 0);
  if (Array.isArray(value)) return value.filter(keep);
  const map: Record<string, Value> = Object.create(null);
  for (const [key, item] of Object.entries(value)) if (keep(item)) map[key] = item;
  return map;
}

/** Whether the map has more than `most` keys, found without listing them all when it has many more. */
function hasMoreKeys(map: object, most: number): boolean {
  let count = 0;
  for (const key in map) if (Object.hasOwn(map, key) && ++count > most) return true;
  return false;
}

export function readPostedSignup(fields: Record<string, unknown>): PostedSignup {
  if (hasMoreKeys(fields, MAX_FIELDS)) throw tooMany();
  const names = Object.keys(fields);
  const raw: Record<string, Value> = Object.create(null);
  const data: Record<string, Value> = Object.create(null);
  for (const name of names) {
    if (UNSAFE_KEYS.has(name)) continue;
    const value = cleanValue(fields[name], name, 0);
    if (value === undefined) continue;
    raw[name] = value;
    // Names PHP would hold as integer keys, empty names and overlong names are not data fields.
    if (name === '' || name.startsWith('_') || isIntegerKey(name) || Buffer.byteLength(name) > MAX_NAME) continue;
    data[name.replace(/[a-z]+/g, (letters) => letters.toUpperCase())] = withoutEmptyItems(value);
  }
  return { raw, data };
}
