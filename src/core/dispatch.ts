/**
 * The dispatcher: one `CmsRequest` in, one `CmsResponse` out, in one readable flow.
 *
 *   read the request once (method override, `rest_route`, query, output switches)   transport.ts
 *   → JSONP refusal → body limits → authentication → `maxAnonymousBodyBytes` → body parsing
 *   → the answer:
 *       OPTIONS: the route's description and `Allow`
 *       else: match → validation → permission → handler → paging headers → `Allow` → rendering   render.ts
 *       then `_envelope`, the route's own format (`serialize`), JSONP or `_pretty`
 *   → transport headers (fixed headers, CORS, no-cache) laid over it.
 *
 * GET and HEAD of routes declared `cache` take a side road: the answer is looked up in the response cache, else
 * computed as for GET and kept; either way it is sent encoded, with an `ETag`, or as a 304. Records their
 * handlers hand over keyed are rendered from view fragments. What is kept, under which key and until when is
 * decided in cache/policy.ts.
 *
 * Batches and embeds run requests inside it through `prepareInternal` (internal.ts). Every error, whatever
 * throws it, goes through `toCmsError()`.
 */
import { isThenable, RequestChangeToken, type Authenticator } from './caller.js';
import { bodyTooLarge, emptyBodyOf, parseBody, type ParsedBody } from './body.js';
import type { FragmentCache } from './cache/fragments.js';
import type { Generation, Generations } from './cache/generation.js';
import { answerKey, fragmentScope, KeepTracker, keptRoute, type FragmentScope } from './cache/policy.js';
import { keptAnswer, keptReply, replyFresh, replyRequest, replyWith } from './cache/reply.js';
import type { ResponseCache } from './cache/response-cache.js';
import type { Principal, Services } from './context.js';
import { EncodedJson, responseWithBody, WRITTEN_OUT, type WrittenOutRequest } from './encode.js';
import { noRoute, toCmsError, type CmsError } from './errors.js';
import { describeRoute } from './index-document.js';
import { executeRoute } from './execute.js';
import { prepareInternal } from './internal.js';
import { formattedLargeBody } from './large-format.js';
import { encodedIfLarge } from './large-json.js';
import { errorOutcome, type Matched, type Outcome, type Prepared, type RouteCall, type RouteSteps } from './outcome.js';
import { allowHeader } from './allow.js';
import { hasListsInTurns, validateParamsInTurns } from './params-in-turns.js';
import { paramsOf, type CheckedParams } from './params-memo.js';
import { checkContextOf, checkRouteParams, groupsOf } from './route-params.js';
import type { Registry, Route, RouteMatch } from './registry.js';
import { render, renderedAtOnce, renderedInTurns, splitPath, type InternalDispatch } from './render.js';
import { LastFunctions, MatchedCall, OuterCall, type ContextSources } from './request-objects.js';
import type { TreeLimits } from './safe-object.js';
import { resolveSite, SiteResolver, type Site, type SiteSettings } from './site.js';
import {
  answerHeaders, discoveryLink, envelope, formatBody, jsonpRefusal, readIncoming, transportHeaders,
  type Answer, type Incoming,
} from './transport.js';
import type { CmsRequest, CmsResponse } from './types.js';

export type { Authenticator } from './caller.js';

export interface DispatcherOptions {
  registry: Registry;
  /** Handed to every request context as it is; the core never looks inside. */
  services: Services;
  site: SiteSettings;
  /**
   * The settings in effect for each request, when they can change while the site runs (stored settings); given
   * the store's change token when the dispatcher has read it for this request.
   */
  currentSite?: (changeToken?: string) => Promise<SiteSettings>;
  /** The settings `currentSite` would answer for this change token, when known without waiting. */
  knownSite?: (changeToken: string) => SiteSettings | undefined;
  authenticate?: Authenticator;
  /** Called with every unexpected error (the response is a bare 500 `internal_error`). */
  onError?: (error: unknown) => void;
  /** Largest accepted request body in bytes. */
  maxBodyBytes: number;
  /** Largest accepted body from a caller who is not logged in (checked once the caller is known, before parsing). */
  maxAnonymousBodyBytes?: number;
  /** Largest JSON or urlencoded body (or multipart text fields) parsed into parameters. */
  maxParsedBodyBytes?: number;
  /** Most values, and most members of one array or object, of a JSON body (or one the host's framework parsed). */
  jsonLimits?: TreeLimits;
  /** Prefix of the paging headers; `X-WP` gives `X-WP-Total`. */
  headerPrefix: string;
  /** Whether `_jsonp` callbacks are served. */
  jsonp: boolean;
  /** The states of the store, settings and clock the caches below keep things for; without it nothing is kept. */
  generations?: Generations;
  /** Keeps answers of routes declared `cache`; without it they are computed every time (still tagged). */
  responseCache?: ResponseCache;
  /** Keeps the shaped records (`KeyedItem`) of routes declared `cache`, so lists are joined from them. */
  fragments?: FragmentCache;
}

export class Dispatcher implements RouteSteps {
  readonly #internal: InternalDispatch = (request, parent) => prepareInternal(this, request, parent).run();
  /** What every request context asks of this dispatcher. */
  readonly #contextSources: ContextSources;

  constructor(readonly options: DispatcherOptions) {
    this.#contextSources = {
      services: options.services,
      nothingDue: (changeToken) => options.generations?.nothingDue(changeToken) ?? Promise.resolve(false),
      nothingDueNow: (changeToken) => options.generations?.nothingDueNow(changeToken) ?? false,
      dispatch: this.#internal,
      prepare: (request, parent) => prepareInternal(this, request, parent),
      last: new LastFunctions(),
    };
  }

  /** Answers one request; never throws. `seen` learns the caller's user id once known (for the request log). */
  handle(request: CmsRequest, seen?: { userId: number | null }): Promise<CmsResponse> {
    return this.#handle(request, seen);
  }

  /** The site-root discovery header value: `<{api root}/>; rel="https://api.w.org/"`. */
  discoveryLink(requestApiUrl?: string): string {
    return discoveryLink(resolveSite(this.options.site, requestApiUrl, this.options.registry.names));
  }

  async #handle(request: CmsRequest, seen: { userId: number | null } | undefined): Promise<CmsResponse> {
    // Whatever throws is answered here, in this one async function: a derived promise to catch it costs a turn.
    try {
      const incoming = readIncoming(request);
      const refused = incoming.jsonp ? jsonpRefusal(incoming.query, this.options.jsonp) : null;
      if (refused) return this.#respond(refused, incoming, (await this.#siteFor(request)).site, null);

      let user: Principal | null = null;
      let body: ParsedBody;
      const changeToken = this.options.generations?.sources.changeToken;
      const requestToken = changeToken && incoming.headers.authorization !== undefined ? new RequestChangeToken(changeToken) : undefined;
      try {
        this.#checkBodySize(request, incoming, this.options.maxBodyBytes);
        const found = this.#authenticate(request, incoming, requestToken);
        user = isThenable(found) ? await found : found;
        if (seen && user) seen.userId = user.id;
        if (!user) this.#checkBodySize(request, incoming, this.options.maxAnonymousBodyBytes ?? this.options.maxBodyBytes);
        // Without a body there is nothing to parse, and no promise turn to wait for.
        body = request.parsedBody === undefined && !request.body?.length
          ? emptyBodyOf(incoming.headers['content-type'])
          : await parseBody(request, incoming.headers['content-type'], this.options.maxParsedBodyBytes, this.options.jsonLimits);
      } catch (thrown) {
        const error = toCmsError(thrown, this.options.onError);
        const { site } = await this.#siteFor(request);
        return this.#respond({ status: error.status, headers: { ...error.headers }, body: formatBody(error.toBody(), incoming.query) }, incoming, site, user);
      }

      // The store's change token is read once, after authentication (which may write; it may have read the token
      // already, and then said whether it wrote since): the settings and the caches then follow the same state.
      const token = requestToken ? await requestToken.read() : changeToken ? await changeToken() : undefined;
      const known = token === undefined ? undefined : this.options.knownSite?.(token);
      const settings = known ?? await this.#settingsFor(token);
      const routed = this.#routed(request, incoming, body, user, settings, token);
      // Awaited, to be caught here (and an async function answering with a promise waits two turns more).
      return isThenable(routed) ? await routed : routed;
    } catch (thrown) {
      const error = toCmsError(thrown, this.options.onError);
      return { status: error.status, headers: { 'Content-Type': 'application/json; charset=UTF-8', ...error.headers }, body: error.toBody() };
    }
  }

  /** An answer with the fixed and transport headers laid over it. */
  #respond(answer: Answer, incoming: Incoming, site: Site, user: Principal | null): CmsResponse {
    // Headers are merged with `Object.assign`: an object spread followed by more is slow on the hot path.
    const headers = Object.assign(answerHeaders(site, this.options.headerPrefix, incoming.jsonp, answer.headers), transportHeaders(incoming, answer.status, user));
    return responseWithBody(answer.status, headers, incoming.realMethod === 'HEAD' ? null : answer.body);
  }

  /** The answer once the settings are known: kept, computed through the response cache, or computed. */
  #routed(
    request: CmsRequest, incoming: Incoming, body: ParsedBody, user: Principal | null, settings: SiteSettings, token: string | undefined,
  ): CmsResponse | Promise<CmsResponse> {
    const site = this.#sites.resolve(settings, request.baseUrl, this.options.registry.names);
    const kept = keptRoute(this.options.registry, request, incoming, body);
    const { responseCache, fragments, generations, registry } = this.options;
    if (!kept) return this.#answer(new OuterCall(request, incoming, body, user, site, token), incoming, undefined, null, (answer) => this.#respond(answer, incoming, site, user));
    const known = generations?.known(settings, registry.routes.length, token);
    const hit = keptReply(responseCache, known, kept, request, incoming, user, site);
    if (hit) return hit;
    if (!generations || !(responseCache || fragments)) return this.#throughCache(kept, request, incoming, body, user, site, token, null);
    if (known !== undefined) return this.#throughCache(kept, request, incoming, body, user, site, token, known);
    return this.#throughCacheLater(kept, request, incoming, body, user, site, settings, token);
  }

  /** `#throughCache` once the state of the store and settings is known, when it is not without waiting. */
  async #throughCacheLater(
    route: Route, request: CmsRequest, incoming: Incoming, body: ParsedBody, user: Principal | null, site: Site, settings: SiteSettings,
    token: string | undefined,
  ): Promise<CmsResponse> {
    const generation = await this.options.generations!.current(settings, this.options.registry.routes.length, token);
    const answered = this.#throughCache(route, request, incoming, body, user, site, token, generation);
    return isThenable(answered) ? await answered : answered;
  }

  /**
   * GET or HEAD of a route declared `cache`: the kept answer while it is valid, else the GET answer computed,
   * tagged and kept. HEAD is answered as GET without the body, so both carry the same tag.
   */
  #throughCache(
    route: Route, request: CmsRequest, incoming: Incoming, body: ParsedBody, user: Principal | null, site: Site, token: string | undefined,
    generation: Generation | null,
  ): CmsResponse | Promise<CmsResponse> {
    const { responseCache: cache, fragments, generations, registry } = this.options;
    const key = cache && generation
      ? answerKey(route.cache!.varies, { apiUrl: site.apiUrl, gmtOffset: site.gmtOffset, path: incoming.path, query: request.query, user })
      : null;
    const kept = key === null ? undefined : cache!.get(key, generation!);
    if (kept) return replyWith(kept, replyRequest(incoming, user));
    const tracker = new KeepTracker(registry);
    const scope = fragmentScope(fragments, generation, incoming, site, user, tracker, generations?.sources.changeToken);
    const asGet = new OuterCall(request, incoming, body, user, site, token);
    asGet.method = 'GET';
    asGet.headers = tracker.watch(incoming.headers);
    return this.#answer(asGet, incoming, tracker, scope, (answer) => {
      if (!tracker.keep) return this.#respond(answer, incoming, site, user);
      const computed = keptAnswer(answer.status, answerHeaders(site, this.options.headerPrefix, incoming.jsonp, answer.headers), answer.body);
      if (key === null) return replyFresh(computed, incoming, user, answer.body, (request as WrittenOutRequest)[WRITTEN_OUT] === true);
      cache!.set(key, generation!, computed);
      return replyWith(computed, replyRequest(incoming, user), { body: answer.body });
    });
  }

  /**
   * The answer before transport headers: the route's (or OPTIONS') answer, enveloped, then in its output format,
   * handed to `then` in the turn it is made (a chained step would wait a turn more). With a `tracker` (routes
   * declared `cache`) the body is rendered for HEAD too, and the tracker learns whether the answer may be kept.
   */
  #answer<T>(
    call: RouteCall, incoming: Incoming, tracker: KeepTracker | undefined, fragments: FragmentScope | null, then: (answer: Answer) => T,
  ): Promise<T> {
    // Steps chained on the outcome rather than an async function's waits: a body at hand waits no further turn.
    if (call.method === 'OPTIONS') return this.#describe(call).then((answer) => thenOnce(inFormat(answer, null, call, incoming), then));
    return this.#run(call).then((outcome) => thenOnce(this.#rendered(outcome, call, incoming, tracker, fragments), then));
  }

  #rendered(outcome: Outcome, call: RouteCall, incoming: Incoming, tracker: KeepTracker | undefined, fragments: FragmentScope | null): Answer | Promise<Answer> {
    tracker?.answered(outcome.status);
    const { status, headers } = outcome;
    if (incoming.realMethod === 'HEAD' && !tracker) return inFormat({ status, headers, body: null }, outcome, call, incoming);
    const atOnce = renderedAtOnce(outcome, incoming.embed, fragments);
    if (atOnce !== undefined) return inFormat({ status, headers, body: atOnce }, outcome, call, incoming);
    // Embeds are the only requests rendering makes.
    const dispatch: InternalDispatch = tracker && incoming.embed ? tracker.embeds(this.#internal, splitPath) : this.#internal;
    return renderedInTurns(outcome, incoming.embed, dispatch, fragments).then((body) => inFormat({ status, headers, body }, outcome, call, incoming));
  }

  /** OPTIONS: the first route matching the path, described in help context, with the methods the caller may use. */
  async #describe(call: RouteCall): Promise<Answer> {
    const found = this.options.registry.matchAnyMethod(call.path);
    if (!found) return { status: 200, headers: {}, body: [] };
    const endpoint = found.route.endpoints[found.route.endpoints.length - 1]!;
    const { context } = this.prepare(call, { route: found.route, endpoint, urlParams: found.urlParams });
    const headers: Record<string, string | number> = {};
    const allow = context ? await allowHeader(found.route, context) : '';
    if (allow !== '') headers.Allow = allow;
    return { status: 200, headers, body: describeRoute(found.route, 'help', call.site) ?? [] };
  }

  /** The settings for this request (the same object until a value changes: kept answers follow it), and its site. */
  async #siteFor(request: CmsRequest, token?: string): Promise<{ settings: SiteSettings; site: Site }> {
    const settings = await this.#settingsFor(token);
    return { settings, site: this.#sites.resolve(settings, request.baseUrl, this.options.registry.names) };
  }

  #settingsFor(token: string | undefined): Promise<SiteSettings> | SiteSettings {
    return this.options.currentSite ? this.options.currentSite(token) : this.options.site;
  }

  readonly #sites = new SiteResolver();

  #checkBodySize(request: CmsRequest, incoming: Incoming, limit: number): void {
    const declared = Number(incoming.headers['content-length'] ?? 0);
    const actual = typeof request.body === 'string' ? Buffer.byteLength(request.body) : request.body?.length ?? 0;
    if (declared > limit || actual > limit) throw bodyTooLarge(limit);
  }

  /** The caller; waits only when the authenticator answers with a promise. */
  #authenticate(request: CmsRequest, incoming: Incoming, changeToken: RequestChangeToken | undefined): Promise<Principal | null> | Principal | null {
    if (!this.options.authenticate) return null;
    const input: Parameters<Authenticator>[0] = { headers: incoming.headers, user: request.user };
    if (request.remoteAddress) input.remoteAddress = request.remoteAddress;
    if (changeToken) input.changeToken = changeToken;
    const found = this.options.authenticate(input);
    return isThenable(found) ? Promise.resolve(found).then((principal) => principal ?? null) : found ?? null;
  }

  #run(call: RouteCall): Promise<Outcome> {
    const found = this.options.registry.match(call.method, call.path);
    // Long lists (a large batch) are checked in turns; every other request in one go, without waiting.
    if (found && hasListsInTurns(found.endpoint)) return this.#prepareInTurns(call, found).then((prepared) => this.#outcome(prepared));
    return this.#outcome(this.prepare(call, found));
  }

  #outcome(prepared: Prepared): Promise<Outcome> {
    return prepared.match ? this.execute(prepared, prepared.error) : Promise.resolve(errorOutcome(prepared.error));
  }

  /** Match, validate and sanitise; permission and handler are not run. */
  prepare(call: RouteCall, found: RouteMatch | null = this.options.registry.match(call.method, call.path)): Prepared {
    if (!found) return { match: null, context: null, error: noRoute() };
    const { checked, error } = checkRouteParams(call, found, this.options.onError);
    return this.#prepared(call, found, checked, error);
  }

  /** As `prepare`, with the endpoint's long lists checked in turns (the same outcome). */
  async #prepareInTurns(call: RouteCall, found: RouteMatch): Promise<Prepared> {
    const groups = groupsOf(call, found);
    let error: CmsError | null = call.body.jsonError;
    if (!error) {
      try {
        await validateParamsInTurns(groups, found.endpoint, checkContextOf(call, groups));
      } catch (thrown) {
        error = toCmsError(thrown, this.options.onError);
      }
    }
    return this.#prepared(call, found, paramsOf(groups), error);
  }

  #prepared(call: RouteCall, found: RouteMatch, checked: CheckedParams, error: CmsError | null): Prepared {
    return new MatchedCall(found, call, checked, error, this.#contextSources);
  }

  /** Permission and handler for a prepared request, then the paging headers and `Allow` (execute.ts). */
  execute(prepared: Matched, validationError: CmsError | null): Promise<Outcome> {
    return executeRoute(prepared, validationError, this.options.headerPrefix, this.options.onError);
  }

  render(outcome: Outcome): Promise<unknown> {
    return render(outcome, null, this.#internal);
  }
}

/** An answer enveloped (`_envelope`), then in its output format: the route's own, else JSONP or pretty printing. */
function inFormat(rendered: Answer, outcome: Outcome | null, call: RouteCall, incoming: Incoming): Answer | Promise<Answer> {
  const answer = incoming.envelope ? envelope(rendered) : rendered;
  // A route may write its answer in another format; it then replaces JSONP and pretty printing too.
  const own = outcome?.route?.serialize?.(answer, { method: call.method, params: outcome.context?.params ?? {} });
  if (own) return { status: own.status ?? answer.status, headers: Object.assign({}, answer.headers, { 'Content-Type': own.contentType }), body: own.body };
  // A large body is encoded (printed pretty, wrapped for JSONP) here, in turns, not in one call by whoever sends it.
  if (incoming.jsonp || '_pretty' in incoming.query) {
    return formattedLargeBody(answer.body, incoming.query).then((large) => withBody(answer, large ?? formatBody(answer.body, incoming.query)));
  }
  return withBody(answer, formatBody(answer.body, incoming.query));
}

/** `then` with the answer, at once when it is at hand. */
function thenOnce<T>(answer: Answer | Promise<Answer>, then: (answer: Answer) => T): T | Promise<T> {
  return answer instanceof Promise ? answer.then(then) : then(answer);
}

function withBody(answer: Answer, formatted: unknown): Answer | Promise<Answer> {
  if (formatted === answer.body && formatted instanceof EncodedJson) return answer;
  if (formatted instanceof EncodedJson) return { status: answer.status, headers: answer.headers, body: formatted };
  return encodedIfLarge(formatted).then((body) => ({ status: answer.status, headers: answer.headers, body }));
}
