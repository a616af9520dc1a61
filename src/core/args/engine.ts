/**
 * The schema engine's entry points: validation, sanitising and both in turn, with the reference's semantics.
 * Validation and sanitising recurse into each other through anyOf/oneOf and enums; this file ties the two
 * together so that neither module imports the other's caller.
 */
import { sanitizeValueWith, type SanitizeResult } from './sanitize.js';
import type { JsonSchema } from './schema.js';
import { validateValue } from './validate.js';

export { validateValue, type SanitizeResult };

/** `rest_sanitize_value_from_schema`. */
export function sanitizeValue(value: unknown, schema: JsonSchema, param: string): SanitizeResult {
  return sanitizeValueWith(value, schema, param, validateValue);
}

/** Validates, then sanitises (`rest_parse_request_arg`). */
export function parseValue(value: unknown, schema: JsonSchema, param: string): SanitizeResult {
  const problem = validateValue(value, schema, param);
  return problem ? { ok: false, issue: problem } : sanitizeValue(value, schema, param);
}
