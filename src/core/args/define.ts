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
  /** Told of every check run, with the value it was given (parameters kept for later requests run them again). */
  checked?(check: ArgCheck, value: unknown, param: string): void;
}

export type ArgCheck = (value: unknown, context: ArgCheckContext, param: string) => ArgIssue | null;

export interface ArgOptions<Out = unknown> {
  required?: boolean;
  phase?: ArgPhase;
  /** An extra rule run after the schema's, in the same pass (e.g. a status the user may not ask for). */
  check?: ArgCheck;
  /** Applied to the sanitised value (the reference's sanitize callbacks: absint, sanitize_key, ...). */
  transform?: (value: unknown) => Out;
  /** A JSON `null` stays `null` instead of being cast to the type (settings: null resets a value). */
  keepNull?: boolean;
  /**
   * A list that may be long (a batch's requests, a slider's slides): a request's list is checked item by item,
   * the loop taking turns between them, with the same outcome as the check in one go.
   */
  inTurns?: boolean;
}

/** One argument of an endpoint: a JSON schema for the index and valibot pipelines compiled from it. */
export interface Arg {
  readonly schema: JsonSchema;
  readonly required: boolean;
  readonly phase: ArgPhase;
  readonly check: ArgCheck | undefined;
  readonly transform: ((value: unknown) => unknown) | undefined;
  readonly keepNull: boolean;
  readonly inTurns: boolean;
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
 * carry it), so `arg()` returns a factory-like description that the registry completes. Its type says what a
 * handler receives (see `Params`): the schema's type, or what `transform` returns, or anything for an argument
 * the engine passes through untouched.
 */
export function arg<const S extends JsonSchema, O extends ArgOptions = ArgOptions<never>>(
  schema: S, options?: O,
): ArgSpec<ArgOutput<S, O>, Settled<S, O>> {
  const given = (options ?? {}) as ArgOptions;
  const phase = given.phase ?? (schema.type === undefined && !schema.anyOf && !schema.oneOf ? 'none' : 'validate');
  return { schema, options: { ...given, phase } };
}

/**
 * One declared argument. `T` (the value a handler receives) and `Present` (whether it always has one: a default
 * or `required`) exist for the type checker only.
 */
export interface ArgSpec<T = unknown, Present extends boolean = boolean> {
  readonly schema: JsonSchema;
  readonly options: ArgOptions & { phase: ArgPhase };
  readonly valueType?: T;
  readonly present?: Present;
}

/** The arguments of an endpoint by name. */
export type ArgMap = Readonly<Record<string, ArgSpec>>;

/** The value of a JSON-schema type once the engine has coerced it. */
type TypeValue<Type> =
  Type extends 'integer' | 'number' ? number
    : Type extends 'string' ? string
      : Type extends 'boolean' ? boolean
        : Type extends 'null' ? null
          // A list given for an object stays a list while its indices remain 0..n-1.
          : Type extends 'object' ? Record<string, unknown> | unknown[]
            : Type extends 'array' ? unknown[]
              : unknown;

/**
 * What the engine makes of a value for `schema`: lists typed by their items, one of the `enum` values where the
 * schema lists them, null for a value fitting no type of a type list.
 */
export type SchemaValue<S> =
  S extends { readonly type: readonly (infer Types)[] } ? TypeValue<Types> | null
    : S extends { readonly type: 'array'; readonly items: infer Items } ? SchemaValue<Items>[]
      : S extends { readonly type: infer Type; readonly enum: readonly (infer Allowed)[] } ? Extract<Allowed, TypeValue<Type>>
        : S extends { readonly type: infer Type } ? TypeValue<Type>
          : unknown;

type ArgOutput<S, O> =
  O extends { readonly phase: 'none' } ? unknown
    : S extends { readonly type: unknown } ? ([TransformOutput<O>] extends [never] ? SchemaValue<S> : TransformOutput<O>) | KeptNull<O>
      : unknown;

type TransformOutput<O> = O extends { readonly transform: (value: unknown) => infer Out } ? Out : never;
type KeptNull<O> = O extends { readonly keepNull: true } ? null : never;
type Settled<S, O> = S extends { readonly default: NonNullable<unknown> } ? true : O extends { readonly required: true } ? true : false;

/** The value a handler receives for one argument: `undefined` when it was not sent and has no default. */
type ArgValue<Spec> = Spec extends ArgSpec<infer T, infer Present> ? ([Present] extends [true] ? T : T | undefined) : unknown;

type ParamsOf<A> = { readonly [Name in keyof A]: ArgValue<NonNullable<A[Name]>> } & Readonly<Record<string, unknown>>;

/**
 * The parameters a handler receives for the arguments `A` (an argument map, or a function returning one), as the
 * argument engine leaves them: coerced to their types, defaults filled in. Parameters not declared pass raw.
 */
export type Params<A> = A extends (...input: never[]) => infer Built ? ParamsOf<Built> : ParamsOf<A>;

/**
 * Marks an argument that every route declaring it takes from its own path (`id` of `/forms/(?P<id>[\\d]+)`), so
 * it always has a value. Nothing changes at run time.
 */
export function fromPath<T>(spec: ArgSpec<T>): ArgSpec<T, true> {
  return spec as ArgSpec<T, true>;
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
    inTurns: options.inTurns === true,
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

type Built<Type, K, O> = ArgSpec<ArgOutput<{ type: Type } & Pick<K, 'enum' & keyof K>, O>, Settled<K, O>>;

function builder<const Type extends JsonSchema['type'] & string>(type: Type) {
  return <const K extends Keywords = Record<never, never>, O extends ArgOptions = ArgOptions<never>>(keywords?: K, options?: O): Built<Type, K, O> =>
    arg(typed(type, keywords ?? {}), options) as Built<Type, K, O>;
}

export const args = {
  integer: builder('integer'),
  number: builder('number'),
  string: builder('string'),
  boolean: builder('boolean'),
  object: builder('object'),
  array: <const I extends JsonSchema, const K extends Keywords = Record<never, never>, O extends ArgOptions = ArgOptions<never>>(items: I, keywords?: K, options?: O) =>
    arg(typed('array', { ...keywords, items }), options) as ArgSpec<ArgOutput<{ type: 'array'; items: I }, O>, Settled<K, O>>,
  /** An argument with no type: documented in the index, never validated (the reference's untyped args). */
  untyped: <const K extends Keywords = Record<never, never>>(keywords?: K): ArgSpec<unknown, Settled<K, object>> =>
    arg(keywords ?? {}, { phase: 'none' }) as ArgSpec<unknown, Settled<K, object>>,
};
