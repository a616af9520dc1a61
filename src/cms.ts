import { createCapabilityRules, createRoleTable, createSiteSecret, createThrottles, NO_THROTTLES, type CapabilityRuleOptions, type RoleChanges, type ThrottleOptions } from './auth/index.js';
import type { Principal } from './core/context.js';
import { Dispatcher, type Authenticator } from './core/dispatch.js';
import { jsonLimitsOf } from './core/json-body.js';
import { FragmentCache, type FragmentCacheOptions } from './core/cache/fragments.js';
import { Generations } from './core/cache/generation.js';
import { ResponseCache, type ResponseCacheOptions } from './core/cache/response-cache.js';
import { namespaceRoot, registerIndex } from './core/index-document.js';
import { NAMESPACE_DECLARATIONS, namesFor, type Names, type NameScheme } from './core/names.js';
import { Resources, type ResourceOf } from './core/resource.js';
import { Registry } from './core/registry.js';
import { openApiDocument } from './core/openapi.js';
import { normalizeApiRoot, resolveSite, type SiteSettings } from './core/site.js';
import type { CmsRequest, CmsResponse } from './core/types.js';
import { encodeResponse, hasEncodedBody, withEncodedBody } from './core/encode.js';
import { checkHealth, healthResponse, type HealthReport } from './core/health.js';
import { clientAddressOf, loggedPath, type RequestLogHook } from './core/request-log.js';
import { systemClock, type Clock } from './ports/clock.js';
import type { BlobStore } from './ports/blobs.js';
import type { HttpClient } from './ports/http-client.js';
import type { Mailer } from './ports/mailer.js';
import { createMemoryOutbox } from './mail/index.js';
import type { CmsDeps } from './deps.js';
import type { StoragePort } from './ports/storage.js';
import { createMemoryStorage } from './storage/memory/index.js';
import { createMemoryThrottleStore } from './storage/throttle/index.js';
import { createMemoryBlobStore } from './storage/blobs/index.js';
import { BLOCK_TYPE } from './content/blocks/index.js';
import { authorPostsHandler, createPostEvents, keptNextScheduled, PAGE_TYPE, POST_TYPE, resolvePostSettings, type PostSettings } from './content/post-type/index.js';
import { createSafeHttpClient, resolveUploads, type ImageWorkOptions, type UploadsConfig, type UploadsOptions } from './media/index.js';
import type { FormsOptions } from './forms/index.js';
import type { OembedOptions } from './embed/index.js';
import type { MailingOptions } from './mailing/index.js';
import type { CommentOptions } from './comments/index.js';
import { settingsResource } from './settings/index.js';
import { RESOURCES, type ResourceApiMembers } from './resources.js';
import { createWxrApi, type WxrApi } from './wxr/index.js';
import { createBasicAuthenticator, DEFAULT_MAX_APPLICATION_PASSWORDS, getUser, principalOf, type CredentialMemoryOptions } from './users/index.js';
import { WebhookHub, type WebhookOptions } from './webhooks/index.js';

export interface CmsOptions {
  /**
   * The names the interface is served under: `neutral` (default: `cms/v2`, `forms/v1`, `mailing/v1`, `slider`
   * below `/cms-json`) or `wordpress` (`wp/v2`, `contact-form-7/v1`, `mc4wp/v1`, `sliderrevolution` below
   * `/wp-json`), so clients written for WordPress work unchanged.
   */
  names?: NameScheme;
  /** Site settings: name, description, url, home, apiRoot, timezone, gmtOffset, front page, authorization URL. */
  site?: SiteSettings;
  /** Where records live; default: in memory. */
  storage?: StoragePort;
  clock?: Clock;
  /** Roles to add, change or remove (by slug) on top of the five default roles. */
  roles?: RoleChanges;
  /** Extra post types, taxonomies and statuses for capability checks, and the site-wide capability switches. */
  capabilities?: CapabilityRuleOptions;
  /** Where uploaded files live; default: in memory. */
  blobs?: BlobStore;
  /** Outbound mail (form mail, sign-up confirmations); default: an in-memory outbox. */
  mailer?: Mailer;
  /** Outbound HTTP for sideloads and embeds; default: the safe client (no private or loopback targets). */
  httpClient?: HttpClient;
  /** Uploads: public base URL of the files, size limit, image sizes and formats. */
  uploads?: UploadsOptions;
  /** Image work: the codec (`image-js` by default, or `sharp`), worker threads and their queue. */
  images?: ImageWorkOptions;
  /**
   * Resolves the caller from the request, for hosts with their own login. Tried after a principal passed as
   * `request.user` and before HTTP Basic application passwords.
   */
  authenticate?: Authenticator;
  /**
   * Verified application-password credentials are remembered in memory for a short while (default 2 minutes,
   * never the credential itself), so authenticated clients do not pay the slow hash on every request.
   */
  credentialMemory?: CredentialMemoryOptions;
  /** Application passwords: most one user may hold (default 50); creating one more is a 400. */
  applicationPasswords?: { max?: number };
  /**
   * Throttles (see docs/auth.md): failed logins per client address, per login and per both, with growing delays;
   * comments, sign-ups and form feedback per client address. Each answers 429 with `Retry-After`. Counters live
   * in memory unless `store` says otherwise. `false` turns every throttle off.
   */
  throttle?: ThrottleOptions | false;
  /**
   * GET answers of the routes declared `cache` are kept, encoded, until the next write to the store, a settings
   * change or the next scheduled post's date (default: 1,000 answers, 32 MiB). `false` keeps nothing; answers are
   * tagged with an `ETag` either way. Nothing is kept with a store that has no change token.
   */
  responseCache?: ResponseCacheOptions | false;
  /**
   * Records of the post and page routes are kept shaped and encoded (view fragments), per response context and,
   * in the edit context, per caller, until the next write to the store, a settings change or the next scheduled
   * post's date, and apart under each record's revision, so that a write to one record leaves the others' in
   * use; an answer the response cache does not hold is joined from them (default: 10,000 fragments, 32 MiB, for
   * each of the two). `false` keeps none. Nothing is kept with a store that has no change token.
   */
  viewFragments?: FragmentCacheOptions | false;
  /** Receives every unexpected error; the client sees only a 500 `internal_error`. */
  onError?: (error: unknown) => void;
  /**
   * The request log: called once per answered request with its time, method, path (secret query values
   * redacted), status, encoded body length, duration, client address and user id. Route it to your logger.
   */
  onRequest?: RequestLogHook;
  /** Largest accepted request body, in bytes (default 32 MiB); larger ones get 413. */
  maxBodyBytes?: number;
  /** Largest body accepted from a caller who is not logged in (default 8 MiB, PHP's `post_max_size`); 413 past it. */
  maxAnonymousBodyBytes?: number;
  /**
   * Largest JSON or urlencoded body, or text fields of a multipart body, read into parameters (default 8 MiB,
   * PHP's `post_max_size`); 413 past it. Uploaded files count only toward `maxBodyBytes`.
   */
  maxParsedBodyBytes?: number;
  /** Most values (arrays, objects, scalars) of a JSON body (default 1,000,000); 413 past it, before it is parsed. */
  maxJsonValues?: number;
  /** Most members of one array or object of a JSON body (default 10,000); 413 past it, before it is parsed. */
  maxJsonMembers?: number;
  /** Prefix of the paging headers (default `X-WP`, as existing clients expect). */
  headerPrefix?: string;
  /** Serve `_jsonp` callbacks (default true, as the reference). */
  jsonp?: boolean;
  /** Most requests one batch may carry (default 25). */
  maxBatchSize?: number;
  /** Permalink structure, page templates by post type, and whether deletes without `force` use the trash. */
  posts?: PostSettings;
  /**
   * The site secret every keyed token derives its key from (quiz and posted-data hashes, preview and mailing-list
   * links); at least 16 characters, the same in every process of the site. Default: 32 random bytes created once
   * in the store on first use.
   */
  secret?: string;
  /** Contact forms: spam and pre-send hooks, date formats, whether submissions are kept. */
  forms?: FormsOptions;
  /** oEmbed: the trusted provider list, the proxy cache (time to live, size, shared store), outbound deadline. */
  oembed?: OembedOptions;
  /** Mailing-list sign-up: the provider (local with double opt-in by default, or Mailchimp), link secret and lifetimes. */
  mailing?: MailingOptions;
  /** Comments: whether visitors may comment, moderation, flood and trash choices. */
  comments?: CommentOptions;
  /**
   * Webhooks (see docs/webhooks.md): fixed targets and their secret, private `host:port` pairs subscriptions may
   * target, retries, deadlines and the delivery loop's pace.
   */
  webhooks?: WebhookOptions;
}

/**
 * The assembled site. Besides the members below, each resource's in-process API, under the name its declaration
 * gives it: `users`, `forms`, `sliders`, `oembed`, `mailing`, `comments`, `webhooks` (see src/resources.ts).
 */
export interface Cms extends ResourceApiMembers {
  /** Answers one request; never throws. */
  handle(request: CmsRequest): Promise<CmsResponse>;
  /** The API root path below the site address, e.g. `/cms-json`. */
  readonly apiRoot: string;
  readonly maxBodyBytes: number;
  /** The value of the site-root discovery header: `<…/cms-json/>; rel="https://api.w.org/"`. */
  discoveryLink(requestApiUrl?: string): string;
  readonly registry: Registry;
  /** An OpenAPI 3.1 document of every route, from the same definitions as the index and the validators. */
  openapi(requestApiUrl?: string): Record<string, unknown>;
  /** The ports, settings and shared services every resource was given (one frozen object). */
  readonly deps: SiteDeps;
  /** Whether the store answers with a current schema: `{status: 'ok'}`, or `unavailable` with a reason. */
  health(): Promise<HealthReport>;
  /** The same as an answer to mount at a health path: 200 `{"status":"ok"}`, 503 otherwise. */
  healthResponse(): Promise<CmsResponse>;
  /** Imports a WordPress export file (WXR), all or nothing; see docs/import-export.md. */
  importWxr: WxrApi['importWxr'];
  /** The site's content as a WXR 1.2 file that WordPress's importer reads, in pieces. */
  exportWxr: WxrApi['exportWxr'];
}

/** Namespaces the index advertises, in its order. */
export const NAMESPACES: readonly string[] = Object.freeze(NAMESPACE_DECLARATIONS.map((namespace) => namespace.name));

/**
 * The dependency object as `createCms` makes it: `CmsDeps`, its uploads being media's resolved settings (with the
 * image sizes, formats and worker pool the media routes use).
 */
type SiteDeps = CmsDeps & { readonly uploads: UploadsConfig };

/** The resources, each with dependencies made from the shared ones and the host's options (checked here). */
const RESOURCE_LIST: readonly ResourceOf<SiteDeps, CmsOptions>[] = RESOURCES;

export const DEFAULT_MAX_BODY_BYTES = 32 * 1024 * 1024;
/** PHP's default `post_max_size`, which clients of the reference already live within. */
export const DEFAULT_MAX_ANONYMOUS_BODY_BYTES = 8 * 1024 * 1024;

/** Authentication steps, tried in order; the first that answers (a principal, or a thrown error) wins. */
export type AuthenticationStep = (input: Parameters<Authenticator>[0]) =>
  Promise<Principal | null | undefined> | Principal | null | undefined;

/** What the caches follow: the store's change token, the next scheduled post and the clock. */
function generationsFor(deps: CmsDeps): Generations {
  const { storage, clock } = deps;
  return new Generations({
    ...(storage.changeToken ? { changeToken: () => storage.changeToken!() } : {}),
    ...keptNextScheduled(storage),
    now: () => clock.now().getTime(),
  });
}

function isPrincipal(user: { id: number }): user is Principal {
  return 'roles' in user && 'capabilities' in user && (user as Principal).capabilities instanceof Set;
}

export function createCms(options: CmsOptions = {}): Cms {
  const names = namesFor(options.names);
  const registry = new Registry(names);
  const webhooks = new WebhookHub(options.webhooks, options.clock ?? systemClock);
  const deps = createDeps(options, names, webhooks);
  const resources = new Resources(RESOURCE_LIST, deps, options);
  const siteSettings = resources.depsOf(settingsResource).settings;
  const authenticationSteps: AuthenticationStep[] = [];
  // The host's hook first; when it knows nobody (null), HTTP Basic application passwords are tried.
  // The host's hook is not handed the request's change token: what it writes is seen by reads after it.
  if (options.authenticate) {
    authenticationSteps.push(async ({ changeToken: _token, ...input }) => (await options.authenticate!(input)) ?? undefined);
  }
  authenticationSteps.push(createBasicAuthenticator({ ...deps, loginThrottle: deps.throttles.login }, options.credentialMemory));

  // Routes in the index's order: the index, the root routes, then each namespace's root followed by its own routes.
  registerIndex(registry);
  resources.register(registry, namespaceRoot(registry));

  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const generations = generationsFor(deps);
  const core = new Dispatcher({
    registry,
    services: deps,
    site: deps.site,
    currentSite: siteSettings.current,
    knownSite: siteSettings.known,
    maxBodyBytes,
    maxAnonymousBodyBytes: Math.min(options.maxAnonymousBodyBytes ?? DEFAULT_MAX_ANONYMOUS_BODY_BYTES, maxBodyBytes),
    maxParsedBodyBytes: Math.min(options.maxParsedBodyBytes ?? DEFAULT_MAX_ANONYMOUS_BODY_BYTES, maxBodyBytes),
    jsonLimits: jsonLimitsOf(options),
    headerPrefix: options.headerPrefix ?? 'X-WP',
    jsonp: options.jsonp ?? true,
    generations,
    ...(options.responseCache === false ? {} : { responseCache: new ResponseCache(generations, options.responseCache) }),
    ...(options.viewFragments === false ? {} : { fragments: new FragmentCache(options.viewFragments) }),
    authenticate: (input) => {
      if (input.user) return isPrincipal(input.user) ? input.user : principalById(input.user.id);
      // Without the host's hook, a request without credentials is anonymous at once (no promise to wait for).
      if (!options.authenticate && input.headers.authorization === undefined) return null;
      return authenticateBySteps(input);
    },
    ...(options.onError ? { onError: options.onError } : {}),
  });

  async function authenticateBySteps(input: Parameters<AuthenticationStep>[0]): Promise<Principal | null> {
    for (const step of authenticationSteps) {
      const principal = await step(input);
      if (principal !== undefined) return principal;
    }
    return null;
  }

  /** A host that passes only `{id}` as `request.user` gets that stored user's principal (none if unknown). */
  async function principalById(id: number): Promise<Principal | null> {
    const user = await getUser(deps.storage, id);
    return user ? principalOf(user, deps.roles) : null;
  }

  const apiRoot = normalizeApiRoot(options.site?.apiRoot, names);
  const health = () => checkHealth(deps.storage);
  // Once the secret is known, requests go straight to the core: waiting on a settled promise still costs a turn.
  let secretKnown = false;
  // Not an async function: one returning the core's promise would wait two more turns for it.
  const dispatch = (request: CmsRequest, seen?: { userId: number | null }): Promise<CmsResponse> => {
    if (secretKnown) return core.handle(request, seen);
    // A store that cannot be read now fails the requests that need a key, through the usual error answer.
    return deps.secret.ready().then(() => {
      secretKnown = true;
    }, () => undefined).then(() => core.handle(request, seen));
  };
  webhooks.attach({
    storage: deps.storage, httpClient: deps.httpClient, site: deps.site, names,
    read: async (path) => {
      const [route = '', query = ''] = path.split('?');
      const { status, body } = await dispatch({ method: 'GET', path: names.path(route), query });
      return { status, body };
    },
    ...(options.onError ? { onError: options.onError } : {}),
  });
  return {
    handle: options.onRequest ? loggedHandler(dispatch, apiRoot, options.onRequest, options.onError) : dispatch,
    apiRoot,
    maxBodyBytes,
    discoveryLink: (requestApiUrl) => core.discoveryLink(requestApiUrl),
    registry,
    openapi: (requestApiUrl) => openApiDocument(registry, resolveSite(options.site ?? {}, requestApiUrl, names)),
    ...(resources.apis() as unknown as ResourceApiMembers),
    deps,
    health,
    healthResponse: async () => healthResponse(await health()),
    ...createWxrApi({ services: deps, currentSite: siteSettings.current }),
  };
}

/**
 * `handle` reporting each answer to the request log. The body is encoded here, once: the adapters send the bytes
 * remembered on the response. A failing hook never changes the answer.
 */
function loggedHandler(dispatch: (request: CmsRequest, seen: { userId: number | null }) => Promise<CmsResponse>, apiRoot: string, onRequest: RequestLogHook, onError?: (error: unknown) => void): Cms['handle'] {
  return async (request) => {
    const started = performance.now();
    const time = Date.now();
    const seen = { userId: null as number | null };
    const response = await dispatch(request, seen);
    const bytes = encodeResponse(response).body;
    try {
      onRequest({
        time, method: request.method.toUpperCase(), path: loggedPath(apiRoot, request), status: response.status,
        bytes: bytes?.byteLength ?? 0, durationMs: Math.round((performance.now() - started) * 1000) / 1000,
        clientAddress: clientAddressOf(request), userId: seen.userId,
      });
    } catch (error) {
      onError?.(error);
    }
    return bytes === null || hasEncodedBody(response) ? response : withEncodedBody(response, bytes);
  };
}

/**
 * The one dependency object: ports (the host's or the in-memory defaults), fixed settings and the typed
 * services resources share. Post events exist before any resource registers, so subscriptions never depend on
 * registration order.
 */
function createDeps(options: CmsOptions, names: Names, webhooks: WebhookHub): SiteDeps {
  const storage = webhooks.outbox(options.storage ?? createMemoryStorage());
  const secret = createSiteSecret(storage, options.secret);
  const previewSecret = options.posts?.previewSecret;
  const postTypeDeps = {
    storage,
    clock: options.clock ?? systemClock,
    capabilityRules: createCapabilityRules(options.capabilities),
    postEvents: createPostEvents(),
    postSettings: resolvePostSettings(options.posts),
  };
  return Object.freeze({
    ...postTypeDeps,
    mailer: options.mailer ?? createMemoryOutbox(),
    httpClient: options.httpClient ?? createSafeHttpClient(),
    blobs: options.blobs ?? createMemoryBlobStore(),
    site: options.site ?? {},
    names,
    roles: createRoleTable(options.roles),
    secret,
    previewKey: previewSecret === undefined ? () => secret.key('preview') : () => previewSecret,
    uploads: resolveUploads(options.uploads, options.images),
    userPosts: authorPostsHandler(postTypeDeps, [POST_TYPE, PAGE_TYPE], [BLOCK_TYPE]),
    throttles: options.throttle === false ? NO_THROTTLES : createThrottles(options.throttle?.store ?? createMemoryThrottleStore(), options.throttle),
    maxApplicationPasswords: maxApplicationPasswordsOf(options.applicationPasswords?.max),
    webhooks,
  });
}

function maxApplicationPasswordsOf(max: number | undefined): number {
  if (max === undefined) return DEFAULT_MAX_APPLICATION_PASSWORDS;
  if (!Number.isSafeInteger(max) || max < 1) throw new RangeError(`applicationPasswords.max must be a whole number of 1 or more, not ${max}`);
  return max;
}
