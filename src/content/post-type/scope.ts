/** Everything a post-type check or handler needs for one request, built once and memoised on the request. */
import type { PostTypeCapabilities } from '../../auth/index.js';
import type { RequestContext } from '../../core/context.js';
import type { StoragePort } from '../../ports/storage.js';
import { abilitiesFor, capabilitiesOf, type Abilities } from './capabilities.js';
import type { PostType } from './define.js';
import type { LinkEnvironment } from './permalink.js';
import type { PrepareOptions } from './prepare.js';
import type { SaveEnvironment } from './save.js';
import type { ResolvedPostSettings } from './settings.js';
import type { WriteEnvironment } from './write.js';

/** A post type's scope for one request: the class below is its one definition (the request itself stays inside). */
export type PostScope = Omit<RequestScope, 'context'>;

/** The memo key of each type's scope, made once (scopes are asked for several times per request). */
const SCOPE_KEYS = new Map<string, string>();

export function scopeOf(context: RequestContext, postType: PostType): PostScope {
  const { type } = postType.definition;
  let key = SCOPE_KEYS.get(type);
  if (key === undefined) SCOPE_KEYS.set(type, key = `posts:scope:${type}`);
  return context.memo(key, () => buildScope(context, postType));
}

/** What a scope is built from: a request, or the actor of a write made outside one (deleting a user). */
export type ScopeSource = Pick<RequestContext, 'site' | 'user' | 'wantsField' | 'url'>;

export function buildScope(context: ScopeSource, postType: PostType): PostScope {
  return new RequestScope(context, postType);
}

/** What a scope holds besides its request: it follows from the type, the caller and the site alone. */
interface ScopeParts {
  readonly storage: StoragePort;
  readonly settings: ResolvedPostSettings;
  readonly capabilities: PostTypeCapabilities;
  readonly abilities: Abilities;
  readonly links: LinkEnvironment;
  readonly templates: Readonly<Record<string, string>>;
  readonly siteTime: PrepareOptions['site'];
}

function partsOf(postType: PostType, user: ScopeSource['user'], site: ScopeSource['site']): ScopeParts {
  const { definition, deps } = postType;
  const { storage, capabilityRules, postSettings: settings } = deps;
  return {
    storage,
    settings,
    capabilities: capabilitiesOf(definition, capabilityRules),
    abilities: abilitiesFor(user, capabilityRules, site),
    links: { storage, home: site.home, permalinkStructure: settings.permalinkStructure, pageOnFront: site.pageOnFront },
    templates: settings.templates[definition.type] ?? {},
    siteTime: { timezone: site.timezone, gmtOffset: site.gmtOffset },
  };
}

/** The parts of anonymous callers' scopes, made once per type and site (the site's object stays while it does). */
const anonymousScopes = new WeakMap<PostType, { readonly site: object; readonly parts: ScopeParts }>();

function anonymousParts(postType: PostType, site: ScopeSource['site']): ScopeParts {
  const kept = anonymousScopes.get(postType);
  if (kept !== undefined && kept.site === site) return kept.parts;
  const parts = partsOf(postType, null, site);
  anonymousScopes.set(postType, { site, parts });
  return parts;
}

/** A class rather than a literal of closures: one object per request and type. */
class RequestScope {
  readonly storage: StoragePort;
  readonly settings: ResolvedPostSettings;
  readonly capabilities: PostTypeCapabilities;
  readonly abilities: Abilities;
  readonly links: LinkEnvironment;
  readonly templates: Readonly<Record<string, string>>;
  readonly #siteTime: PrepareOptions['site'];

  constructor(readonly context: ScopeSource, readonly postType: PostType) {
    const parts = context.user === null ? anonymousParts(postType, context.site) : partsOf(postType, context.user, context.site);
    this.storage = parts.storage;
    this.settings = parts.settings;
    this.capabilities = parts.capabilities;
    this.abilities = parts.abilities;
    this.links = parts.links;
    this.templates = parts.templates;
    this.#siteTime = parts.siteTime;
  }

  /** Options to prepare responses with, for a response context. */
  prepareOptions(contextName: string, extra: Pick<PrepareOptions, 'password' | 'excerptLength' | 'termsOf' | 'historyOf'> = {}): PrepareOptions {
    const { postType, context } = this;
    return {
      definition: postType.definition,
      schema: postType.schema,
      capabilityRules: postType.deps.capabilityRules,
      storage: this.storage,
      links: this.links,
      site: this.#siteTime,
      abilities: this.abilities,
      context: contextName,
      wantsField: context.wantsField,
      url: context.url,
      ...extra,
    };
  }

  writeEnvironment(): WriteEnvironment {
    const { definition, schema } = this.postType;
    return {
      definition, capabilities: this.capabilities, abilities: this.abilities, storage: this.storage, site: this.#siteTime,
      templates: this.templates, fields: schema.properties,
    };
  }

  /** Save options bound to a transaction's storage handle. */
  saveEnvironment(transaction: StoragePort): SaveEnvironment {
    const { definition, deps } = this.postType;
    return {
      definition,
      capabilities: this.capabilities,
      abilities: this.abilities,
      storage: transaction,
      events: deps.postEvents,
      site: this.#siteTime,
      links: { ...this.links, storage: transaction },
      now: deps.clock.now(),
      templates: this.templates,
    };
  }
}
