/**
 * The objects every routed request is carried by (its call, its prepared form, the context handlers see), made by
 * `new` and not as object literals, on purpose.
 *
 * V8 may decide, from an object literal whose objects it found alive at young collections (as while a store is
 * filled and records are kept), to make every later object of that literal in the old generation ("pretenuring").
 * The decision lasts as long as most of the heap lives on, which in a server is for good. An old object that died
 * still counts as alive at every young collection until the next full one, and so does all it points to: a call or
 * context made old keeps its request's whole graph of young objects alive, to be copied and then promoted. Under
 * load the heap then grows by the requests' garbage, young collections take several times as long and full ones
 * come often: the p99 doubles. Objects made by `new` carry no allocation site and are never pretenured.
 */
import type { ParsedBody } from './body.js';
import type { InternalParent, Matched, RouteCall } from './outcome.js';
import type { CheckedParams } from './params-memo.js';
import type { InternalRequest, InternalResponse, PreparedRequest, Principal, RequestContext, RequestOrigin, Services } from './context.js';
import type { CmsError } from './errors.js';
import type { Route, RouteMatch } from './registry.js';
import { isFieldIncluded, parseList } from './shape.js';
import type { Site } from './site.js';
import type { Incoming } from './transport.js';
import type { CmsRequest, ParamMap } from './types.js';

/** The request as routes see it; made only when a route runs (a kept answer needs none of it). */
export class OuterCall implements RouteCall {
  declare method: string;
  declare readonly path: string;
  declare readonly query: ParamMap;
  declare readonly queryText?: string;
  declare readonly body: ParsedBody;
  declare readonly post: Record<string, unknown> | null;
  declare headers: Record<string, string>;
  declare readonly user: Principal | null;
  declare readonly origin: RequestOrigin;
  declare readonly site: Site;
  declare readonly remoteAddress?: string;
  declare readonly changeToken?: string;

  constructor(request: CmsRequest, incoming: Incoming, body: ParsedBody, user: Principal | null, site: Site, changeToken: string | undefined) {
    this.method = incoming.method;
    this.path = incoming.path;
    this.query = incoming.query;
    this.body = body;
    this.post = body.form;
    this.headers = incoming.headers;
    this.user = user;
    this.origin = 'http';
    this.site = site;
    // Set only when known: a call made inside (internal.ts) has none of them.
    if (incoming.queryText !== null) this.queryText = incoming.queryText;
    if (request.remoteAddress) this.remoteAddress = request.remoteAddress;
    if (changeToken !== undefined) this.changeToken = changeToken;
  }
}

/** What a request's context asks of the dispatcher that made it: one for each dispatcher. */
export interface ContextSources {
  readonly services: Services;
  nothingDue(changeToken: string | undefined): Promise<boolean>;
  nothingDueNow(changeToken: string | undefined): boolean;
  dispatch(request: InternalRequest, parent: InternalParent): Promise<InternalResponse>;
  prepare(request: InternalRequest, parent: InternalParent): PreparedRequest;
  /** The context functions last made (see `LastFunctions`). */
  readonly last: LastFunctions;
}

/** A matched call, validated: its context, the first validation error, and how to forget what it remembered. */
export class MatchedCall implements Matched {
  declare readonly match: RouteMatch;
  declare readonly context: RequestContext;
  declare readonly error: CmsError | null;
  /** Its own property, as every field: callers take it off the object. */
  declare readonly forget: () => void;

  constructor(match: RouteMatch, call: RouteCall, checked: CheckedParams, error: CmsError | null, sources: ContextSources) {
    const memo = new Map<string, unknown>();
    this.match = match;
    this.context = Object.freeze(new CallContext(call, match.route, checked, memo, sources));
    this.error = error;
    this.forget = () => memo.clear();
  }
}

/** Without `_fields`, every field is wanted. */
const wantsEveryField = (): boolean => true;

/**
 * The request context handed to permission checks and handlers; frozen by its maker, so the answer's context is
 * the result's. Its functions are its own properties (handlers may take them off it), as every other field.
 */
class CallContext implements RequestContext {
  declare readonly method: string;
  declare readonly route: string;
  declare readonly path: string;
  declare readonly params: RequestContext['params'];
  declare readonly has: RequestContext['has'];
  declare readonly paramsKey: object | null;
  declare readonly query: ParamMap;
  declare readonly body: ParsedBody;
  declare readonly headers: Record<string, string>;
  declare readonly user: Principal | null;
  declare readonly site: Site;
  declare readonly services: Services;
  declare readonly origin: RequestOrigin;
  declare readonly context: string;
  declare readonly wantsField: RequestContext['wantsField'];
  declare readonly url: RequestContext['url'];
  declare readonly memo: RequestContext['memo'];
  declare readonly nothingDue: RequestContext['nothingDue'];
  declare readonly nothingDueNow: RequestContext['nothingDueNow'];
  declare readonly dispatch: RequestContext['dispatch'];
  declare readonly prepare: RequestContext['prepare'];
  declare readonly remoteAddress?: string;

  constructor(call: RouteCall, route: Route, checked: CheckedParams, memo: Map<string, unknown>, sources: ContextSources) {
    const { params } = checked;
    const fields = params._fields === undefined ? null : parseList(params._fields);
    this.method = call.method;
    this.route = route.pattern;
    this.path = call.path;
    this.params = params;
    this.has = checked.has;
    this.paramsKey = checked.key ?? null;
    this.query = call.query;
    this.body = call.body;
    this.headers = call.headers;
    this.user = call.user;
    this.site = call.site;
    this.services = sources.services;
    this.origin = call.origin;
    this.context = typeof params.context === 'string' && params.context !== '' ? params.context : 'view';
    this.wantsField = fields === null || fields.length === 0 ? wantsEveryField : (field: string) => isFieldIncluded(field, fields);
    this.memo = <T>(key: string, compute: () => T): T => {
      const found = memo.get(key) as T | undefined;
      if (found !== undefined || memo.has(key)) return found as T;
      const computed = compute();
      memo.set(key, computed);
      return computed;
    };
    const due = dueFunctions(sources, call.changeToken);
    this.nothingDue = due.nothingDue;
    this.nothingDueNow = due.nothingDueNow;
    const caller = callerFunctions(sources, call);
    this.url = caller.url;
    this.dispatch = caller.dispatch;
    this.prepare = caller.prepare;
    if (call.remoteAddress) this.remoteAddress = call.remoteAddress;
  }
}

/**
 * The functions of a context that follow from the store's state alone, made once for the requests of one state
 * rather than for each (a context's functions are its own properties, and closures made for every request cost
 * their memory and a first call each).
 */
class DueFunctions {
  readonly nothingDue: RequestContext['nothingDue'];
  readonly nothingDueNow: RequestContext['nothingDueNow'];

  constructor(sources: ContextSources, readonly changeToken: string | undefined) {
    this.nothingDue = () => sources.nothingDue(changeToken);
    this.nothingDueNow = () => sources.nothingDueNow(changeToken);
  }
}

/** As `DueFunctions`, for the functions that follow from the caller, the site and the origin. */
class CallerFunctions {
  readonly url: RequestContext['url'];
  readonly dispatch: RequestContext['dispatch'];
  readonly prepare: RequestContext['prepare'];

  constructor(sources: ContextSources, readonly user: Principal | null, readonly site: Site, readonly origin: RequestOrigin) {
    const parent: InternalParent = Object.freeze({ user, site, origin });
    this.url = (path, query) => site.apiLink(path, query);
    this.dispatch = (inner) => sources.dispatch(inner, parent);
    this.prepare = (inner, innerOrigin = origin) => sources.prepare(inner, { user, site, origin: innerOrigin });
  }
}

/** The functions last made for a dispatcher's requests: most requests in a row share them. */
export class LastFunctions {
  due: DueFunctions | null = null;
  caller: CallerFunctions | null = null;
}

function dueFunctions(sources: ContextSources, changeToken: string | undefined): DueFunctions {
  const { last } = sources;
  if (last.due !== null && last.due.changeToken === changeToken) return last.due;
  return (last.due = new DueFunctions(sources, changeToken));
}

function callerFunctions(sources: ContextSources, call: RouteCall): CallerFunctions {
  const { last } = sources;
  const known = last.caller;
  if (known !== null && known.user === call.user && known.site === call.site && known.origin === call.origin) return known;
  return (last.caller = new CallerFunctions(sources, call.user, call.site, call.origin));
}
