/**
 * A feedback request's fields and files, read from the body the core parsed once (multipart or urlencoded form
 * fields, or a JSON object), into prototype-less maps.
 */
import type { ParsedBody } from '../../core/body.js';
import { MAX_INPUT_NESTING, MAX_INPUT_VARS } from '../../core/query.js';
import { isUnsafeKey } from '../../core/safe-object.js';
import { phpString, stripWhitespaces } from '../text.js';

export interface IncomingUpload {
  /** The file name as sent; empty for a file input left empty. */
  filename: string;
  contentType: string;
  bytes: Uint8Array;
}

export interface SubmissionInput {
  /** Every field as posted (the reference's `$_POST`), values as strings, lists and maps. */
  fields: Record<string, unknown>;
  /** Uploads by field name (`files[]` counts as `files`), empty file inputs included. */
  files: Map<string, IncomingUpload[]>;
}

/** A container being copied: its source, its copy, its depth (a field is 1), and its keys when a map. */
interface Copying {
  source: Record<string, unknown> | unknown[];
  target: Record<string, unknown> | unknown[];
  depth: number;
  keys: string[] | null;
  next: number;
}

function emptyLike(value: object): Record<string, unknown> | unknown[] {
  return Array.isArray(value) ? [] : Object.create(null) as Record<string, unknown>;
}

/** The first keys of a map, at most `most` of them, without listing the others. */
function firstKeys(map: Record<string, unknown>, most: number): string[] {
  const keys: string[] = [];
  for (const key in map) {
    if (keys.length === most) break;
    keys.push(key);
  }
  return keys;
}

/**
 * A JSON body's fields as PHP would hold the same fields posted as a form: scalars become strings, lists and maps
 * keep their shape, and PHP's input limits apply. At most `MAX_INPUT_VARS` values (lists and maps count as one
 * each) are read, in the order they were sent, and the rest are dropped, as `max_input_vars` drops them; a list or
 * map nested deeper than `MAX_INPUT_NESTING` levels is dropped. The walk stops at the limit, so a body of
 * millions of values costs no more to read than one of a thousand.
 */
function jsonFields(json: Record<string, unknown>): Record<string, unknown> {
  const fields = Object.create(null) as Record<string, unknown>;
  let budget = MAX_INPUT_VARS;
  const stack: Copying[] = [{ source: json, target: fields, depth: 0, keys: firstKeys(json, MAX_INPUT_VARS), next: 0 }];
  while (stack.length > 0 && budget > 0) {
    const copying = stack[stack.length - 1]!;
    const { source, target, depth, keys } = copying;
    if (copying.next >= (keys ? keys.length : (source as unknown[]).length)) {
      stack.pop();
      continue;
    }
    const index = copying.next++;
    let key = keys ? keys[index]! : '';
    if (depth === 0) {
      key = phpFieldName(key);
      if (key === '' || isUnsafeKey(key)) continue;
    } else if (keys && isUnsafeKey(key)) {
      continue;
    }
    const child = keys ? (source as Record<string, unknown>)[keys[index]!] : (source as unknown[])[index];
    budget -= 1;
    if (child !== null && typeof child === 'object' && depth + 1 > MAX_INPUT_NESTING) continue;
    let converted: unknown;
    if (child === null || typeof child !== 'object') {
      converted = phpString(child);
    } else {
      converted = emptyLike(child);
      const childKeys = Array.isArray(child) ? null : firstKeys(child as Record<string, unknown>, budget);
      stack.push({ source: child as Record<string, unknown> | unknown[], target: converted as Record<string, unknown> | unknown[], depth: depth + 1, keys: childKeys, next: 0 });
    }
    if (Array.isArray(target)) target.push(converted);
    else target[key] = converted;
  }
  return fields;
}

/** A field name as PHP registers it: dots and spaces become underscores. */
function phpFieldName(name: string): string {
  return name.replace(/^ +/, '').replace(/[ .]/g, '_');
}

export function readInput(body: ParsedBody): SubmissionInput {
  const json = body.json;
  let fields = Object.create(null) as Record<string, unknown>;
  if (json === undefined) {
    for (const [name, value] of Object.entries(body.form)) if (name !== '' && !isUnsafeKey(name)) fields[name] = value;
  } else if (json !== null && typeof json === 'object' && !Array.isArray(json)) {
    fields = jsonFields(json as Record<string, unknown>);
  }
  const files = new Map<string, IncomingUpload[]>();
  for (const file of body.files) {
    const bracket = file.field.indexOf('[');
    const name = phpFieldName(bracket === -1 ? file.field : file.field.slice(0, bracket));
    if (name === '' || isUnsafeKey(name)) continue;
    const list = files.get(name) ?? [];
    list.push({ filename: file.filename, contentType: file.contentType, bytes: file.bytes });
    files.set(name, list);
  }
  return { fields, files };
}

/** The unit tag with everything outside `[A-Za-z0-9_-]` removed; "" when missing or not text. */
export function unitTagOf(fields: Readonly<Record<string, unknown>>): string {
  const value = fields._wpcf7_unit_tag;
  return typeof value === 'string' ? value.replace(/[^A-Za-z0-9_-]/g, '') : '';
}

/** What cleaning removes: control characters, and a run of `\` followed by `0`s. */
const REMOVED = /[\x00-\x08\x0B\x0C\x0E-\x1F\\]/;
const BACKSLASH = 0x5c;
const ZERO = 0x30;
const UTF16 = new TextDecoder('utf-16le');

const isControl = (unit: number) => unit <= 0x1f && unit !== 0x09 && unit !== 0x0a && unit !== 0x0d;

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Whether the code units hold a surrogate that is not part of a pair. */
function hasLoneSurrogate(units: Uint16Array): boolean {
  for (let index = 0; index < units.length; index++) {
    const unit = units[index]!;
    if (unit < 0xd800 || unit > 0xdfff) continue;
    if (unit >= 0xdc00 || index + 1 === units.length) return true;
    const next = units[index + 1]!;
    if (next < 0xdc00 || next > 0xdfff) return true;
    index++;
  }
  return false;
}

/**
 * `text.replace(/[\x00-\x08\x0B\x0C\x0E-\x1F]/g, '').replace(/\\+0+/g, '')` in one pass, or null when what is left
 * holds a lone surrogate: a visitor's text of millions of such characters took the expressions over a second. A
 * run of backslashes is kept until a `0` follows it (then the run and its zeros go), read after control
 * characters are gone, as the second expression reads the first one's result.
 */
function cleanedText(text: string): string | null {
  if (!REMOVED.test(text)) return LONE_SURROGATE.test(text) ? null : text;
  const kept = new Uint16Array(text.length);
  let length = 0;
  let backslashes = -1;
  let inZeros = false;
  for (let index = 0; index < text.length; index++) {
    const unit = text.charCodeAt(index);
    if (isControl(unit)) continue;
    if (unit === ZERO && (backslashes !== -1 || inZeros)) {
      if (backslashes !== -1) length = backslashes;
      backslashes = -1;
      inZeros = true;
      continue;
    }
    inZeros = false;
    if (unit === BACKSLASH) {
      if (backslashes === -1) backslashes = length;
    } else {
      backslashes = -1;
    }
    kept[length++] = unit;
  }
  const units = kept.subarray(0, length);
  return hasLoneSurrogate(units) ? null : UTF16.decode(units);
}

/** A posted value cleaned as the plugin cleans input: control characters removed, white space trimmed. */
export function cleanValue(value: unknown): unknown {
  if (value === null || typeof value !== 'object') {
    const text = cleanedText(phpString(value));
    // Text that is not valid Unicode (a lone surrogate) counts as empty, as invalid UTF-8 does in the reference.
    return text === null ? '' : stripWhitespaces(text);
  }
  if (Array.isArray(value)) return value.map(cleanValue);
  const copy = Object.create(null) as Record<string, unknown>;
  for (const [key, child] of Object.entries(value)) copy[key] = cleanValue(child);
  return copy;
}

/** A posted value read the way `wpcf7_superglobal_post` does: cleaned, or `fallback` when absent. */
export function postedValue(fields: Readonly<Record<string, unknown>>, name: string, fallback: unknown = ''): unknown {
  return Object.hasOwn(fields, name) ? cleanValue(fields[name]) : fallback;
}
