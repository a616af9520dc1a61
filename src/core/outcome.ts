/** The shapes a request takes inside the dispatcher, shared by its parts (flow, rendering, internal requests). */
import type { ParsedBody } from './body.js';
import type { HandlerResult, Principal, RequestContext, RequestOrigin } from './context.js';
import type { CmsError } from './errors.js';
import type { Route, RouteMatch } from './registry.js';
import type { Site } from './site.js';
import type { ParamMap } from './types.js';

/** A request ready for routing: the outer HTTP request, a batch item or an embed lookup. */
export interface RouteCall {
  method: string;
  path: string;
  query: ParamMap;
  /** The query string `query` was parsed from, when the outer request sent one (its parameters may be kept by it). */
  queryText?: string;
  body: ParsedBody;
  /** Body parameters for the POST group (form fields, or a batch item's body). */
  post: Record<string, unknown> | null;
  headers: Record<string, string>;
  user: Principal | null;
  origin: RequestOrigin;
  site: Site;
  /** The client's address, when the adapter passed one. */
  remoteAddress?: string;
  /** The store's change token as the outer request read it (internal requests read it afresh: a batch writes). */
  changeToken?: string;
}

/** A matched, validated call; `error` is the first validation error, answered instead of running the handler. */
export interface Matched {
  match: RouteMatch;
  context: RequestContext;
  error: CmsError | null;
  /** Forgets what the request remembered (`context.memo`), once a write may have made it stale. */
  forget(): void;
}

export type Prepared = Matched | { match: null; context: null; error: CmsError };

/** What running a route produced, before rendering. */
export interface Outcome {
  status: number;
  headers: Record<string, string | number>;
  error: CmsError | null;
  result: HandlerResult | null;
  route: Route | null;
  context: RequestContext | null;
}

/** Who an internal request runs as: the user, site and origin of the request that makes it. */
export interface InternalParent {
  user: Principal | null;
  site: Site;
  origin: RequestOrigin;
}

/** The route steps internal requests reuse. */
export interface RouteSteps {
  prepare(call: RouteCall): Prepared;
  execute(prepared: Matched, validationError: CmsError | null): Promise<Outcome>;
  /** The body of an outcome, without embeds. */
  render(outcome: Outcome): Promise<unknown>;
}

export function errorOutcome(error: CmsError, route: Route | null = null, context: RequestContext | null = null): Outcome {
  return { status: error.status, headers: { ...error.headers }, error, result: null, route, context };
}
