import type { ParsedBody } from './body.js';
import type { CmsError } from './errors.js';
import type { Site } from './site.js';
import type { JsonValue, ParamMap } from './types.js';

/**
 * The authenticated user as the core sees it. Resources and the auth module work with the same object; the core
 * itself only needs `id` (to choose 401 or 403).
 */
export interface Principal {
  readonly id: number;
  readonly login: string;
  readonly roles: readonly string[];
  readonly capabilities: ReadonlySet<string>;
}

/**
 * The dependency object `createCms` assembled (ports and shared services), passed through on each request. The
 * core never looks inside it and knows no resource type; resources get their own typed dependencies when they
 * register (`register(registry, deps)`) and close over them in their route tables.
 */
export type Services = unknown;

/** One link target, as the reference prints it: attributes first, `href` last. */
export interface LinkTarget {
  href: string;
  embeddable?: boolean;
  [attribute: string]: JsonValue | undefined;
}

/** Relation name (full URI or short name) → targets. */
export type Links = Record<string, LinkTarget[]>;

/** A record a handler prepared: its fields (all contexts) and its links. */
export interface Item {
  data: Record<string, unknown>;
  links?: Links;
}

/**
 * A record the core may keep shaped between requests (a view fragment, see core/cache/policy.ts): `prepare` runs
 * only when no fragment is kept for it. `identity` names everything the record's fields and links depend on
 * besides what the core follows (the store's state, the site settings, the API root, the GMT offset, the response
 * context, and the caller in the edit context): the record's type and id, and its status as read. Two records of
 * equal identity must be byte-identical when shown.
 */
export interface KeyedItem {
  readonly identity: readonly (string | number)[];
  prepare(): Promise<Item>;
  /**
   * The record's revision, when it can tell: a text that differs whenever anything its fields and links show
   * differs (the record itself and whatever of other records it draws on), besides what the core follows. With
   * one, its fragment outlives writes to other records; null or absent: it lives for one state of the store.
   */
  revision?(): Promise<string | null>;
  /**
   * `revision` told without waiting, from what is known of the store's state `token` (its change token);
   * undefined when only `revision` can tell.
   */
  revisionNow?(token: string): string | null | undefined;
}

export interface Paging {
  total: number;
  totalPages: number;
  page: number;
  /** `prev` names the page before the one asked for even past the end (the reference's search), not the last. */
  previousUnclamped?: boolean;
}

/** What a handler may return; plain values are sent as a 200 body. */
export interface HandlerResult {
  readonly kind: 'result';
  status: number;
  headers: Record<string, string | number>;
  /** A single record: context filtering, `_fields`, `_links` and `_embed` apply. */
  item?: Item;
  /** A collection of records, with paging headers when `paging` is set. */
  items?: Item[];
  /** A single record, or a collection, the core may answer from view fragments (instead of `item`, `items`). */
  keyedItem?: KeyedItem;
  keyedItems?: KeyedItem[];
  /**
   * The revision of `keyedItems` together, told without waiting from what is known of the store's state `token`:
   * a text that differs whenever the records, their order or any one's revision (`KeyedItem.revision`) differs.
   * Without `work`, only when kept from an earlier answer; with it, worked out from each record's when need be
   * (asked once every record's fragment was found by its revision). Null or undefined when it cannot be told now.
   */
  keyedItemsRevisionNow?: (token: string, work: boolean) => string | null | undefined;
  paging?: Paging;
  /** Any other body, sent as given. */
  body?: unknown;
  /** The context records are shown in, when it is not the request's own (creates and updates answer in `edit`). */
  context?: string;
  /**
   * Send the item's links even when `_fields` leaves `_links` out. Resources add links only when asked, as the
   * reference's controllers do; the index documents always carry theirs.
   */
  linksAlways?: boolean;
}

/** Where a request came from: the outer HTTP request, a batch item, or an `_embed` lookup. */
export type RequestOrigin = 'http' | 'batch' | 'embed';

/** The parameters of a route whose arguments are not known here: each may be anything. */
export type AnyParams = Readonly<Record<string, unknown>>;

/**
 * What permission checks and handlers receive. `P` types the parameters from the endpoint's declared arguments
 * (`RequestContext<Params<typeof listArgs>>`, see `Params`).
 */
export interface RequestContext<P extends AnyParams = AnyParams> {
  /** The effective method (after `_method` / `X-HTTP-Method-Override`). */
  readonly method: string;
  /** The matched route pattern, e.g. `/cms/v2/posts/(?P<id>[\d]+)`. */
  readonly route: string;
  /** The request path, relative to the API root. */
  readonly path: string;
  /** Validated, sanitised parameters merged with the reference's precedence; unknown parameters pass raw. */
  readonly params: P;
  /** Whether a parameter was sent at all (a JSON `null` counts as sent). */
  has(name: string): boolean;
  /**
   * The same object for every request of this endpoint whose parameters came out the same (a GET's, kept by its
   * query string); null otherwise. What follows from the parameters alone may be kept under it.
   */
  readonly paramsKey: object | null;
  /** The query string parameters as sent (used to carry them into pagination links). */
  readonly query: Readonly<ParamMap>;
  readonly body: ParsedBody;
  /** Request headers, names lower-cased, repeated values joined with `,`. */
  readonly headers: Readonly<Record<string, string>>;
  readonly user: Principal | null;
  /** The client's address as the adapter saw it, when it told. */
  readonly remoteAddress?: string;
  readonly site: Site;
  readonly services: Services;
  readonly origin: RequestOrigin;
  /** The response context (`view`, `embed`, `edit`, ...), from the `context` parameter. */
  readonly context: string;
  /** Whether a top-level response field was asked for by `_fields` (always true without `_fields`). */
  wantsField(field: string): boolean;
  /** Absolute URL of an API path (`/cms/v2/posts/4`), with an optional query. */
  url(path: string, query?: Record<string, unknown>): string;
  /** Caches a value for the rest of this request (records loaded by both permission check and handler). */
  memo<T>(key: string, compute: () => T): T;
  /**
   * True when nothing can have fallen due by the clock since the store last changed: the store is in the state
   * the caches follow (core/cache/generation.ts) and the clock is before the next scheduled post's date. False
   * when that cannot be told (a store without a change token).
   */
  nothingDue(): Promise<boolean>;
  /** `nothingDue` when it is known without waiting (most reads): true; false when only `nothingDue` can tell. */
  nothingDueNow(): boolean;
  /** Runs another request through the full pipeline as the same user (embeds and batches use this). */
  dispatch(request: InternalRequest): Promise<InternalResponse>;
  /** Matches and validates another request without running it (a batch validates every item first). */
  prepare(request: InternalRequest, origin?: RequestOrigin): PreparedRequest;
}

/** A matched and validated internal request, ready to run. */
export interface PreparedRequest {
  readonly matched: boolean;
  /** Whether the matched endpoint may run inside a batch. */
  readonly allowBatch: boolean;
  /** The first error found (no route, missing or invalid parameters), or null. */
  readonly error: CmsError | null;
  /** Checks permission and runs the handler; an `error` given here is answered instead, as the route's. */
  run(error?: CmsError | null): Promise<InternalResponse>;
}

/** The answer to an internal request: header values keep their types (`X-WP-Total` stays a number). */
export interface InternalResponse {
  status: number;
  headers: Record<string, string | number>;
  body: unknown;
}

/** A request made from inside the pipeline. */
export interface InternalRequest {
  method: string;
  path: string;
  query?: ParamMap;
  /** Body parameters (already decoded). */
  body?: Record<string, unknown>;
  headers?: Record<string, string | string[]>;
}

export type PermissionResult = boolean | CmsError;

export type PermissionCheck<P extends AnyParams = AnyParams> = (context: RequestContext<P>) => PermissionResult | Promise<PermissionResult>;

export type Handler<P extends AnyParams = AnyParams> = (context: RequestContext<P>) => unknown | Promise<unknown>;
