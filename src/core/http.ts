import { LRUCache } from 'lru-cache';
import { bodyTooLarge, parseBody, type ParsedBody } from './body.js';
import type { Principal, Services } from './context.js';
import { CmsError, internalError, isCmsError } from './errors.js';
import { deepFreeze } from './freeze.js';
import { describeRoute } from './index-document.js';
import { Pipeline, stringHeaders, type Outcome, type PipelineRequest } from './pipeline.js';
import { parseQueryString } from './query.js';
import { toSafeTree } from './safe-object.js';
import type { Registry } from './registry.js';
import { parseList } from './shape.js';
import { resolveSite, type Site, type SiteSettings } from './site.js';
import type { CmsRequest, CmsResponse, HeaderMap, ParamMap } from './types.js';

/** Resolves who is calling: a principal, null for anonymous, or a thrown `CmsError` for bad credentials. */
export type Authenticator = (request: { headers: Readonly<Record<string, string>>; user: CmsRequest['user']; remoteAddress?: string }) =>
  Promise<Principal | null> | Principal | null;

export interface CoreOptions {
  registry: Registry;
  services: Services;
  site: SiteSettings;
  /** The settings in effect for each request, when they can change while the site runs (stored settings). */
  currentSite?: () => Promise<SiteSettings>;
  authenticate?: Authenticator;
  /** Called with every unexpected error (the response is a bare 500 `internal_error`). */
  onError?: (error: unknown) => void;
  /** Largest accepted request body in bytes. */
  maxBodyBytes: number;
  /** Largest accepted body from a caller who is not logged in (checked before the body is parsed). */
  maxAnonymousBodyBytes?: number;
  /** Largest JSON or urlencoded body (or multipart text fields) parsed into parameters. */
  maxParsedBodyBytes?: number;
  /** Prefix of the paging headers; `X-WP` gives `X-WP-Total`. */
  headerPrefix: string;
  /** Whether `_jsonp` callbacks are served. */
  jsonp: boolean;
}

interface Answer {
  status: number;
  headers: Record<string, string | number>;
  body: unknown;
}

const CACHED_ANSWERS = 64;

const NO_CACHE = { Expires: 'Wed, 11 Jan 1984 05:00:00 GMT', 'Cache-Control': 'no-cache, must-revalidate, max-age=0' };

/** The HTTP-facing part of the core: one `CmsRequest` in, one `CmsResponse` out. */
export class HttpCore {
  readonly pipeline: Pipeline;
  readonly #answers = new LRUCache<string, Answer>({ max: CACHED_ANSWERS });
  #answersSettings: SiteSettings | null = null;

  constructor(readonly options: CoreOptions) {
    this.pipeline = new Pipeline({
      registry: options.registry,
      services: options.services,
      headerPrefix: options.headerPrefix,
      onError: (error) => this.#report(error),
    });
  }

  async handle(request: CmsRequest): Promise<CmsResponse> {
    try {
      return await this.#handle(request);
    } catch (error) {
      this.#report(error);
      const body = internalError().toBody();
      return { status: 500, headers: { 'Content-Type': 'application/json; charset=UTF-8' }, body };
    }
  }

  /** The settings for this request; kept answers are dropped when they change. */
  async #settings(): Promise<SiteSettings> {
    if (!this.options.currentSite) return this.options.site;
    const settings = await this.options.currentSite();
    if (settings !== this.#answersSettings) {
      this.#answers.clear();
      this.#answersSettings = settings;
    }
    return settings;
  }

  /** The site-root discovery header value: `<{api root}/>; rel="https://api.w.org/"`. */
  discoveryLink(requestApiUrl?: string): string {
    return `<${resolveSite(this.options.site, requestApiUrl).apiUrl}/>; rel="https://api.w.org/"`;
  }

  async #handle(request: CmsRequest): Promise<CmsResponse> {
    const headers = normalizeHeaders(request.headers);
    const query = typeof request.query === 'string' ? parseQueryString(request.query) : safeParams(request.query);
    const site = resolveSite(await this.#settings(), request.baseUrl);
    const realMethod = request.method.toUpperCase();
    const overrideHeader = headers['x-http-method-override'];
    const method = typeof query._method === 'string' && query._method !== ''
      ? query._method.toUpperCase()
      : overrideHeader ? overrideHeader.toUpperCase() : realMethod;
    const path = routePath(request.path, query);

    const responseHeaders: Record<string, string | number> = this.#fixedHeaders(site);
    const finish = (status: number, own: Record<string, string | number>, body: unknown, user: Principal | null): CmsResponse => {
      const merged: Record<string, string | number> = { ...responseHeaders, ...own };
      Object.assign(merged, corsHeaders(headers.origin, realMethod, user));
      if (user || (overrideHeader && status >= 400 && status < 500)) Object.assign(merged, NO_CACHE);
      return { status, headers: stringHeaders(merged), body: realMethod === 'HEAD' ? null : body };
    };

    if ('_jsonp' in query) {
      const callback = query._jsonp;
      responseHeaders['Content-Type'] = 'application/javascript; charset=UTF-8';
      if (!this.options.jsonp) {
        return finish(400, {}, { code: 'rest_callback_disabled', message: 'JSONP support is disabled on this site.' }, null);
      }
      if (typeof callback !== 'string' || !/^[\w.]+$/.test(callback)) {
        return finish(400, {}, { code: 'rest_callback_invalid', message: 'Invalid JSONP callback function.' }, null);
      }
    }

    let user: Principal | null = null;
    let body: ParsedBody;
    try {
      this.#checkBodySize(request, headers, this.options.maxBodyBytes);
      user = await this.#authenticate(request, headers);
      if (!user) this.#checkBodySize(request, headers, this.options.maxAnonymousBodyBytes ?? this.options.maxBodyBytes);
      body = await parseBody(request, headers['content-type'], this.options.maxParsedBodyBytes);
    } catch (thrown) {
      const error = this.#asError(thrown);
      return finish(error.status, {}, this.#output(error.toBody(), query), user);
    }

    const pipelineRequest: PipelineRequest = {
      method, path, query, body, post: body.form, headers, user, origin: 'http', site,
      ...(request.remoteAddress ? { remoteAddress: request.remoteAddress } : {}),
    };
    if (method === 'OPTIONS') {
      // The route description is an answer like any other: `_envelope` and `_jsonp` apply to it too.
      const outcome = await this.#options(pipelineRequest);
      if ('_envelope' in query) {
        const envelope = { body: outcome.body, status: outcome.status, headers: Object.keys(outcome.headers).length === 0 ? [] : outcome.headers };
        return finish(200, {}, this.#output(envelope, query), user);
      }
      return finish(outcome.status, outcome.headers, this.#output(outcome.body, query), user);
    }

    const cacheKey = this.#cacheKey(request, pipelineRequest, realMethod);
    const cached = cacheKey === null ? undefined : this.#answers.get(cacheKey);
    const answer = cached ?? await this.#answer(pipelineRequest, realMethod, query);
    if (cacheKey !== null && !cached && answer.status === 200) this.#answers.set(cacheKey, deepFreeze(answer));
    return finish(answer.status, answer.headers, answer.body, user);
  }

  async #answer(request: PipelineRequest, realMethod: string, query: ParamMap): Promise<Answer> {
    const outcome = await this.pipeline.run(request);
    const embed = realMethod === 'HEAD' || !('_embed' in query) ? null : embedParam(query._embed);
    const rendered = realMethod === 'HEAD' ? null : await this.pipeline.render(outcome, embed);
    const enveloped = '_envelope' in query;
    const answer: Answer = enveloped
      ? { status: 200, headers: {}, body: { body: rendered, status: outcome.status, headers: envelopeHeaders(outcome) } }
      : { status: outcome.status, headers: outcome.headers, body: rendered };
    // A route may write its answer in another format; it then replaces JSONP and pretty printing too.
    const own = outcome.route?.serialize?.(answer, { method: request.method, params: outcome.context?.params ?? {} });
    if (own) return { status: own.status ?? answer.status, headers: { ...answer.headers, 'Content-Type': own.contentType }, body: own.body };
    return { ...answer, body: this.#output(answer.body, query) };
  }

  /**
   * Answers of cacheable routes (the index documents) depend only on the site address, the method, the path and
   * the query string, so they are kept — bounded, since the site address may come from the request.
   */
  #cacheKey(request: CmsRequest, pipelineRequest: PipelineRequest, realMethod: string): string | null {
    if (pipelineRequest.method !== 'GET' && pipelineRequest.method !== 'HEAD') return null;
    if (typeof request.query !== 'string' && request.query !== undefined) return null;
    if (pipelineRequest.body.raw.length > 0 || request.parsedBody !== undefined) return null;
    if (!this.options.registry.match(pipelineRequest.method, pipelineRequest.path)?.route.cacheable) return null;
    return [pipelineRequest.site.apiUrl, realMethod, pipelineRequest.method, pipelineRequest.path, request.query ?? ''].join('\n');
  }

  async #options(request: PipelineRequest): Promise<{ status: number; headers: Record<string, string | number>; body: unknown }> {
    const found = this.options.registry.matchAnyMethod(request.path);
    if (!found) return { status: 200, headers: {}, body: [] };
    const endpoint = found.route.endpoints[found.route.endpoints.length - 1]!;
    const { context } = this.pipeline.prepare(request, { route: found.route, endpoint, urlParams: found.urlParams });
    const headers: Record<string, string | number> = {};
    const allow = context ? await this.pipeline.allowedMethods(found.route, context) : [];
    if (allow.length > 0) headers.Allow = allow.join(', ');
    return { status: 200, headers, body: describeRoute(found.route, 'help', request.site) ?? [] };
  }

  #fixedHeaders(site: Site): Record<string, string | number> {
    const prefix = this.options.headerPrefix;
    return {
      'Content-Type': 'application/json; charset=UTF-8',
      'X-Robots-Tag': 'noindex',
      Link: `<${site.apiUrl}/>; rel="https://api.w.org/"`,
      'X-Content-Type-Options': 'nosniff',
      'Access-Control-Expose-Headers': `${prefix}-Total, ${prefix}-TotalPages, Link`,
      'Access-Control-Allow-Headers': 'Authorization, X-WP-Nonce, Content-Disposition, Content-MD5, Content-Type',
    };
  }

  #checkBodySize(request: CmsRequest, headers: Record<string, string>, limit: number): void {
    const declared = Number(headers['content-length'] ?? 0);
    const actual = typeof request.body === 'string' ? Buffer.byteLength(request.body) : request.body?.length ?? 0;
    if (declared > limit || actual > limit) throw bodyTooLarge(limit);
  }

  async #authenticate(request: CmsRequest, headers: Record<string, string>): Promise<Principal | null> {
    if (!this.options.authenticate) return null;
    const input = { headers, user: request.user, ...(request.remoteAddress ? { remoteAddress: request.remoteAddress } : {}) };
    return (await this.options.authenticate(input)) ?? null;
  }

  /** Pretty printing and JSONP wrapping: the body becomes text. */
  #output(body: unknown, query: ParamMap): unknown {
    if (typeof query._jsonp === 'string') {
      return `/**/${query._jsonp}(${JSON.stringify(body ?? null)})`;
    }
    if ('_pretty' in query && body !== null && body !== undefined) {
      return new TextEncoder().encode(JSON.stringify(body, null, 4));
    }
    return body;
  }

  #asError(thrown: unknown): CmsError {
    if (isCmsError(thrown)) return thrown;
    this.#report(thrown);
    return internalError();
  }

  #report(error: unknown): void {
    try {
      this.options.onError?.(error);
    } catch {
      // A failing reporter must not turn into a second failure.
    }
  }
}

/** The route from the path, or from `?rest_route=` which overrides it; trailing slashes removed. */
function routePath(path: string, query: ParamMap): string {
  const fromQuery = typeof query.rest_route === 'string' && query.rest_route !== '' ? query.rest_route : null;
  const raw = fromQuery ?? path;
  const trimmed = raw.replace(/\/+$/, '');
  return trimmed === '' ? '/' : trimmed;
}

/** Parameters a host parsed itself, copied into prototype-less maps. */
function safeParams(query: ParamMap | undefined): ParamMap {
  const copy = toSafeTree(query ?? {});
  return copy !== null && typeof copy === 'object' && !Array.isArray(copy) ? copy as ParamMap : Object.create(null) as ParamMap;
}

function normalizeHeaders(headers: HeaderMap | undefined): Record<string, string> {
  const normalized: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    if (value === undefined) continue;
    normalized[name.toLowerCase()] = Array.isArray(value) ? value.join(',') : value;
  }
  return normalized;
}

function embedParam(value: unknown): true | string[] {
  if (value === undefined || value === '' || value === '0' || value === 'true' || value === '1') return true;
  const rels = parseList(value);
  return rels.length === 0 ? true : rels;
}

function envelopeHeaders(outcome: Outcome): Record<string, string | number> | [] {
  return Object.keys(outcome.headers).length === 0 ? [] : outcome.headers;
}

function corsHeaders(origin: string | undefined, realMethod: string, user: Principal | null): Record<string, string> {
  if (origin !== undefined) {
    return {
      'Access-Control-Allow-Origin': origin === 'null' ? 'null' : sanitizeOrigin(origin),
      'Access-Control-Allow-Methods': 'OPTIONS, GET, POST, PUT, PATCH, DELETE',
      'Access-Control-Allow-Credentials': 'true',
      Vary: 'Origin',
    };
  }
  return realMethod === 'GET' && !user ? { Vary: 'Origin' } : {};
}

function sanitizeOrigin(origin: string): string {
  return origin.replace(/[^\w\-~+/?%@.:;&=#[\]!$'()*,]/g, '');
}
