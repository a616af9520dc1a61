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

export interface PostScope {
  readonly postType: PostType;
  readonly storage: StoragePort;
  readonly settings: ResolvedPostSettings;
  readonly capabilities: PostTypeCapabilities;
  readonly abilities: Abilities;
  readonly links: LinkEnvironment;
  readonly templates: Readonly<Record<string, string>>;
  /** Options to prepare responses with, for a response context. */
  prepareOptions(contextName: string, extra?: Pick<PrepareOptions, 'password' | 'excerptLength' | 'termsOf'>): PrepareOptions;
  writeEnvironment(): WriteEnvironment;
  /** Save options bound to a transaction's storage handle. */
  saveEnvironment(storage: StoragePort): SaveEnvironment;
}

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
  const { site } = context;
  const { definition, deps } = postType;
  const { storage, capabilityRules, postSettings: settings } = deps;
  const abilities = abilitiesFor(context.user, capabilityRules, site);
  const links: LinkEnvironment = { storage, home: site.home, permalinkStructure: settings.permalinkStructure, pageOnFront: site.pageOnFront };
  const templates = settings.templates[definition.type] ?? {};
  const siteTime = { timezone: site.timezone, gmtOffset: site.gmtOffset };
  const capabilities = capabilitiesOf(definition, capabilityRules);
  return {
    postType,
    storage,
    settings,
    capabilities,
    abilities,
    links,
    templates,
    prepareOptions: (contextName, extra = {}) => ({
      definition,
      schema: postType.schema,
      capabilityRules,
      storage,
      links,
      site: siteTime,
      abilities,
      context: contextName,
      wantsField: context.wantsField,
      url: context.url,
      ...extra,
    }),
    writeEnvironment: () => ({ definition, capabilities, abilities, storage, site: siteTime, templates, fields: postType.schema.properties }),
    saveEnvironment: (transaction) => ({
      definition,
      capabilities,
      abilities,
      storage: transaction,
      events: deps.postEvents,
      site: siteTime,
      links: { ...links, storage: transaction },
      now: deps.clock.now(),
      templates,
    }),
  };
}
