/**
 * What a GET's parameters come to, kept per query string. Without a body, a route's checked and sanitised
 * parameters follow from the endpoint, its path parameters and the query string alone, save for the arguments'
 * own checks (`check`), which may read the caller: those are run again on every request, with the values they saw,
 * and a check that refuses, throws or reads another parameter sends the request through the full pipeline, so
 * errors always come from it. What is kept is never handed out: every request gets a copy of its own, as a handler
 * may change its parameters (kept lists are not frozen either: slicing a frozen array is many times slower).
 *
 * Both memos are bounded in entries and in the length of the text they key by (parses are cleared when full, kept
 * parameters go oldest first): a client sending ever new queries only makes requests run the full pipeline.
 */
import type { ArgCheck, ArgCheckContext } from './args/define.js';
import type { ParamGroups } from './params.js';
import { parseQueryString } from './query.js';
import type { Endpoint } from './registry.js';
import type { ParamMap } from './types.js';

const MAX_KEPT_TEXT_LENGTH = 512;
const MAX_KEPT_QUERIES = 256;
/** Parameters kept, over every endpoint. */
const MAX_KEPT_PARAMS = 2048;

/**
 * Parses kept; one whose values are all text also as a template in V8's fast mode (as `JSON.parse` makes them),
 * which is copied in a fraction of the time a map built key by key takes.
 */
const parsedTexts = new Map<string, { readonly parsed: ParamMap; readonly template: ParamMap | null }>();

/** A query string parsed; a copy of the kept parse when the same (short) text was parsed lately. */
export function parsedQuery(text: string): ParamMap {
  if (text.length > MAX_KEPT_TEXT_LENGTH) return parseQueryString(text);
  let found = parsedTexts.get(text);
  if (!found) {
    if (parsedTexts.size >= MAX_KEPT_QUERIES) parsedTexts.clear();
    const parsed = parseQueryString(text);
    const flat = Object.values(parsed).every((value) => typeof value === 'string');
    parsedTexts.set(text, (found = { parsed, template: flat ? JSON.parse(JSON.stringify(parsed)) as ParamMap : null }));
  }
  // Into a prototype-less map an own `__proto__` is set as any other key.
  return found.template ? Object.assign(Object.create(null) as ParamMap, found.template) : copyTree(found.parsed) as ParamMap;
}

/** The parameters of a request, as the request context reads them. */
export interface CheckedParams {
  readonly params: Readonly<Record<string, unknown>>;
  /** Whether a parameter was sent at all, or has a default. */
  has(name: string): boolean;
  /** The same object for every request handed these kept parameters (see `RequestContext.paramsKey`). */
  readonly key?: object;
}

/** The parameters of a request not kept. */
export function paramsOf(groups: ParamGroups): CheckedParams {
  return { params: groups.merged(), has: (name) => groups.has(name) };
}

interface CheckRun {
  readonly check: ArgCheck;
  readonly value: unknown;
  readonly name: string;
}

/** How a kept value is copied for a request: handed as it is (a scalar), sliced (a list of scalars), or copied. */
const enum Copy { None, Slice, Tree }

function copyOf(value: unknown): Copy {
  if (value === null || typeof value !== 'object') return Copy.None;
  if (!Array.isArray(value)) return Copy.Tree;
  for (const item of value) if (item !== null && typeof item === 'object') return Copy.Tree;
  return Copy.Slice;
}

/**
 * Parameters kept: their scalars in a template, and the lists and maps copied into each request's own.
 * A prototype-less object built key by key is in V8's dictionary mode, every key a hash insert; a copy of a template
 * in fast mode (as `JSON.parse` makes them), its prototype removed afterwards, costs a fraction of that.
 */
class KeptParams {
  #template: Record<string, unknown> | undefined;
  readonly #names: string[];
  readonly #values: unknown[] = [];
  readonly #copiedNames: string[] = [];
  readonly #copiedValues: unknown[] = [];
  readonly #copies: Copy[] = [];
  readonly #sent: Set<string>;
  readonly has = (name: string): boolean => this.#sent.has(name);
  readonly key: object = Object.freeze({});

  constructor(params: Readonly<Record<string, unknown>>, sent: Set<string>, readonly checks: readonly CheckRun[]) {
    this.#names = Object.keys(params);
    for (const name of this.#names) {
      const value = copyTree(params[name]);
      const copy = copyOf(value);
      this.#values.push(copy === Copy.None ? value : null);
      if (copy !== Copy.None) {
        this.#copiedNames.push(name);
        this.#copiedValues.push(value);
        this.#copies.push(copy);
      }
    }
    this.#sent = sent;
  }

  handOut(): CheckedParams {
    const params = { ...(this.#template ??= this.#templateOf()) };
    const names = this.#copiedNames;
    const values = this.#copiedValues;
    const copies = this.#copies;
    for (let index = 0; index < names.length; index++) {
      params[names[index]!] = copies[index] === Copy.Slice ? (values[index] as unknown[]).slice() : copyTree(values[index]);
    }
    return { params: Object.setPrototypeOf(params, null) as Record<string, unknown>, has: this.has, key: this.key };
  }

  /** Made when first handed out: most parameters never come again. */
  #templateOf(): Record<string, unknown> {
    const names = this.#names;
    const template = JSON.parse(JSON.stringify(Object.fromEntries(names.map((name) => [name, null])))) as Record<string, unknown>;
    for (let index = 0; index < names.length; index++) template[names[index]!] = this.#values[index];
    return template;
  }
}

/** An endpoint's kept parameters, by path parameters, then by query string. */
type KeptByPath = Map<string, Map<string, KeptParams>>;

const kept = new WeakMap<Endpoint, KeptByPath>();

/** Where each kept entry is, oldest first: the oldest goes once there are `MAX_KEPT_PARAMS`. */
const keptOrder = new Map<KeptParams, { readonly byPath: KeptByPath; readonly path: string; readonly query: string }>();

/** How many parameter sets are kept (over every endpoint). */
export function keptParamsCount(): number {
  return keptOrder.size;
}

function forget(entry: KeptParams): void {
  const place = keptOrder.get(entry);
  if (!place) return;
  keptOrder.delete(entry);
  const byQuery = place.byPath.get(place.path);
  if (byQuery?.get(place.query) !== entry) return;
  byQuery.delete(place.query);
  if (byQuery.size === 0) place.byPath.delete(place.path);
}

/** What a GET's parameters are kept under for its endpoint; null when nothing may be kept. */
export interface KeptKey {
  /** The path parameters, each prefixed with its length so that no two requests share one. */
  readonly path: string;
  readonly query: string;
}

/** `text`: the query string the request's query was parsed from (`parsedQuery`), when it sent one. */
export function keptParamsKey(text: string | undefined, urlParams: Readonly<Record<string, string>>): KeptKey | null {
  if (text === undefined || text.length > MAX_KEPT_TEXT_LENGTH) return null;
  let path = '';
  for (const name in urlParams) {
    const value = urlParams[name]!;
    if (value.length > MAX_KEPT_TEXT_LENGTH) return null;
    path += `${name.length}:${name}${value.length}:${value}`;
  }
  return { path, query: text };
}

/** The parameters kept under `key`, once every check they passed passes again for this caller and method. */
export function keptParams(endpoint: Endpoint, key: KeptKey, user: ArgCheckContext['user'], method: string): CheckedParams | undefined {
  const found = kept.get(endpoint)?.get(key.path)?.get(key.query);
  if (!found) return undefined;
  if (found.checks.length > 0 && !passesAgain(found.checks, new ReplayContext(user, method))) return undefined;
  return found.handOut();
}

function passesAgain(checks: readonly CheckRun[], context: ReplayContext): boolean {
  try {
    for (const run of checks) if (run.check(run.value, context, run.name) !== null || context.readParam) return false;
    return true;
  } catch {
    return false;
  }
}

/** Reads nothing: a check asking for another parameter is not run again from here. */
class ReplayContext implements ArgCheckContext {
  readParam = false;

  constructor(readonly user: ArgCheckContext['user'], readonly method: string) {}

  param(): unknown {
    this.readParam = true;
    return undefined;
  }
}

/** The check context of a request whose parameters may be kept: it records the checks run and whether one read a parameter. */
export class RecordingContext implements ArgCheckContext {
  readonly checks: CheckRun[] = [];
  readParam = false;

  constructor(readonly user: ArgCheckContext['user'], readonly method: string, readonly groups: ParamGroups) {}

  param(name: string): unknown {
    this.readParam = true;
    return this.groups.get(name);
  }

  checked(check: ArgCheck, value: unknown, name: string): void {
    this.checks.push({ check, value: deepFreeze(copyTree(value)), name });
  }
}

/** Keeps the parameters of a request that passed every check; the request is handed its own. */
export function keepParams(endpoint: Endpoint, key: KeptKey, groups: ParamGroups, recorded: RecordingContext): CheckedParams {
  const checked = paramsOf(groups);
  if (recorded.readParam || !isPlainTree(checked.params)) return checked;
  const sent = new Set<string>();
  for (const [, group] of groups.entries()) for (const name of group.keys()) sent.add(name);
  let byPath = kept.get(endpoint);
  if (!byPath) kept.set(endpoint, (byPath = new Map()));
  let byQuery = byPath.get(key.path);
  if (!byQuery) byPath.set(key.path, (byQuery = new Map()));
  const replaced = byQuery.get(key.query);
  if (replaced) forget(replaced);
  const entry = new KeptParams(checked.params, sent, recorded.checks);
  byQuery.set(key.query, entry);
  keptOrder.set(entry, { byPath, path: key.path, query: key.query });
  if (keptOrder.size > MAX_KEPT_PARAMS) forget(keptOrder.keys().next().value!);
  return checked;
}

/**
 * A copy of parameters: prototype-less maps stay so, lists of scalars are sliced. Not the storage layer's JSON
 * copies: their spread gives every map `Object.prototype`, which parameters from a client must never have.
 */
function copyTree(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    let scalars = true;
    for (const item of value) if (item !== null && typeof item === 'object') scalars = false;
    return scalars ? value.slice() : value.map(copyTree);
  }
  const copy = Object.create(Object.getPrototypeOf(value) === null ? null : Object.prototype) as Record<string, unknown>;
  for (const name of Object.keys(value)) {
    const item = copyTree((value as Record<string, unknown>)[name]);
    // An own `__proto__` stays a key: assigning it to a map with a prototype would replace the prototype.
    if (name === '__proto__') Object.defineProperty(copy, name, { value: item, enumerable: true, writable: true, configurable: true });
    else copy[name] = item;
  }
  return copy;
}

/** Whether a value is made of scalars, lists and plain maps only (what a copy reproduces). */
function isPlainTree(value: unknown): boolean {
  if (value === null || typeof value !== 'object') return typeof value !== 'function' && typeof value !== 'symbol';
  if (Array.isArray(value)) return value.every(isPlainTree);
  const prototype: unknown = Object.getPrototypeOf(value);
  if (prototype !== null && prototype !== Object.prototype) return false;
  for (const name of Object.keys(value)) if (!isPlainTree((value as Record<string, unknown>)[name])) return false;
  return true;
}

function deepFreeze<T>(value: T): T {
  if (value === null || typeof value !== 'object' || Object.isFrozen(value)) return value;
  Object.freeze(value);
  if (Array.isArray(value)) for (const item of value) deepFreeze(item);
  else for (const name in value) deepFreeze((value as Record<string, unknown>)[name]);
  return value;
}
