import { emptyBody, type ParsedBody } from './body.js';
import type {
  HandlerResult, InternalRequest, InternalResponse, Item, PreparedRequest, Principal, RequestContext, RequestOrigin, Services,
} from './context.js';
import { CmsError, forbidden, internalError, isCmsError, noRoute } from './errors.js';
import { ParamGroups, validateParams } from './params.js';
import type { Registry, Route, RouteMatch } from './registry.js';
import { parseQueryString } from './query.js';
import { isHandlerResult } from './response.js';
import { compactLinks, filterByContext, filterFields, isFieldIncluded, parseList } from './shape.js';
import type { Site } from './site.js';
import type { ParamMap } from './types.js';

/** A request inside the pipeline: the outer HTTP request, a batch item or an embed lookup. */
export interface PipelineRequest {
  method: string;
  path: string;
  query: ParamMap;
  body: ParsedBody;
  /** Body parameters for the POST group (form fields, or a batch item's body). */
  post: Record<string, unknown> | null;
  headers: Record<string, string>;
  user: Principal | null;
  origin: RequestOrigin;
  site: Site;
  /** The client's address, when the adapter passed one. */
  remoteAddress?: string;
}

/** The dispatch result before it is written out. */
export interface Outcome {
  status: number;
  headers: Record<string, string | number>;
  error: CmsError | null;
  result: HandlerResult | null;
  route: Route | null;
  context: RequestContext | null;
}

export interface PipelineOptions {
  registry: Registry;
  services: Services;
  headerPrefix: string;
  onError: (error: unknown) => void;
}

export interface InternalParent {
  user: Principal | null;
  site: Site;
  origin: RequestOrigin;
}

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export class Pipeline {
  constructor(readonly options: PipelineOptions) {}

  /** Match, validate and sanitise; permission and handler are not run. */
  prepare(request: PipelineRequest, found: RouteMatch | null = this.options.registry.match(request.method, request.path)):
    { match: RouteMatch; context: RequestContext; error: CmsError | null } | { match: null; context: null; error: CmsError } {
    if (!found) return { match: null, context: null, error: noRoute() };
    const groups = new ParamGroups({
      json: request.body.json,
      post: BODY_METHODS.has(request.method) ? request.post : null,
      query: request.query,
      url: found.urlParams,
      endpoint: found.endpoint,
    });
    let error: CmsError | null = request.body.jsonError;
    if (!error) {
      try {
        validateParams(groups, found.endpoint, {
          user: request.user,
          method: request.method,
          param: (name) => groups.get(name),
        });
      } catch (thrown) {
        error = this.#asError(thrown);
      }
    }
    return { match: found, context: this.#context(request, found.route, groups), error };
  }

  /** The full pipeline for one request, ending before output (no links, no embeds). */
  async run(request: PipelineRequest): Promise<Outcome> {
    const prepared = this.prepare(request);
    if (!prepared.match) return this.#errorOutcome(prepared.error, null, null);
    return this.execute(prepared.match, prepared.context, prepared.error);
  }

  /** Permission and handler for a prepared request, then the `Allow` header. */
  async execute(match: RouteMatch, context: RequestContext, validationError: CmsError | null): Promise<Outcome> {
    let outcome: Outcome;
    if (validationError) {
      outcome = this.#errorOutcome(validationError, match.route, context);
    } else {
      try {
        const permitted = await match.endpoint.permission(context);
        if (permitted !== true) throw isCmsError(permitted) ? permitted : forbidden(context.user);
        const result = normalizeResult(await match.endpoint.handler(context));
        const headers = { ...result.headers, ...(result.paging ? this.#pagingHeaders(result.paging, context) : {}) };
        outcome = { status: result.status, headers, error: null, result, route: match.route, context };
      } catch (thrown) {
        outcome = this.#errorOutcome(this.#asError(thrown), match.route, context);
      }
    }
    const allow = await this.allowedMethods(match.route, context);
    if (allow.length > 0) outcome.headers.Allow = allow.join(', ');
    return outcome;
  }

  /** Methods whose permission check answers exactly `true` for this request. */
  async allowedMethods(route: Route, context: RequestContext): Promise<string[]> {
    const allowed: string[] = [];
    for (const endpoint of route.endpoints) {
      let granted = false;
      try {
        granted = (await endpoint.permission(context)) === true;
      } catch {
        granted = false;
      }
      if (granted) allowed.push(...endpoint.methods);
    }
    return allowed;
  }

  /**
   * The body of an outcome: context filtering, `_fields`, compacted `_links`, and (for the outer request only)
   * `_embedded`.
   */
  async render(outcome: Outcome, embed: true | string[] | null): Promise<unknown> {
    if (outcome.error) return outcome.error.toBody();
    const result = outcome.result!;
    const context = outcome.context!;
    const schema = outcome.route?.schema?.();
    const fields = parseList(context.params._fields);
    const shownContext = result.context ?? context.context;
    const shapeData = (record: Item) => (schema ? filterByContext(record.data, schema, shownContext) : record.data) as Record<string, unknown>;

    if (result.items) {
      const items = result.items.map((record) => {
        const data = { ...shapeData(record) };
        const links = compactLinks(record.links);
        if (links) data._links = links;
        return data;
      });
      const filtered = filterFields(items, fields) as unknown[];
      if (!embed) return filtered;
      const cache = new Map<string, Promise<unknown>>();
      return Promise.all(filtered.map((data) => this.#embedLinks(data, embed, context, cache)));
    }
    if (result.item) {
      const data = filterFields(shapeData(result.item), fields);
      const wantsLinks = result.linksAlways || fields.length === 0 || isFieldIncluded('_links', fields) || isFieldIncluded('_embedded', fields);
      const links = wantsLinks ? compactLinks(result.item.links) : null;
      if (!links) return data;
      const withLinks = { ...(Array.isArray(data) ? {} : data as Record<string, unknown>), _links: links };
      return embed ? this.#embedLinks(withLinks, embed, context, new Map()) : withLinks;
    }
    // As the reference: `_fields` never filters an error answer, whoever wrote it.
    return outcome.status >= 400 ? result.body : filterFields(result.body, fields);
  }

  /** Runs a request from inside the pipeline and renders it without embeds (embeds use this). */
  async dispatchInternal(request: InternalRequest, parent: InternalParent): Promise<InternalResponse> {
    return this.prepareInternal(request, parent).run();
  }

  /**
   * Matches and validates a request from inside the pipeline without running it (batches validate every item
   * before running any). `run()` then checks permission, calls the handler and renders the answer; an
   * `error` given to it is reported instead, as a validation error of the matched route.
   */
  prepareInternal(request: InternalRequest, parent: InternalParent): PreparedRequest {
    const [path, search] = splitPath(request.path);
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(request.headers ?? {})) {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(',') : value;
    }
    const prepared = this.prepare({
      method: request.method.toUpperCase(),
      path,
      query: Object.assign(parseQueryString(search), request.query),
      body: emptyBody(),
      post: request.body ?? null,
      headers,
      user: parent.user,
      origin: parent.origin,
      site: parent.site,
    });
    const finish = async (outcome: Outcome): Promise<InternalResponse> =>
      ({ status: outcome.status, headers: outcome.headers, body: await this.render(outcome, null) });
    return {
      matched: prepared.match !== null,
      allowBatch: prepared.match?.endpoint.allowBatch ?? false,
      error: prepared.error,
      run: async (error = prepared.error) => finish(prepared.match
        ? await this.execute(prepared.match, prepared.context, error)
        : this.#errorOutcome(prepared.error, null, null)),
    };
  }

  async #embedLinks(data: unknown, embed: true | string[], context: RequestContext, cache: Map<string, Promise<unknown>>): Promise<unknown> {
    if (data === null || typeof data !== 'object' || Array.isArray(data)) return data;
    const record = data as Record<string, unknown>;
    const links = record._links as Record<string, { href: string; embeddable?: boolean }[]> | undefined;
    if (!links) return data;
    const embedded: Record<string, unknown[]> = {};
    for (const [rel, targets] of Object.entries(links)) {
      if (Array.isArray(embed) && !embed.includes(rel)) continue;
      const entries: unknown[] = [];
      for (const target of targets) {
        if (!target.embeddable) {
          entries.push([]);
          continue;
        }
        let pending = cache.get(target.href);
        if (!pending) {
          pending = this.#embedOne(target.href, context);
          cache.set(target.href, pending);
        }
        entries.push(await pending);
      }
      if (entries.some((entry) => !isEmpty(entry))) embedded[rel] = entries;
    }
    return Object.keys(embedded).length > 0 ? { ...record, _embedded: embedded } : data;
  }

  async #embedOne(href: string, context: RequestContext): Promise<unknown> {
    const apiUrl = context.site.apiUrl;
    if (!href.startsWith(apiUrl)) return [];
    const [path, search] = splitPath(href.slice(apiUrl.length));
    if (path === '') return [];
    const query = parseQueryString(search);
    if (!query.context) query.context = 'embed';
    const response = await this.dispatchInternal({ method: 'GET', path, query }, { user: context.user, site: context.site, origin: 'embed' });
    return response.body;
  }

  #pagingHeaders(paging: NonNullable<HandlerResult['paging']>, context: RequestContext): Record<string, string | number> {
    const prefix = this.options.headerPrefix;
    const headers: Record<string, string | number> = {
      [`${prefix}-Total`]: paging.total,
      [`${prefix}-TotalPages`]: paging.totalPages,
    };
    const { rest_route: _ignored, ...query } = context.query;
    const links: string[] = [];
    if (paging.page > 1) {
      const previous = Math.min(paging.page - 1, paging.totalPages);
      links.push(`<${context.url(context.path, { ...query, page: previous })}>; rel="prev"`);
    }
    if (paging.totalPages > paging.page) {
      links.push(`<${context.url(context.path, { ...query, page: paging.page + 1 })}>; rel="next"`);
    }
    if (links.length > 0) headers.Link = links.join(', ');
    return headers;
  }

  #context(request: PipelineRequest, route: Route, groups: ParamGroups): RequestContext {
    const params = groups.merged();
    const fields = parseList(params._fields);
    const memo = new Map<string, unknown>();
    const contextName = typeof params.context === 'string' && params.context !== '' ? params.context : 'view';
    return {
      method: request.method,
      route: route.pattern,
      path: request.path,
      params,
      has: (name) => groups.has(name),
      query: request.query,
      body: request.body,
      headers: request.headers,
      user: request.user,
      ...(request.remoteAddress ? { remoteAddress: request.remoteAddress } : {}),
      site: request.site,
      services: this.options.services,
      origin: request.origin,
      context: contextName,
      wantsField: (field) => isFieldIncluded(field, fields),
      url: (path, query) => request.site.apiLink(path, query),
      memo<T>(key: string, compute: () => T): T {
        if (!memo.has(key)) memo.set(key, compute());
        return memo.get(key) as T;
      },
      dispatch: (inner) => this.dispatchInternal(inner, { user: request.user, site: request.site, origin: request.origin }),
      prepare: (inner, origin = request.origin) => this.prepareInternal(inner, { user: request.user, site: request.site, origin }),
    };
  }

  #errorOutcome(error: CmsError, route: Route | null, context: RequestContext | null): Outcome {
    return { status: error.status, headers: { ...error.headers }, error, result: null, route, context };
  }

  #asError(thrown: unknown): CmsError {
    if (isCmsError(thrown)) return thrown;
    this.options.onError(thrown);
    return internalError();
  }
}

function normalizeResult(value: unknown): HandlerResult {
  if (isHandlerResult(value)) return value;
  return { kind: 'result', status: 200, headers: {}, body: value === undefined ? null : value };
}

function isEmpty(value: unknown): boolean {
  if (value === null || value === undefined || value === false || value === 0 || value === '') return true;
  if (Array.isArray(value)) return value.length === 0;
  if (typeof value === 'object') return Object.keys(value).length === 0;
  return false;
}

export function splitPath(pathWithQuery: string): [string, string] {
  const mark = pathWithQuery.indexOf('?');
  return mark === -1 ? [pathWithQuery, ''] : [pathWithQuery.slice(0, mark), pathWithQuery.slice(mark + 1)];
}

export function stringHeaders(headers: Record<string, string | number>): Record<string, string> {
  const output: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) output[name] = String(value);
  return output;
}
