/**
 * The response cache's policy, whole: what may be kept, under which key, and until when.
 *
 * - What: the answer to a GET or HEAD without a body, of a route whose row declares `cache: { varies }`, when it is
 *   a 200, the route read no request header, and every embedded link led to a route declared `cache` as well.
 * - Under which key: the site address and GMT offset, the path and query string as sent, and the caller as far as
 *   the route declares its answer varies by it (`varies`). A record a handler hands over keyed (`KeyedItem`) is kept
 *   shaped under its identity (type, id, status as read), the schema and context it is shown in, and, in the edit
 *   context only, the caller (protected content and action links follow the caller there). Resources name their
 *   records; they never build a key.
 * - Until when: the generation (generation.ts), one state of the store (its change token), the settings, the
 *   routes and the clock up to the next scheduled post's date. Nothing else decides when to forget, except that a
 *   keyed record naming its revision (`KeyedItem.revision`) outside the edit context is also kept under it, with
 *   the settings and routes, across generations (`lastingFragmentKey`): its key changes with what it shows.
 */
import type { ParsedBody } from '../body.js';
import type { JsonSchema } from '../args/schema.js';
import type { KeyedItem, Principal } from '../context.js';
import type { Registry, Route, Varies } from '../registry.js';
import { isSealedSet } from '../sealed-set.js';
import type { Site } from '../site.js';
import type { Incoming } from '../transport.js';
import type { CmsRequest, ParamMap } from '../types.js';
import { FragmentCache } from './fragments.js';
import { InternedKeys, isInternable, type KeyNode } from './interned-keys.js';
import type { Generation } from './generation.js';

/** The route a GET or HEAD without a body goes to, when its row declares `cache`; null otherwise. */
export function keptRoute(registry: Registry, request: CmsRequest, incoming: Incoming, body: ParsedBody): Route | null {
  const safe = (method: string) => method === 'GET' || method === 'HEAD';
  if (!safe(incoming.method) || !safe(incoming.realMethod)) return null;
  if (body.raw.length > 0 || request.parsedBody !== undefined) return null;
  return cachedRouteOf(registry, incoming.path);
}

/**
 * The GET route of each path asked for lately, when it is declared `cache` (null otherwise): a path is matched
 * against the routes once, not on every request. Forgotten whenever the number of routes changes; bounded in
 * entries and in the length of the paths kept.
 */
const cachedRoutes = new WeakMap<Registry, { routes: number; byPath: Map<string, Route | null> }>();
const MAX_REMEMBERED_PATHS = 500;
const MAX_REMEMBERED_PATH_LENGTH = 1000;

function cachedRouteOf(registry: Registry, path: string): Route | null {
  let memory = cachedRoutes.get(registry);
  if (memory === undefined || memory.routes !== registry.routes.length) {
    memory = { routes: registry.routes.length, byPath: new Map() };
    cachedRoutes.set(registry, memory);
  }
  const known = memory.byPath.get(path);
  if (known !== undefined) return known;
  const route = registry.match('GET', path)?.route;
  const found = route?.cache ? route : null;
  if (path.length <= MAX_REMEMBERED_PATH_LENGTH) {
    if (memory.byPath.size >= MAX_REMEMBERED_PATHS) memory.byPath.clear();
    memory.byPath.set(path, found);
  }
  return found;
}

/**
 * Whether what one answer computes may still be kept: it turns false at the first thing that rules it out. It is
 * also the handler of the watch on the request headers (any read of them rules keeping out), so a watch costs no
 * other object.
 */
export class KeepTracker implements ProxyHandler<Record<string, string>> {
  keep = true;

  constructor(readonly registry: Registry) {}

  /** The answer's status: only a 200 is kept. */
  answered(status: number): void {
    if (status !== 200) this.keep = false;
  }

  /** Request headers as a kept route sees them: no such route reads one, and one that did is not kept. */
  watch(headers: Record<string, string>): Record<string, string> {
    return new Proxy(headers, this);
  }

  /** Embeds of a kept answer: each must lead to a route declared `cache`, or the answer is not kept. */
  embeds<Request extends { method: string; path: string }, Parent, Response>(
    dispatch: (request: Request, parent: Parent) => Response, splitPath: (path: string) => [string, string],
  ): (request: Request, parent: Parent) => Response {
    return (request, parent) => {
      if (!this.registry.match(request.method, splitPath(request.path)[0])?.route.cache) this.keep = false;
      return dispatch(request, parent);
    };
  }

  get(target: Record<string, string>, name: string | symbol): unknown {
    this.keep = false;
    return Reflect.get(target, name);
  }

  has(target: Record<string, string>, name: string | symbol): boolean {
    this.keep = false;
    return Reflect.has(target, name);
  }

  ownKeys(target: Record<string, string>): (string | symbol)[] {
    this.keep = false;
    return Reflect.ownKeys(target);
  }

  getOwnPropertyDescriptor(target: Record<string, string>, name: string | symbol): PropertyDescriptor | undefined {
    this.keep = false;
    return Reflect.getOwnPropertyDescriptor(target, name);
  }
}


interface KeyParts {
  /** The API root the links are built from (the configured site address, or the request's). */
  apiUrl: string;
  /** The site's offset from GMT now (it follows daylight saving time under a named time zone). */
  gmtOffset: number;
  /** The resolved route path (`rest_route` applied, trailing slashes removed). */
  path: string;
  /** The query string exactly as sent (every output switch — `_fields`, `_embed`, `_envelope`, `_jsonp`… — is in it). */
  query: string | ParamMap | undefined;
  user: Principal | null;
}

/**
 * The key of a kept answer, or null when the caller cannot be told apart reliably (a principal that does not
 * serialise). Headers are not in it: the parts of an answer that follow request headers (CORS, `Vary`, no-cache)
 * are laid over every answer afresh, and no kept route reads a header.
 */
export function answerKey(varies: Varies, parts: KeyParts): string | null {
  const identity = callerIdentity(varies, parts.user);
  if (identity === null) return null;
  const query = typeof parts.query === 'object' ? `o${JSON.stringify(parts.query)}` : `s${parts.query ?? ''}`;
  // Each part prefixed with its length (and the kind of identity), so no crafted path or query can spell another
  // request's key.
  const offset = String(parts.gmtOffset);
  return `${varies}${identity.length}:${identity}${parts.apiUrl.length}:${parts.apiUrl}${offset.length}:${offset}${parts.path.length}:${parts.path}${query.length}:${query}`;
}

/** The caller's part of an answer's key, as the route's `varies` says; null when it cannot be told apart reliably. */
export function callerIdentity(varies: Varies, user: Principal | null): string | null {
  return varies === 'nothing' ? '' : varies === 'capabilities' ? capabilitiesOf(user) : identityOf(user);
}

/**
 * The caller as far as answers can tell: anonymous callers share one key space; a signed-in caller is every
 * field of the principal (id, login, roles, capabilities, the application password used…), so a role or
 * capability granted by the host's own login changes the key even when nothing in the store changed.
 */
export function identityOf(user: Principal | null): string | null {
  if (user === null) return '';
  const remembered = identities.get(user);
  if (remembered !== undefined) return remembered;
  let identity: string;
  try {
    identity = JSON.stringify(user, (_name, value: unknown) => (value instanceof Set ? setText(value) : value));
  } catch {
    return null;
  }
  if (isFixed(user)) identities.set(user, identity);
  return identity;
}

/** The identities of principals that cannot change (see `isFixed`), worked out once each. */
const identities = new WeakMap<Principal, string>();

/**
 * Whether a principal's identity can never change: a frozen plain object whose fields are data (no getters), each
 * a plain value, a frozen array of plain values or a sealed set, as `createPrincipal` makes them. Any other
 * principal is spelt out every time.
 */
function isFixed(user: Principal): boolean {
  const prototype: unknown = Object.getPrototypeOf(user);
  if (!Object.isFrozen(user) || (prototype !== Object.prototype && prototype !== null)) return false;
  for (const descriptor of Object.values(Object.getOwnPropertyDescriptors(user))) {
    if (!('value' in descriptor)) return false;
    const value: unknown = descriptor.value;
    if (isPlainValue(value) || isSealedSet(value)) continue;
    if (!Array.isArray(value) || Object.getPrototypeOf(value) !== Array.prototype || !Object.isFrozen(value) || !value.every(isPlainValue)) return false;
  }
  return true;
}

function isPlainValue(value: unknown): boolean {
  return value === null || (typeof value !== 'object' && typeof value !== 'function');
}

/** The caller's roles and capabilities; anonymous callers apart from every signed-in one. */
function capabilitiesOf(user: Principal | null): string | null {
  if (user === null) return '';
  try {
    return JSON.stringify([user.roles, setText(user.capabilities)]);
  } catch {
    return null;
  }
}

/**
 * Capability sets are shared between principals of the same roles (see `createPrincipal`) and sealed, so each
 * stands for itself by a number; any other set is spelt out every time, since it may have changed.
 */
const sealedSetNumbers = new WeakMap<ReadonlySet<unknown>, number>();
let lastSealedSetNumber = 0;

function setText(set: ReadonlySet<unknown>): string | unknown[] {
  if (!isSealedSet(set)) return [...set];
  let number = sealedSetNumbers.get(set);
  if (number === undefined) sealedSetNumbers.set(set, (number = ++lastSealedSetNumber));
  return `sealed set ${number}`;
}

/** One answer's use of the fragment cache: the generation it reads in and the core's part of every key. */
export interface FragmentScope {
  readonly cache: FragmentCache;
  readonly generation: Generation;
  /** API root and GMT offset, length-prefixed. */
  readonly prefix: string;
  /** The caller as keys of records shown in the edit context spell it, worked out once per answer. */
  caller(): string | null;
  /** Whether what this answer computes may be kept (false once the route read a request header, say). */
  keep(): boolean;
  /** Whether the store is still in the generation's state (no write landed while the answer was computed). */
  unchanged(): Promise<boolean>;
  /** Where the keys of this answer's records start (`fragmentKey`), for the schema and context last asked. */
  head?: { schema: JsonSchema | undefined; context: string; caller: string; node: KeyNode };
  /** Where this answer's lasting keys start (`lastingFragmentKey`): its generation's settings and routes. */
  lastingHead?: { settingsNumber: number; node: KeyNode };
}

/** The fragment scope of one answer: fragments serve the plain JSON answer only (no `_envelope`, `_jsonp`, `_pretty`). */
export function fragmentScope(
  cache: FragmentCache | undefined, generation: Generation | null, incoming: Incoming, site: Site, user: Principal | null, tracker: KeepTracker,
  changeToken?: () => Promise<string>,
): FragmentScope | null {
  if (!cache || !generation || incoming.envelope || incoming.jsonp || '_pretty' in incoming.query) return null;
  return new AnswerFragments(cache, generation, prefixOf(site), user, tracker, changeToken);
}

/** A class rather than a literal of closures: one object per answer. */
class AnswerFragments implements FragmentScope {
  head?: FragmentScope['head'];
  lastingHead?: FragmentScope['lastingHead'];
  #caller: string | null | undefined = undefined;

  constructor(
    readonly cache: FragmentCache, readonly generation: Generation, readonly prefix: string, readonly user: Principal | null,
    readonly tracker: KeepTracker, readonly changeToken: (() => Promise<string>) | undefined,
  ) {}

  caller(): string | null {
    return this.#caller === undefined ? (this.#caller = identityOf(this.user)) : this.#caller;
  }

  keep(): boolean {
    return this.tracker.keep;
  }

  async unchanged(): Promise<boolean> {
    return this.changeToken !== undefined && await this.changeToken() === this.generation.token;
  }
}

/** The prefix of each site's keys, spelt once per site (the same string each time, so its hash is known). */
const prefixes = new WeakMap<Site, { apiUrl: string; gmtOffset: number; prefix: string }>();

function prefixOf(site: Site): string {
  const known = prefixes.get(site);
  if (known !== undefined && known.apiUrl === site.apiUrl && known.gmtOffset === site.gmtOffset) return known.prefix;
  const offset = String(site.gmtOffset);
  const prefix = `${site.apiUrl.length}:${site.apiUrl}${offset.length}:${offset}`;
  prefixes.set(site, { apiUrl: site.apiUrl, gmtOffset: site.gmtOffset, prefix });
  return prefix;
}

const schemaNumbers = new WeakMap<object, number>();
let lastSchemaNumber = 0;
const fragmentKeys = new InternedKeys(30_000);

/**
 * The key of a record's fragment, shaped with `schema` for `context`; null when the caller it depends on cannot be
 * told apart. Two keyed records with equal keys are byte-identical when shown.
 */
export function fragmentKey(scope: FragmentScope, schema: JsonSchema | undefined, context: string, record: KeyedItem): string | null {
  const caller = context === 'edit' ? scope.caller() : '';
  if (caller === null) return null;
  let head = scope.head;
  if (head === undefined || head.schema !== schema || head.context !== context || head.caller !== caller) {
    const start = fragmentKeys.child(fragmentKeys.child(fragmentKeys.child(fragmentKeys.root, schemaNumberOf(schema)), context), scope.prefix);
    head = scope.head = { schema, context, caller, node: fragmentKeys.child(start, caller) };
  }
  let node = head.node;
  for (const part of record.identity) {
    if (!isInternable(part)) return spelledFragmentKey(scope.prefix, schema, context, caller, record);
    node = fragmentKeys.child(node, part);
  }
  return node.text ??= spelledFragmentKey(scope.prefix, schema, context, caller, record);
}

function spelledFragmentKey(prefix: string, schema: JsonSchema | undefined, context: string, caller: string, record: KeyedItem): string {
  let identity = '';
  for (const part of record.identity) {
    const text = String(part);
    identity += `${text.length}:${text}`;
  }
  return `${schemaNumberOf(schema)}:${context.length}:${context}${prefix}${identity}${caller}`;
}

function schemaNumberOf(schema: JsonSchema | undefined): number {
  if (!schema) return 0;
  let schemaNumber = schemaNumbers.get(schema) ?? 0;
  if (schemaNumber === 0) schemaNumbers.set(schema, (schemaNumber = ++lastSchemaNumber));
  return schemaNumber;
}

const settingsNumbers = new WeakMap<object, number>();
let lastSettingsNumber = 0;

/**
 * The key a record's fragment is kept under across generations (`fragmentKey` and `revision`, the record's own
 * revision, plus the settings and routes in effect); null in the edit context, whose records follow the caller
 * and the store beyond what a revision names.
 */
export function lastingFragmentKey(scope: FragmentScope, key: string, context: string, revision: string): string | null {
  if (context === 'edit') return null;
  const head = scope.lastingHead ??= lastingHeadOf(scope.generation);
  const node = lastingKeys.child(lastingKeys.child(head.node, key), revision);
  return node.text ??= `${head.settingsNumber}:${scope.generation.routes}:${revision.length}:${revision}${key}`;
}

/**
 * The key a list is kept under across generations, told by the revision of its records together, in order
 * (`HandlerResult.keyedItemsRevisionNow`), with the settings, routes, API root, GMT offset, schema and context
 * their fragments are shown with; null in the edit context, as `lastingFragmentKey`.
 */
export function lastingListKey(scope: FragmentScope, schema: JsonSchema | undefined, context: string, revision: string): string | null {
  if (context === 'edit') return null;
  const head = scope.lastingHead ??= lastingHeadOf(scope.generation);
  const schemaNumber = schemaNumberOf(schema);
  const start = lastingKeys.child(lastingKeys.child(lastingKeys.child(head.node, LIST_MARK), schemaNumber), context);
  const node = lastingKeys.child(lastingKeys.child(start, scope.prefix), revision);
  return node.text ??= `${LIST_MARK}${head.settingsNumber}:${scope.generation.routes}:${schemaNumber}:${context.length}:${context}${scope.prefix}${revision}`;
}

/** Starts the lasting keys of lists (a record's lasting key starts with a digit, a list joined by serials with `[`). */
const LIST_MARK = ']';

function lastingHeadOf({ settings, routes }: FragmentScope['generation']): NonNullable<FragmentScope['lastingHead']> {
  let settingsNumber = settingsNumbers.get(settings) ?? 0;
  if (settingsNumber === 0) settingsNumbers.set(settings, (settingsNumber = ++lastSettingsNumber));
  return { settingsNumber, node: lastingKeys.child(lastingKeys.child(lastingKeys.root, settingsNumber), routes) };
}

/** Lasting keys spelt once, as `fragmentKeys`: a record's revision, kept with it, is the same string each time. */
const lastingKeys = new InternedKeys(30_000);
