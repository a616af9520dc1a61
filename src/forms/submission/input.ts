/**
 * A feedback request's fields and files, read from the body the core parsed once (multipart or urlencoded form
 * fields, or a JSON object), into prototype-less maps.
 */
import type { ParsedBody } from '../../core/body.js';
import { isUnsafeKey, toSafeTree } from '../../core/safe-object.js';
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

/** Field values as PHP sees them: scalars become strings, lists and maps keep their shape. */
function toPosted(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return phpString(value);
  const copy: Record<string, unknown> | unknown[] = Array.isArray(value) ? [] : Object.create(null) as Record<string, unknown>;
  const stack: [unknown, Record<string, unknown> | unknown[]][] = [[value, copy]];
  while (stack.length > 0) {
    const [source, target] = stack.pop()!;
    for (const [key, child] of Object.entries(source as Record<string, unknown>)) {
      let converted: unknown;
      if (child === null || typeof child !== 'object') converted = phpString(child);
      else {
        converted = Array.isArray(child) ? [] : Object.create(null);
        stack.push([child, converted as Record<string, unknown> | unknown[]]);
      }
      if (Array.isArray(target)) target.push(converted);
      else target[key] = converted;
    }
  }
  return copy;
}

/** A field name as PHP registers it: dots and spaces become underscores. */
function phpFieldName(name: string): string {
  return name.replace(/^ +/, '').replace(/[ .]/g, '_');
}

export function readInput(body: ParsedBody): SubmissionInput {
  const fields = Object.create(null) as Record<string, unknown>;
  const source = body.json !== undefined ? toSafeTree(body.json) : body.form;
  if (source !== null && typeof source === 'object' && !Array.isArray(source)) {
    for (const [key, value] of Object.entries(source)) {
      const name = body.json !== undefined ? phpFieldName(key) : key;
      if (name === '' || isUnsafeKey(name)) continue;
      fields[name] = toPosted(value);
    }
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
