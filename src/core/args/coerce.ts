/** The reference's type tests and conversions for schema values (`rest_is_*`, `rest_sanitize_*`). */

import {
  asciiLower,
  entriesOf,
  isIntegerKey,
  isListLike,
  isNumeric,
  isPhpArray,
  isScalar,
  splitList,
  toBool,
  toFloat,
} from '../../format/php.js';

export const BUILT_IN_TYPES = ['array', 'object', 'string', 'number', 'integer', 'boolean', 'null'] as const;

export function isBuiltInType(type: unknown): boolean {
  return (BUILT_IN_TYPES as readonly unknown[]).includes(type);
}

/** true/false, the strings "true", "false", "1", "0" in any case, and the integers 0 and 1. */
export function isBooleanLike(value: unknown): boolean {
  if (typeof value === 'boolean') return true;
  if (typeof value === 'string') return ['false', 'true', '0', '1'].includes(asciiLower(value));
  return value === 0 || value === 1;
}

/** A numeric value that is a whole number. */
export function isIntegerLike(value: unknown): boolean {
  if (!isNumeric(value)) return false;
  const number = toFloat(value);
  return roundHalfAwayFromZero(number) === number;
}

function roundHalfAwayFromZero(number: number): number {
  return Math.sign(number) * Math.round(Math.abs(number));
}

/** A list, or any scalar (which splits into one). */
export function isArrayLike(value: unknown): boolean {
  if (isScalar(value)) return true;
  return isListLike(value);
}

/** Any array (list or map), or the empty string. */
export function isObjectLike(value: unknown): boolean {
  return value === '' || isPhpArray(value);
}

/** `rest_sanitize_array`: scalars are split into a list, arrays re-indexed, anything else gives []. */
export function toList(value: unknown): unknown[] {
  if (isScalar(value)) return splitList(value);
  if (!isPhpArray(value)) return [];
  return entriesOf(value).map(([, item]) => item);
}

/** `rest_sanitize_object`: arrays become maps (list indices become keys), anything else gives {}. */
export function toMap(value: unknown): Record<string, unknown> {
  if (!isPhpArray(value)) return {};
  if (!Array.isArray(value)) return value;
  return Object.fromEntries(entriesOf(value));
}

/** `rest_sanitize_boolean`: the strings "false" and "0" (any case) are false, otherwise PHP truthiness. */
export function sanitizeBoolean(value: unknown): boolean {
  if (typeof value === 'string' && ['false', '0'].includes(asciiLower(value))) return false;
  return toBool(value);
}

const TYPE_TESTS: Record<string, (value: unknown) => boolean> = {
  array: isArrayLike,
  object: isObjectLike,
  integer: isIntegerLike,
  number: isNumeric,
  boolean: isBooleanLike,
  string: (value) => typeof value === 'string',
  null: (value) => value === null || value === undefined,
};

/**
 * The first listed type whose test the value passes, or "" if none. The empty string prefers `string` when
 * it is allowed, since arrays and objects would also accept it.
 */
export function bestTypeForValue(value: unknown, types: readonly unknown[]): string {
  if (value === '' && types.includes('string')) return 'string';
  for (const type of types) {
    const test = typeof type === 'string' ? TYPE_TESTS[type] : undefined;
    if (test?.(value)) return type as string;
  }
  return '';
}

/**
 * The type to validate a value as under a type list. When nothing matches but the list names types that are
 * not built in, the first of those wins (the reference keeps accepting such schemas).
 */
export function resolveTypeList(value: unknown, types: readonly unknown[]): string {
  const best = bestTypeForValue(value, types);
  if (best) return best;
  const unknownType = types.find((type) => !isBuiltInType(type));
  return unknownType === undefined ? '' : String(unknownType);
}

/**
 * JSON-schema equality of sanitised values: arrays compare key by key (so map key order does not matter),
 * numbers compare numerically, everything else strictly.
 */
export function valuesEqual(left: unknown, right: unknown): boolean {
  if (isPhpArray(left) && isPhpArray(right)) {
    const leftEntries = entriesOf(left);
    const rightMap = new Map(entriesOf(right));
    if (leftEntries.length !== rightMap.size) return false;
    return leftEntries.every(([key, item]) => rightMap.has(key) && valuesEqual(item, rightMap.get(key)));
  }
  if (left === undefined) return right === undefined || right === null;
  if (right === undefined) return left === null;
  return left === right;
}

/** Whether no two items of a list are structurally identical (types matter: "1" and 1 differ). */
export function hasUniqueItems(items: readonly unknown[]): boolean {
  const seen = new Set<string>();
  for (const item of items) {
    const key = stableKey(item);
    if (seen.has(key)) return false;
    seen.add(key);
  }
  return true;
}

function stableKey(value: unknown): string {
  if (value === null || value === undefined) return 'N';
  if (typeof value === 'boolean') return `b:${value ? 1 : 0}`;
  if (typeof value === 'number') return Number.isInteger(value) ? `i:${value}` : `d:${value}`;
  if (typeof value === 'string') return `s:${JSON.stringify(value)}`;
  if (isPhpArray(value)) {
    const entries = entriesOf(value).sort(([a], [b]) => compareKeys(a, b));
    return `a{${entries.map(([key, item]) => `${isIntegerKey(key) ? 'i' : 's'}:${JSON.stringify(key)}=${stableKey(item)}`).join(';')}}`;
  }
  return `o:${String(value)}`;
}

function compareKeys(a: string, b: string): number {
  if (isIntegerKey(a) && isIntegerKey(b)) return Number(a) - Number(b);
  return a < b ? -1 : a > b ? 1 : 0;
}
