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

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** A posted value cleaned as the plugin cleans input: control characters removed, white space trimmed. */
export function cleanValue(value: unknown): unknown {
  if (value === null || typeof value !== 'object') {
    const text = phpString(value).replace(/[\x00-\x08\x0B\x0C\x0E-\x1F]/g, '').replace(/\\+0+/g, '');
    // Text that is not valid Unicode (a lone surrogate) counts as empty, as invalid UTF-8 does in the reference.
    return LONE_SURROGATE.test(text) ? '' : stripWhitespaces(text);
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
