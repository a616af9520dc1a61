import type { ArgIssue } from '../errors.js';
import {
  hasUniqueItems,
  isArrayLike,
  isBooleanLike,
  isBuiltInType,
  isIntegerLike,
  isObjectLike,
  resolveTypeList,
  toList,
  toMap,
  valuesEqual,
} from './coerce.js';
import { findAnyMatchingSchema, findOneMatchingSchema } from './combine.js';
import { isEmail, isHexColor, isIpAddress, isUuid, parseDateTime } from '../../format/formats.js';
import { matchesPattern } from '../../format/pcre.js';
import { hasOwn, patternPropertySchema, propertySchema } from './properties.js';
import {
  formatCount,
  formatInteger,
  isEmpty,
  isNumeric,
  isPhpArray,
  isScalar,
  joinEnglishList,
  phpJsonEncode,
  toFloat,
  toPhpString,
} from '../../format/php.js';
import type { JsonSchema } from './schema.js';
import { sanitizeValueWith } from './sanitize.js';

/**
 * Validates a value against a schema with the reference's semantics (`rest_validate_value_from_schema`):
 * anyOf/oneOf, type lists, per-type checks with PHP-style coercion, enum, then format. Returns the first
 * problem found, or null when the value is valid.
 */
export function validateValue(value: unknown, schema: JsonSchema, param: string): ArgIssue | null {
  let type: unknown = schema.type;

  for (const find of [schema.anyOf != null ? findAnyMatchingSchema : null, schema.oneOf != null ? findOneMatchingSchema : null]) {
    if (!find) continue;
    // A type adopted from an anyOf match is inherited by the oneOf branches, as in the reference.
    const match = find(value, type === schema.type ? schema : { ...schema, type: type as JsonSchema['type'] }, param, validateValue);
    if (!match.ok) return match.issue;
    if (type == null && match.schema.type != null) type = match.schema.type;
  }

  if (Array.isArray(type)) {
    const best = resolveTypeList(value, type);
    if (!best) return typeIssue(param, type.join(','));
    type = best;
  }

  const typeProblem = checkType(value, schema, type, param);
  if (typeProblem) return typeProblem;

  if (Array.isArray(schema.enum) && schema.enum.length > 0) {
    const enumProblem = checkEnum(value, { ...schema, type: type as JsonSchema['type'] }, param);
    if (enumProblem) return enumProblem;
  }

  if (schema.format != null && (type == null || type === 'string' || !isBuiltInType(type))) {
    return checkFormat(value, schema.format, param);
  }
  return null;
}

function checkType(value: unknown, schema: JsonSchema, type: unknown, param: string): ArgIssue | null {
  switch (type) {
    case 'null':
      return value === null || value === undefined ? null : typeIssue(param, 'null');
    case 'boolean':
      return isBooleanLike(value) ? null : typeIssue(param, 'boolean');
    case 'object':
      return checkObject(value, schema, param);
    case 'array':
      return checkArray(value, schema, param);
    case 'number':
      return checkNumber(value, schema, 'number', param);
    case 'integer':
      return checkNumber(value, schema, 'integer', param) ?? (isIntegerLike(value) ? null : typeIssue(param, 'integer'));
    case 'string':
      return checkString(value, schema, param);
    default:
      return null;
  }
}

export function typeIssue(param: string, typeName: string): ArgIssue {
  return { code: 'rest_invalid_type', message: `${param} is not of type ${typeName}.`, data: { param } };
}

function issue(code: string, message: string): ArgIssue {
  return { code, message, data: null };
}

/** Singular when the count is exactly one (the English plural rule). */
function plural(count: unknown, singular: string, pluralForm: string): string {
  return toFloat(count) === 1 ? singular : pluralForm;
}

function checkObject(value: unknown, schema: JsonSchema, param: string): ArgIssue | null {
  if (!isObjectLike(value)) return typeIssue(param, 'object');
  const map = toMap(value);

  const missing = Array.isArray(schema.required)
    ? schema.required.find((name) => !hasOwn(map, String(name)))
    : Object.entries(schema.properties ?? {}).find(([name, child]) => child?.required === true && !hasOwn(map, name))?.[0];
  if (missing !== undefined) return issue('rest_property_required', `${missing} is a required property of ${param}.`);

  for (const [name, item] of Object.entries(map)) {
    const child = propertySchema(schema, name) ?? patternPropertySchema(schema, name);
    if (child !== undefined) {
      const problem = validateValue(item, child, `${param}[${name}]`);
      if (problem) return problem;
      continue;
    }
    const additional = schema.additionalProperties;
    if (additional === false) return issue('rest_additional_properties_forbidden', `${name} is not a valid property of Object.`);
    if (additional != null && typeof additional === 'object') {
      const problem = validateValue(item, additional, `${param}[${name}]`);
      if (problem) return problem;
    }
  }

  const count = Object.keys(map).length;
  if (schema.minProperties != null && count < toFloat(schema.minProperties)) {
    const noun = plural(schema.minProperties, 'property', 'properties');
    return issue('rest_too_few_properties', `${param} must contain at least ${formatCount(schema.minProperties)} ${noun}.`);
  }
  if (schema.maxProperties != null && count > toFloat(schema.maxProperties)) {
    const noun = plural(schema.maxProperties, 'property', 'properties');
    return issue('rest_too_many_properties', `${param} must contain at most ${formatCount(schema.maxProperties)} ${noun}.`);
  }
  return null;
}

function checkArray(value: unknown, schema: JsonSchema, param: string): ArgIssue | null {
  if (!isArrayLike(value)) return typeIssue(param, 'array');
  const list = toList(value);

  if (schema.items != null) {
    for (const [index, item] of list.entries()) {
      const problem = validateValue(item, schema.items, `${param}[${index}]`);
      if (problem) return problem;
    }
  }
  if (schema.minItems != null && list.length < toFloat(schema.minItems)) {
    const noun = plural(schema.minItems, 'item', 'items');
    return issue('rest_too_few_items', `${param} must contain at least ${formatCount(schema.minItems)} ${noun}.`);
  }
  if (schema.maxItems != null && list.length > toFloat(schema.maxItems)) {
    const noun = plural(schema.maxItems, 'item', 'items');
    return issue('rest_too_many_items', `${param} must contain at most ${formatCount(schema.maxItems)} ${noun}.`);
  }
  if (!isEmpty(schema.uniqueItems) && !hasUniqueItems(list)) {
    return issue('rest_duplicate_items', `${param} has duplicate items.`);
  }
  return null;
}

function checkNumber(value: unknown, schema: JsonSchema, typeName: string, param: string): ArgIssue | null {
  if (!isNumeric(value)) return typeIssue(param, typeName);
  const number = toFloat(value);

  if (schema.multipleOf != null && number % toFloat(schema.multipleOf) !== 0) {
    return issue('rest_invalid_multiple', `${param} must be a multiple of ${toPhpString(schema.multipleOf)}.`);
  }

  const hasMinimum = schema.minimum != null;
  const hasMaximum = schema.maximum != null;
  const minimum = toFloat(schema.minimum);
  const maximum = toFloat(schema.maximum);
  const exclusiveMinimum = !isEmpty(schema.exclusiveMinimum);
  const exclusiveMaximum = !isEmpty(schema.exclusiveMaximum);
  const min = formatInteger(schema.minimum);
  const max = formatInteger(schema.maximum);
  const outOfBounds = (message: string): ArgIssue => issue('rest_out_of_bounds', `${param} must be ${message}`);

  if (hasMinimum && !hasMaximum) {
    if (exclusiveMinimum && number <= minimum) return outOfBounds(`greater than ${min}`);
    if (!exclusiveMinimum && number < minimum) return outOfBounds(`greater than or equal to ${min}`);
  }
  if (hasMaximum && !hasMinimum) {
    if (exclusiveMaximum && number >= maximum) return outOfBounds(`less than ${max}`);
    if (!exclusiveMaximum && number > maximum) return outOfBounds(`less than or equal to ${max}`);
  }
  if (hasMinimum && hasMaximum) {
    const belowMinimum = exclusiveMinimum ? number <= minimum : number < minimum;
    const aboveMaximum = exclusiveMaximum ? number >= maximum : number > maximum;
    if (belowMinimum || aboveMaximum) {
      const lower = exclusiveMinimum ? 'exclusive' : 'inclusive';
      const upper = exclusiveMaximum ? 'exclusive' : 'inclusive';
      return outOfBounds(`between ${min} (${lower}) and ${max} (${upper})`);
    }
  }
  return null;
}

/**
 * The length in code points, as the reference counts characters, exact up to `bound`; past twice the bound in
 * code units it is only known to be over it, and counting megabytes of text would hold the event loop.
 */
function characterCount(value: string, bound: number): number {
  if (value.length > 2 * bound) return value.length;
  let count = value.length;
  for (let index = 0; index < value.length; index += 1) {
    const unit = value.charCodeAt(index);
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = value.charCodeAt(index + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        count -= 1;
        index += 1;
      }
    }
  }
  return count;
}

function checkString(value: unknown, schema: JsonSchema, param: string): ArgIssue | null {
  if (typeof value !== 'string') return typeIssue(param, 'string');
  const bound = Math.max(schema.minLength == null ? 0 : toFloat(schema.minLength), schema.maxLength == null ? 0 : toFloat(schema.maxLength));
  const length = schema.minLength == null && schema.maxLength == null ? 0 : characterCount(value, bound);

  if (schema.minLength != null && length < toFloat(schema.minLength)) {
    const noun = plural(schema.minLength, 'character', 'characters');
    return issue('rest_too_short', `${param} must be at least ${formatCount(schema.minLength)} ${noun} long.`);
  }
  if (schema.maxLength != null && length > toFloat(schema.maxLength)) {
    const noun = plural(schema.maxLength, 'character', 'characters');
    return issue('rest_too_long', `${param} must be at most ${formatCount(schema.maxLength)} ${noun} long.`);
  }
  if (schema.pattern != null && !matchesPattern(toPhpString(schema.pattern), value)) {
    return issue('rest_invalid_pattern', `${param} does not match pattern ${toPhpString(schema.pattern)}.`);
  }
  return null;
}

function checkEnum(value: unknown, schema: JsonSchema, param: string): ArgIssue | null {
  const sanitized = sanitizeValueWith(value, schema, param, validateValue);
  if (!sanitized.ok) return sanitized.issue;
  const allowed = schema.enum ?? [];
  if (allowed.some((entry) => valuesEqual(sanitized.value, entry))) return null;

  const shown = allowed.map((entry) => (isScalar(entry) ? toPhpString(entry) : phpJsonEncode(entry)));
  if (shown.length === 1) return issue('rest_not_in_enum', `${param} is not ${shown[0]}.`);
  return issue('rest_not_in_enum', `${param} is not one of ${joinEnglishList(shown)}.`);
}

/** The text a format check sees: scalars as PHP prints them; arrays cannot be checked. */
function formatSubject(value: unknown): string | null {
  if (isPhpArray(value)) return null;
  return toPhpString(value);
}

function checkFormat(value: unknown, format: string, param: string): ArgIssue | null {
  const subject = formatSubject(value);
  switch (format) {
    case 'hex-color':
      return subject !== null && isHexColor(subject) ? null : issue('rest_invalid_hex_color', 'Invalid hex color.');
    case 'date-time': {
      const date = subject === null ? null : parseDateTime(subject);
      // The reference treats the Unix epoch itself (timestamp 0) as a failed parse.
      const valid = date !== null && Math.floor(date.getTime() / 1000) !== 0;
      return valid ? null : issue('rest_invalid_date', 'Invalid date.');
    }
    case 'email':
      return subject !== null && isEmail(subject) ? null : issue('rest_invalid_email', 'Invalid email address.');
    case 'ip':
      return subject !== null && isIpAddress(subject) ? null : issue('rest_invalid_ip', `${param} is not a valid IP address.`);
    case 'uuid':
      return typeof value === 'string' && isUuid(value) ? null : issue('rest_invalid_uuid', `${param} is not a valid UUID.`);
    default:
      return null;
  }
}
