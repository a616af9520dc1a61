import { compileArg, type Arg, type ArgMap, type Params } from './args/define.js';
import type { JsonSchema } from './args/schema.js';
import type { AnyParams, Handler, PermissionCheck } from './context.js';
import { NEUTRAL_NAMES, type Names } from './names.js';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** The reference's method groups. */
export const READABLE: readonly Method[] = ['GET'];
export const CREATABLE: readonly Method[] = ['POST'];
export const EDITABLE: readonly Method[] = ['POST', 'PUT', 'PATCH'];
export const DELETABLE: readonly Method[] = ['DELETE'];

/**
 * What a kept answer varies by besides the path, the query string, the stored records, the site settings and
 * (through scheduled posts) the clock:
 * - `caller`: every field of the caller (id, login, roles, capabilities, the application password used);
 * - `capabilities`: the caller's roles and capabilities only (answers that check primitive capabilities, never
 *   ownership, and show nothing of the caller);
 * - `nothing`: the same answer for everyone (the index documents).
 */
export type Varies = 'caller' | 'capabilities' | 'nothing';

/**
 * A route row's `cache`: its GET answers may be kept and carry an `ETag` (what is kept, under which key and until
 * when: core/cache/policy.ts). Declare it only where the answer depends on nothing but the path and query string,
 * the caller as `varies` says, the stored records, the site settings and — through scheduled posts — the clock:
 * no request headers, no other clock reading, no randomness or nonces, no outbound HTTP, no per-request side
 * effects (rate limits, mail), no state kept outside the store.
 */
export interface CacheDeclaration {
  readonly varies: Varies;
}

export interface EndpointDefinition {
  methods: readonly Method[];
  args?: ArgMap;
  /** Required: a public endpoint says so with `allowAnyone`. */
  permission: PermissionCheck;
  handler: Handler;
  allowBatch?: boolean;
  showInIndex?: boolean;
}

/** An endpoint whose permission check and handler receive the parameters its `args` declare, typed. */
export interface TypedEndpoint<A extends ArgMap> extends Omit<EndpointDefinition, 'args' | 'permission' | 'handler'> {
  args?: A;
  permission: PermissionCheck<Params<A>>;
  handler: Handler<Params<A>>;
}

/**
 * One row of a route table with its parameters typed from its arguments: `args` is declared once, and the
 * permission check and handler see each declared argument as the argument engine leaves it (coerced, defaulted).
 */
export function endpoint<A extends ArgMap = Record<never, never>>(definition: TypedEndpoint<A>): EndpointDefinition {
  // The engine checked every declared argument before either runs, so the parameters are what `Params<A>` says.
  return definition as unknown as EndpointDefinition;
}

export interface RouteOptions {
  /** The item schema: per-field contexts for response filtering, published in help context. */
  schema?: () => JsonSchema;
  allowBatch?: boolean;
  /** GET answers may be kept by the response cache and carry an `ETag`; see `CacheDeclaration`. */
  cache?: CacheDeclaration;
  /**
   * Writes the final answer in a format other than JSON when the request asks for one (the oEmbed XML), errors
   * included. Returning null keeps JSON.
   */
  serialize?: AnswerSerializer;
}

/** What a route's own serialiser sees: the answer as JSON data, and the request's method and parameters. */
export type AnswerSerializer = (
  answer: { status: number; body: unknown },
  request: { method: string; params: Readonly<Record<string, unknown>> },
) => { status?: number; contentType: string; body: string | Uint8Array } | null;

export interface Endpoint {
  readonly methods: readonly Method[];
  readonly args: ReadonlyMap<string, Arg>;
  readonly permission: PermissionCheck;
  readonly handler: Handler;
  readonly allowBatch: boolean;
  readonly showInIndex: boolean;
}

export interface Route {
  /** The full pattern, e.g. `/cms/v2/posts/(?P<id>[\d]+)`: the index key. */
  readonly pattern: string;
  readonly namespace: string;
  readonly endpoints: readonly Endpoint[];
  readonly schema: (() => JsonSchema) | undefined;
  readonly cache: CacheDeclaration | null;
  readonly serialize: AnswerSerializer | undefined;
  readonly regex: RegExp;
  /** The pattern with groups replaced by `{name}`, or null when something else is variable. */
  readonly template: string | null;
  /** Each named group's own pattern (`id` → `[\d]+`), which a value of that name from elsewhere must match too. */
  readonly pathParams: ReadonlyMap<string, PathParam>;
}

export interface PathParam {
  /** The group's pattern as written in the route. */
  readonly source: string;
  readonly regex: RegExp;
  /** Whether the group holds digits only, so a value of another kind is not an integer. */
  readonly integer: boolean;
}

/**
 * One row of a resource's route table: the path below the namespace in the reference's PCRE form
 * (`'/contact-forms/(?P<id>\\d+)'`), its endpoints and its options. A resource's `routes.ts` lists its rows
 * literally, so `grep "'/contact-forms'"` finds the route whole.
 */
export interface RouteSpec extends RouteOptions {
  path: string;
  endpoints: EndpointDefinition[];
}

export type RouteTable = readonly RouteSpec[];

export interface RouteMatch {
  route: Route;
  endpoint: Endpoint;
  urlParams: Record<string, string>;
}

/** Permission for endpoints anyone may call. */
export const allowAnyone: PermissionCheck<AnyParams> = () => true;

/** Turns the reference's PCRE route fragment into an anchored, case-insensitive JS regex. */
export function compilePattern(pattern: string): RegExp {
  return new RegExp(`^${pattern.replace(/\(\?P<(\w+)>/g, '(?<$1>')}$`, 'i');
}

/** The named groups of a route pattern with the pattern of each, found by balancing parentheses. */
export function pathParamsOf(pattern: string): ReadonlyMap<string, PathParam> {
  const params = new Map<string, PathParam>();
  const opening = /\(\?P<(\w+)>/g;
  for (let found = opening.exec(pattern); found; found = opening.exec(pattern)) {
    const start = found.index + found[0].length;
    let depth = 1;
    let index = start;
    let inClass = false;
    for (; index < pattern.length && depth > 0; index++) {
      const char = pattern[index];
      if (char === '\\') index++;
      else if (inClass) inClass = char !== ']';
      else if (char === '[') inClass = true;
      else if (char === '(') depth++;
      else if (char === ')') depth--;
    }
    if (depth !== 0) continue;
    const source = pattern.slice(start, index - 1);
    params.set(found[1]!, {
      source,
      regex: compilePattern(`(?:${source})`),
      integer: /^(?:\[\\d\]|\\d|\[0-9\])[+*]$/.test(source),
    });
  }
  return params;
}

function templateOf(pattern: string): string | null {
  const template = pattern.replace(/\(\?P<(\w+)>(?:[^()]|\((?:[^()])*\))*\)/g, '{$1}');
  return /[()[\]\\?*+|]/.test(template) ? null : template;
}

/** The routes of every namespace, in registration order, compiled once. */
export class Registry {
  /** `names` renames namespaces as they are registered: resources declare neutral names, clients see these. */
  constructor(readonly names: Names = NEUTRAL_NAMES) {}

  readonly #routes: Route[] = [];
  readonly #byNamespace = new Map<string, Route[]>();
  readonly #namespaces: string[] = [];
  /** Matches of GET paths asked for lately (frozen: shared by the requests); forgotten when a route is added. */
  #gets = new Map<string, RouteMatch | null>();

  /** Namespaces in registration order. */
  get namespaces(): readonly string[] {
    return this.#namespaces;
  }

  get routes(): readonly Route[] {
    return this.#routes;
  }

  /**
   * Declares a namespace. Its index route (`GET /namespace`) is added by the core's index module through
   * `onNamespace`, so that it sits before the namespace's first route.
   */
  namespace(declared: string, rootRoute: (namespace: string) => [EndpointDefinition[], RouteOptions?]): void {
    const name = this.names.namespace(declared);
    if (this.#byNamespace.has(name)) return;
    this.#namespaces.push(name);
    this.#byNamespace.set(name, []);
    const [endpoints, options] = rootRoute(name);
    this.#add(name, `/${name}`, endpoints, options ?? {});
  }

  /** Registers a route: `add('cms/v2', '/posts/(?P<id>[\\d]+)', [...])`. The namespace must be declared. */
  add(declared: string, path: string, endpoints: EndpointDefinition[], options: RouteOptions = {}): Route {
    const namespace = this.names.namespace(declared);
    if (namespace !== '' && !this.#byNamespace.has(namespace)) {
      throw new Error(`Namespace ${namespace} is not declared.`);
    }
    const trimmed = path.replace(/^\/+|\/+$/g, '');
    const pattern = namespace === '' ? `/${trimmed}` : `/${namespace}/${trimmed}`.replace(/\/$/, '');
    return this.#add(namespace, pattern, endpoints, options);
  }

  /** Registers every row of a route table, in order, under one namespace. */
  addRoutes(namespace: string, table: RouteTable): void {
    for (const { path, endpoints, ...options } of table) this.add(namespace, path, endpoints, options);
  }

  #add(namespace: string, pattern: string, definitions: EndpointDefinition[], options: RouteOptions): Route {
    if (this.#routes.some((route) => route.pattern === pattern)) {
      throw new Error(`Route ${pattern} is registered twice.`);
    }
    const endpoints = definitions.map((definition): Endpoint => ({
      // A copy, frozen: what a route allows (and the `Allow` text spelt from it) never changes once registered.
      methods: Object.freeze([...definition.methods]),
      args: new Map(Object.entries(definition.args ?? {}).map(([name, spec]) => [name, compileArg(name, spec)])),
      permission: definition.permission,
      handler: definition.handler,
      allowBatch: definition.allowBatch ?? options.allowBatch ?? false,
      showInIndex: definition.showInIndex ?? true,
    }));
    const route: Route = {
      pattern,
      namespace,
      endpoints,
      schema: options.schema,
      cache: options.cache ?? null,
      serialize: options.serialize,
      regex: compilePattern(pattern),
      template: templateOf(pattern),
      pathParams: pathParamsOf(pattern),
    };
    this.#routes.push(route);
    this.#gets = new Map();
    if (namespace !== '') this.#byNamespace.get(namespace)!.push(route);
    return route;
  }

  /** Routes to try for a path: those of namespaces the path starts with, or all when none does. */
  #candidates(path: string): readonly Route[] {
    const probe = path.startsWith('/') ? path : `/${path}`;
    // Most paths are in one namespace: its own list is used as it is, not copied.
    let only: Route[] | null = null;
    let matching: Route[] | null = null;
    for (const name of this.#namespaces) {
      // `/{name}` followed by `/` or nothing.
      if (probe.startsWith(name, 1) && (probe.length === name.length + 1 || probe.charCodeAt(name.length + 1) === 0x2f)) {
        const routes = this.#byNamespace.get(name)!;
        if (only === null && matching === null) only = routes;
        else {
          matching ??= [...only!];
          matching.push(...routes);
          only = null;
        }
      }
    }
    const found = matching ?? only;
    return found !== null && found.length > 0 ? found : this.#routes;
  }

  /** The first route whose pattern matches and that has an endpoint for the method (HEAD falls back to GET). */
  match(method: string, path: string): RouteMatch | null {
    if (method !== 'GET' || path.length > MAX_REMEMBERED_PATH_LENGTH) return this.#matchNow(method, path);
    let found = this.#gets.get(path);
    if (found === undefined) {
      found = this.#matchNow(method, path);
      if (found) Object.freeze(found.urlParams);
      if (this.#gets.size >= MAX_REMEMBERED_PATHS) this.#gets.clear();
      this.#gets.set(path, found && Object.freeze(found));
    }
    return found;
  }

  #matchNow(method: string, path: string): RouteMatch | null {
    for (const route of this.#candidates(path)) {
      const found = route.regex.exec(path);
      if (!found) continue;
      const endpoint = findEndpoint(route, method);
      if (endpoint) return { route, endpoint, urlParams: urlParamsOf(found) };
    }
    return null;
  }

  /** The first route whose pattern matches, whatever its methods (OPTIONS). */
  matchAnyMethod(path: string): { route: Route; urlParams: Record<string, string> } | null {
    for (const route of this.#routes) {
      const found = route.regex.exec(path);
      if (found) return { route, urlParams: urlParamsOf(found) };
    }
    return null;
  }

  /** The routes of a namespace, by the name clients see. */
  routesOf(namespace: string): readonly Route[] | undefined {
    return this.#byNamespace.get(namespace);
  }
}

/** Bounds of the GET matches remembered: entries, and the length of the paths kept. */
const MAX_REMEMBERED_PATHS = 500;
const MAX_REMEMBERED_PATH_LENGTH = 1000;

function findEndpoint(route: Route, method: string): Endpoint | undefined {
  const wanted = method === 'HEAD' ? 'GET' : method;
  return route.endpoints.find((endpoint) => (endpoint.methods as readonly string[]).includes(wanted));
}

function urlParamsOf(found: RegExpExecArray): Record<string, string> {
  const params: Record<string, string> = {};
  const groups = found.groups;
  if (!groups) return params;
  for (const name of Object.keys(groups)) {
    const value = groups[name];
    if (value !== undefined) params[name] = value;
  }
  return params;
}
