import * as v from 'valibot';
import type { ArgIssue } from '../errors.js';
import { INDEX_KEYWORDS, type JsonSchema } from './schema.js';
import { parseValue, sanitizeValue, validateValue } from './engine.js';

/**
 * When an argument is checked, mirroring the reference's two passes:
 * - `validate`: schema-validated in the first pass (aggregated over all such args), sanitised in the second;
 * - `sanitize`: validated and sanitised together in the second pass only (args declared with just a type);
 * - `none`: passed through untouched (args without a type), save for its own `check` in the second pass (the
 *   reference's own sanitize callbacks that only refuse).
 */
export type ArgPhase = 'validate' | 'sanitize' | 'none';

/** What an argument's own check sees besides the value. */
export interface ArgCheckContext {
  readonly user: { readonly id: number } | null;
  readonly method: string;
  /** Any parameter of the request by name, with the reference's precedence, before sanitising. */
  param(name: string): unknown;
}

export type ArgCheck = (value: unknown, context: ArgCheckContext, param: string) => ArgIssue | null;

export interface ArgOptions {
  required?: boolean;
  phase?: ArgPhase;
  /** An extra rule run after the schema's, in the same pass (e.g. a status the user may not ask for). */
  check?: ArgCheck;
  /** Applied to the sanitised value (the reference's sanitize callbacks: absint, sanitize_key, ...). */
  transform?: (value: unknown) => unknown;
  /** A JSON `null` stays `null` instead of being cast to the type (settings: null resets a value). */
  keepNull?: boolean;
}

/** One argument of an endpoint: a JSON schema for the index and valibot pipelines compiled from it. */
export interface Arg {
  readonly schema: JsonSchema;
  readonly required: boolean;
  readonly phase: ArgPhase;
  readonly check: ArgCheck | undefined;
  readonly transform: ((value: unknown) => unknown) | undefined;
  readonly keepNull: boolean;
  /** Validation only (first pass). */
  readonly validator: v.GenericSchema<unknown, unknown>;
  /** Sanitisation, preceded by validation when `phase` is `sanitize` (second pass). */
  readonly sanitizer: v.GenericSchema<unknown, unknown>;
}

/** The issue found by a compiled pipeline, recovered from valibot's issue. */
export function issueFromValibot(issues: readonly v.BaseIssue<unknown>[]): ArgIssue {
  const first = issues[0]!;
  return {
    code: first.expected ?? 'rest_invalid_param',
    message: first.message,
    data: first.received === 'null' ? null : (JSON.parse(first.received) as ArgIssue['data']),
  };
}

function issueInfo(issue: ArgIssue): v.RawTransformIssueInfo<unknown> {
  return { message: issue.message, expected: issue.code, received: JSON.stringify(issue.data ?? null) };
}

function compileValidator(schema: JsonSchema, name: string): v.GenericSchema<unknown, unknown> {
  return v.pipe(
    v.unknown(),
    v.rawTransform(({ dataset, addIssue, NEVER }) => {
      const issue = validateValue(dataset.value, schema, name);
      if (issue) {
        addIssue(issueInfo(issue));
        return NEVER;
      }
      return dataset.value;
    }),
  );
}

function compileSanitizer(schema: JsonSchema, name: string, validateFirst: boolean): v.GenericSchema<unknown, unknown> {
  return v.pipe(
    v.unknown(),
    v.rawTransform(({ dataset, addIssue, NEVER }) => {
      const result = validateFirst ? parseValue(dataset.value, schema, name) : sanitizeValue(dataset.value, schema, name);
      if (!result.ok) {
        addIssue(issueInfo(result.issue));
        return NEVER;
      }
      return result.value;
    }),
  );
}

/**
 * Declares an argument from its JSON schema. The name is bound when the endpoint is registered (messages
 * carry it), so `arg()` returns a factory-like description that the registry completes.
 */
export function arg(schema: JsonSchema, options: ArgOptions = {}): ArgSpec {
  const phase = options.phase ?? (schema.type === undefined && !schema.anyOf && !schema.oneOf ? 'none' : 'validate');
  return { schema, options: { ...options, phase } };
}

export interface ArgSpec {
  readonly schema: JsonSchema;
  readonly options: ArgOptions & { phase: ArgPhase };
}

export function compileArg(name: string, spec: ArgSpec): Arg {
  const { schema, options } = spec;
  const hasType = schema.type !== undefined && !(Array.isArray(schema.type) && schema.type.length === 0);
  const phase: ArgPhase = hasType || options.phase === 'none' ? options.phase : 'none';
  // The pipelines are built when a request first needs them: createCms registers hundreds of arguments.
  let validator: v.GenericSchema<unknown, unknown> | undefined;
  let sanitizer: v.GenericSchema<unknown, unknown> | undefined;
  return {
    schema,
    required: options.required === true,
    phase,
    check: options.check,
    transform: options.transform,
    keepNull: options.keepNull === true,
    get validator() {
      validator ??= compileValidator(schema, name);
      return validator;
    },
    get sanitizer() {
      sanitizer ??= compileSanitizer(schema, name, phase === 'sanitize');
      return sanitizer;
    },
  };
}

/** The argument as the route index shows it: the published keywords in their own order, then `required`. */
export function argForIndex(compiled: Arg): Record<string, unknown> {
  const published: Record<string, unknown> = {};
  const allowed = new Set<string>(INDEX_KEYWORDS);
  for (const [key, value] of Object.entries(compiled.schema)) {
    if (allowed.has(key) && value !== undefined) published[key] = value;
  }
  published.required = compiled.required;
  return published;
}

/* Builders for the common shapes, so route tables read like the index they produce. */

type Keywords = Omit<JsonSchema, 'type'>;

/** Puts `type` right after `description`, where the reference's own definitions have it. */
function typed(type: JsonSchema['type'], keywords: Keywords): JsonSchema {
  const { description, ...rest } = keywords;
  return description === undefined ? { type, ...rest } : { description, type, ...rest };
}

export const args = {
  integer: (keywords: Keywords = {}, options?: ArgOptions) => arg(typed('integer', keywords), options),
  number: (keywords: Keywords = {}, options?: ArgOptions) => arg(typed('number', keywords), options),
  string: (keywords: Keywords = {}, options?: ArgOptions) => arg(typed('string', keywords), options),
  boolean: (keywords: Keywords = {}, options?: ArgOptions) => arg(typed('boolean', keywords), options),
  object: (keywords: Keywords = {}, options?: ArgOptions) => arg(typed('object', keywords), options),
  array: (items: JsonSchema, keywords: Keywords = {}, options?: ArgOptions) =>
    arg(typed('array', { ...keywords, items }), options),
  /** An argument with no type: documented in the index, never validated (the reference's untyped args). */
  untyped: (keywords: Keywords = {}) => arg(keywords, { phase: 'none' }),
};
