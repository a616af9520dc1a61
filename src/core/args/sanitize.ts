import { isUnsafeKey } from '../safe-object.js';
import type { ArgIssue } from '../errors.js';
import { hasUniqueItems, isBuiltInType, resolveTypeList, sanitizeBoolean, toList, toMap } from './coerce.js';
import { findAnyMatchingSchema, findOneMatchingSchema, type ValueCheck } from './combine.js';
import { sanitizeHexColor } from '../../format/formats.js';
import { isEmpty, isPhpArray, toFloat, toInt, toPhpString } from '../../format/php.js';
import { patternPropertySchema, propertySchema } from './properties.js';
import type { JsonSchema } from './schema.js';
import { sanitizeTextField } from '../../format/text.js';
import { sanitizeUrl } from '../../format/url.js';

export type SanitizeResult = { ok: true; value: unknown } | { ok: false; issue: ArgIssue };

const ok = (value: unknown): SanitizeResult => ({ ok: true, value });
const fail = (issue: ArgIssue): SanitizeResult => ({ ok: false, issue });

/**
 * Converts a value to the shape its schema describes (`rest_sanitize_value_from_schema`): the sub-schema
 * matched by anyOf/oneOf is applied, type lists resolve to the best type (or null when none fits), lists are
 * re-indexed and their items sanitised (uniqueItems is checked again afterwards), unknown keys of objects
 * that forbid additional properties are dropped (a list given for an object stays a list while its indices
 * remain 0..n-1), scalars are cast, and string formats are cleaned.
 * The input is never modified. `validateValue` picks the anyOf/oneOf branch (the validator recurses into here).
 */
export function sanitizeValueWith(value: unknown, schema: JsonSchema, param: string, validateValue: ValueCheck): SanitizeResult {
  let current = value;
  let type: unknown = schema.type;

  for (const find of [schema.anyOf != null ? findAnyMatchingSchema : null, schema.oneOf != null ? findOneMatchingSchema : null]) {
    if (!find) continue;
    const match = find(current, type === schema.type ? schema : { ...schema, type: type as JsonSchema['type'] }, param, validateValue);
    if (!match.ok) return fail(match.issue);
    if (type == null) type = match.schema.type;
    const inner = sanitizeValueWith(current, match.schema, param, validateValue);
    if (!inner.ok) return inner;
    current = inner.value;
  }

  if (Array.isArray(type)) {
    const best = resolveTypeList(current, type);
    if (!best) return ok(null);
    type = best;
  }

  switch (type) {
    case 'array':
      return sanitizeArray(current, schema, param, validateValue);
    case 'object':
      return sanitizeObject(current, schema, param, validateValue);
    case 'null':
      return ok(null);
    case 'integer':
      return ok(toInt(current));
    case 'number':
      return ok(toFloat(current));
    case 'boolean':
      return ok(sanitizeBoolean(current));
  }

  if (schema.format != null && (type == null || type === 'string' || !isBuiltInType(type))) {
    const formatted = sanitizeFormat(current, schema.format);
    if (formatted !== undefined) return ok(formatted);
  }
  return ok(type === 'string' ? toPhpString(current) : current);
}

function sanitizeArray(value: unknown, schema: JsonSchema, param: string, validateValue: ValueCheck): SanitizeResult {
  const list = toList(value);
  const items = schema.items;
  if (items != null && !isEmpty(items)) {
    for (const [index, item] of list.entries()) {
      const result = sanitizeValueWith(item, items, `${param}[${index}]`, validateValue);
      if (!result.ok) return result;
      list[index] = result.value;
    }
  }
  if (!isEmpty(schema.uniqueItems) && !hasUniqueItems(list)) {
    return fail({ code: 'rest_duplicate_items', message: `${param} has duplicate items.`, data: null });
  }
  return ok(list);
}

function sanitizeObject(value: unknown, schema: JsonSchema, param: string, validateValue: ValueCheck): SanitizeResult {
  const sanitized: Record<string, unknown> = {};
  for (const [name, item] of Object.entries(toMap(value))) {
    if (isUnsafeKey(name)) continue;
    let child = propertySchema(schema, name) ?? patternPropertySchema(schema, name);
    if (child === undefined) {
      const additional = schema.additionalProperties;
      if (additional === false) continue;
      if (additional != null && typeof additional === 'object') child = additional;
    }
    let result = item;
    if (child !== undefined) {
      const inner = sanitizeValueWith(item, child, `${param}[${name}]`, validateValue);
      if (!inner.ok) return inner;
      result = inner.value;
    }
    Object.defineProperty(sanitized, name, { value: result, enumerable: true, writable: true, configurable: true });
  }
  // A list stays a list (as the same PHP array would) unless dropping keys left gaps in it.
  if (Array.isArray(value) && Object.keys(sanitized).every((key, index) => key === String(index))) {
    return ok(Object.values(sanitized));
  }
  return ok(sanitized);
}

/** The cleaned string for a known format, or undefined for formats that are not cleaned. */
function sanitizeFormat(value: unknown, format: string): string | undefined {
  const text = isPhpArray(value) ? null : toPhpString(value);
  switch (format) {
    case 'hex-color':
      return text === null ? '' : sanitizeHexColor(text);
    case 'date-time':
    case 'email':
    case 'ip':
    case 'uuid':
    case 'text-field':
      return sanitizeTextField(value);
    case 'textarea-field':
      return sanitizeTextField(value, true);
    case 'uri':
      return text === null ? '' : sanitizeUrl(text);
    default:
      return undefined;
  }
}
