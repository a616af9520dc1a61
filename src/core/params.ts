import * as v from 'valibot';
import { compileArg, issueFromValibot, type Arg, type ArgCheck, type ArgCheckContext } from './args/define.js';
import { CmsError, type ArgIssue } from './errors.js';
import type { Endpoint, PathParam } from './registry.js';

/** What argument checking reads of an endpoint: its declared arguments. */
type DeclaredArgs = Pick<Endpoint, 'args'>;
import { typeIssue } from './args/validate.js';
import type { JsonObject, ParamMap } from './types.js';

export type GroupName = 'JSON' | 'POST' | 'GET' | 'URL' | 'defaults';

/** The parameter groups of one request, highest precedence first (the reference's `get_parameter_order`). */
export class ParamGroups {
  readonly #groups: [GroupName, Map<string, unknown>][];
  readonly #settled = new Set<string>();
  /** The route's path parameters, whose rule a value of the same name from the body or query must follow. */
  readonly pathParams: ReadonlyMap<string, PathParam>;

  constructor(sources: {
    json?: unknown; post?: Record<string, unknown> | null; query: ParamMap; url: Record<string, string>; endpoint: DeclaredArgs;
    pathParams?: ReadonlyMap<string, PathParam>;
  }) {
    const { json, post, query, url, endpoint } = sources;
    this.pathParams = sources.pathParams ?? new Map();
    this.#groups = [];
    if (json !== undefined && json !== null && typeof json === 'object' && !Array.isArray(json)) {
      this.#groups.push(['JSON', new Map(Object.entries(json))]);
    }
    if (post) this.#groups.push(['POST', new Map(Object.entries(post))]);
    this.#groups.push(['GET', new Map(Object.entries(query))]);
    this.#groups.push(['URL', new Map(Object.entries(url))]);
    const defaults = new Map<string, unknown>();
    for (const fallback of defaultsOf(endpoint)) {
      if (fallback.settled) this.#settled.add(fallback.name);
      defaults.set(fallback.name, copyDefault(fallback.settled ? fallback.settled.value : fallback.value));
    }
    this.#groups.push(['defaults', defaults]);
  }

  /** Whether the default of `name` is in the group already sanitised. */
  hasSettledDefault(name: string): boolean {
    return this.#settled.has(name);
  }

  /**
   * Whether `name` takes its value from the defaults and that value is already checked and sanitised (see
   * `EndpointDefault.settled`), so neither pass needs to run on it again.
   */
  isSettledDefault(name: string): boolean {
    if (!this.hasSettledDefault(name)) return false;
    for (let index = 0; index < this.#groups.length - 1; index++) {
      const value = this.#groups[index]![1].get(name);
      if (value !== undefined && value !== null) return false;
    }
    return true;
  }

  /** The highest-precedence value that is set (a null falls through, as PHP's `isset` does). */
  get(name: string): unknown {
    for (const [, group] of this.#groups) {
      const value = group.get(name);
      if (value !== undefined && value !== null) return value;
    }
    return undefined;
  }

  has(name: string): boolean {
    return this.#groups.some(([, group]) => group.has(name));
  }

  /** Every parameter by the same precedence; keys sent only as null map to null. */
  merged(): Record<string, unknown> {
    const merged = Object.create(null) as Record<string, unknown>;
    for (const [, group] of [...this.#groups].reverse()) {
      for (const [key, value] of group) {
        if (value !== undefined && value !== null) merged[key] = value;
        else if (!(key in merged)) merged[key] = null;
      }
    }
    return merged;
  }

  entries(): [GroupName, Map<string, unknown>][] {
    return this.#groups;
  }
}

/**
 * An argument's default. `settled` holds what the sanitise pass makes of it, once known, for arguments whose rules
 * do not depend on the request (no extra check): the same default always comes out the same, so later requests
 * take it as it is instead of running both passes over it again.
 */
interface EndpointDefault {
  readonly name: string;
  readonly value: unknown;
  settled?: { readonly value: unknown };
}

const endpointDefaults = new WeakMap<DeclaredArgs, readonly EndpointDefault[]>();

/** The arguments of an endpoint that have a default, with it; found once per endpoint. */
function defaultsOf(endpoint: DeclaredArgs): readonly EndpointDefault[] {
  let found = endpointDefaults.get(endpoint);
  if (!found) {
    found = [...endpoint.args]
      .map(([name, compiled]): EndpointDefault => ({ name, value: compiled.schema.default }))
      .filter((fallback) => fallback.value !== undefined && fallback.value !== null);
    endpointDefaults.set(endpoint, found);
  }
  return found;
}

/** Scalars as they are; lists and maps copied, as a request may change its parameters. */
function copyDefault(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value) && value.every((item) => item === null || typeof item !== 'object')) return value.slice();
  return structuredClone(value);
}

/** Remembers the sanitised form of a default that passes both passes with no request-dependent rule. */
function settleDefault(endpoint: DeclaredArgs, name: string, compiled: Arg, sanitized: unknown, context: ArgCheckContext): void {
  if (compiled.check) return;
  const fallback = defaultsOf(endpoint).find((candidate) => candidate.name === name);
  if (!fallback || fallback.settled) return;
  if (compiled.phase === 'validate' && validateOne(compiled, fallback.value, name, context)) return;
  fallback.settled = { value: copyDefault(sanitized) };
}

function invalidParams(failures: Map<string, ArgIssue>): CmsError {
  const params: JsonObject = {};
  const details: JsonObject = {};
  for (const [name, issue] of failures) {
    params[name] = issue.message;
    details[name] = { code: issue.code, message: issue.message, data: issue.data };
  }
  return new CmsError('rest_invalid_param', `Invalid parameter(s): ${[...failures.keys()].join(', ')}`, 400, { params, details });
}

/**
 * What a pipeline made of short text it passed, by pipeline: a pipeline is built from the argument's schema alone,
 * so the same text always comes out the same (`per_page=10`, `status=publish` on every list). Only scalars and
 * lists of scalars are kept, and a list is handed out as a copy, so no request can change what another is handed;
 * bounded per pipeline.
 */
const passedText = new WeakMap<object, Map<string, unknown>>();
const MAX_PASSED_TEXTS = 64;
const MAX_PASSED_TEXT_LENGTH = 100;

function isScalarOrScalarList(value: unknown): boolean {
  if (value === null || typeof value !== 'object') return true;
  return Array.isArray(value) && value.length <= MAX_PASSED_TEXT_LENGTH && value.every((item) => item === null || typeof item !== 'object');
}

function runPipeline(schema: v.GenericSchema<unknown, unknown>, value: unknown): { ok: true; value: unknown } | { ok: false; issue: ArgIssue } {
  const remembers = typeof value === 'string' && value.length <= MAX_PASSED_TEXT_LENGTH;
  const known = remembers ? passedText.get(schema) : undefined;
  if (known?.has(value as string)) return { ok: true, value: copyDefault(known.get(value as string)) };
  const result = v.safeParse(schema, value);
  if (!result.success) return { ok: false, issue: issueFromValibot(result.issues) };
  const output: unknown = result.output;
  if (remembers && isScalarOrScalarList(output)) {
    let texts = known;
    if (!texts) passedText.set(schema, (texts = new Map()));
    if (texts.size >= MAX_PASSED_TEXTS) texts.clear();
    texts.set(value as string, copyDefault(output));
  }
  return { ok: true, value: output };
}

/**
 * Checks and sanitises the arguments of the matched endpoint in the reference's order: required, then the
 * validate pass (errors aggregated), then the sanitise pass over every group that holds each argument.
 */
export function validateParams(
  groups: ParamGroups, endpoint: DeclaredArgs, checkContext: ArgCheckContext, listsChecked?: ReadonlyMap<string, CheckedList>,
): void {
  // A list whose items were checked beforehand (`validateParamsInTurns`) fails with its first item's problem, or is
  // checked here as a list only and takes its items as they were sanitised then.
  const argOf = (name: string, compiled: Arg): Arg => (listsChecked?.has(name) ? listOnly(name, compiled) : compiled);
  const itemIssue = (name: string): ArgIssue | undefined => {
    const checked = listsChecked?.get(name);
    return checked && 'issue' in checked ? checked.issue : undefined;
  };
  const missing = [...endpoint.args].filter(([name, compiled]) => compiled.required && groups.get(name) === undefined);
  if (missing.length > 0) {
    const names = missing.map(([name]) => name);
    throw new CmsError('rest_missing_callback_param', `Missing parameter(s): ${names.join(', ')}`, 400, { params: names });
  }

  const failures = pathParamFailures(groups, endpoint);
  for (const [name, compiled] of endpoint.args) {
    if (compiled.phase !== 'validate') continue;
    const value = groups.get(name);
    if (value === undefined || groups.isSettledDefault(name)) continue;
    const issue = itemIssue(name) ?? validateOne(argOf(name, compiled), value, name, checkContext);
    if (issue) failures.set(name, issue);
  }
  if (failures.size > 0) throw invalidParams(failures);

  for (const [groupName, group] of groups.entries()) {
    const defaults = groupName === 'defaults';
    for (const [name, value] of group) {
      const compiled = endpoint.args.get(name);
      if (!compiled || (compiled.phase === 'none' && !compiled.check) || (defaults && groups.hasSettledDefault(name))) continue;
      const failed = itemIssue(name);
      const result = failed ? { ok: false as const, issue: failed } : sanitizeOne(argOf(name, compiled), value, name, checkContext);
      if (!result.ok) {
        failures.set(name, result.issue);
        continue;
      }
      const checked = listsChecked?.get(name);
      group.set(name, checked && 'items' in checked ? checked.items : result.value);
      if (defaults) settleDefault(endpoint, name, compiled, result.value, checkContext);
    }
  }
  if (failures.size > 0) throw invalidParams(failures);
}

/** A list argument whose items were checked one by one: the first item's problem, or the items sanitised. */
export type CheckedList = { readonly issue: ArgIssue } | { readonly items: unknown[] };

const listsOnly = new WeakMap<Arg, Arg>();

/** The same argument with its items left unchecked: the list's type, length and own check only. */
function listOnly(name: string, compiled: Arg): Arg {
  let found = listsOnly.get(compiled);
  if (!found) {
    const { schema, phase, required, check, keepNull } = compiled;
    found = compileArg(name, { schema: { ...schema, items: undefined }, options: { phase, required, check, keepNull } });
    listsOnly.set(compiled, found);
  }
  return found;
}

/**
 * Checks and sanitises a plain object of arguments (an in-process API's input) exactly as a request's JSON body
 * is checked: the same passes, defaults and errors. Answers the sanitised values of the declared arguments.
 */
export function validateValues(
  values: Readonly<Record<string, unknown>>, declared: DeclaredArgs, checkContext: ArgCheckContext,
): Record<string, unknown> {
  const groups = groupsOfValues(values, declared);
  validateParams(groups, declared, checkContext);
  return checkedValues(groups, declared);
}

/** The parameter groups of an in-process API's input: its values are the JSON body. */
export function groupsOfValues(values: Readonly<Record<string, unknown>>, declared: DeclaredArgs): ParamGroups {
  return new ParamGroups({ json: values, query: Object.create(null) as ParamMap, url: {}, endpoint: declared });
}

/** The sanitised values of the declared arguments. */
export function checkedValues(groups: ParamGroups, declared: DeclaredArgs): Record<string, unknown> {
  const checked = Object.create(null) as Record<string, unknown>;
  for (const name of declared.args.keys()) {
    const value = groups.get(name);
    if (value !== undefined) checked[name] = value;
  }
  return checked;
}

/**
 * A body or query parameter named like a path parameter takes its place (the groups' order); when the endpoint
 * declares no argument of that name, the value must still be one the path would have matched.
 */
function pathParamFailures(groups: ParamGroups, endpoint: DeclaredArgs): Map<string, ArgIssue> {
  const failures = new Map<string, ArgIssue>();
  for (const [name, rule] of groups.pathParams) {
    if (endpoint.args.has(name)) continue;
    const value = groups.get(name);
    const text = typeof value === 'string' ? value : typeof value === 'number' && Number.isFinite(value) ? String(value) : null;
    if (text !== null && rule.regex.test(text)) continue;
    if (rule.integer || text === null) failures.set(name, typeIssue(name, rule.integer ? 'integer' : 'string'));
    else failures.set(name, { code: 'rest_invalid_pattern', message: `${name} does not match pattern ${rule.source}.`, data: null });
  }
  return failures;
}

function validateOne(compiled: Arg, value: unknown, name: string, context: ArgCheckContext): ArgIssue | null {
  const result = runPipeline(compiled.validator, value);
  if (!result.ok) return result.issue;
  return compiled.check ? runCheck(compiled.check, value, context, name) : null;
}

function runCheck(check: ArgCheck, value: unknown, context: ArgCheckContext, name: string): ArgIssue | null {
  context.checked?.(check, value, name);
  return check(value, context, name);
}

function sanitizeOne(compiled: Arg, value: unknown, name: string, context: ArgCheckContext): { ok: true; value: unknown } | { ok: false; issue: ArgIssue } {
  if (value === null && compiled.keepNull) return { ok: true, value: null };
  if (compiled.phase === 'none') {
    const issue = runCheck(compiled.check!, value, context, name);
    return issue ? { ok: false, issue } : { ok: true, value };
  }
  const result = runPipeline(compiled.sanitizer, value);
  if (!result.ok) return result;
  if (compiled.phase === 'sanitize' && compiled.check) {
    const issue = runCheck(compiled.check, result.value, context, name);
    if (issue) return { ok: false, issue };
  }
  return { ok: true, value: compiled.transform ? compiled.transform(result.value) : result.value };
}
