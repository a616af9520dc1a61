/** Who may see post types, taxonomies and statuses in which context, with the reference's codes. */
import { userCan, type CapabilityRules } from '../auth/index.js';
import type { Params } from '../core/args/define.js';
import type { PermissionResult, RequestContext } from '../core/context.js';
import type { taxonomyItemArgs, taxonomyListArgs } from './args.js';
import { CmsError, forbidden } from '../core/errors.js';
import type { Names } from '../core/names.js';
import { ACTIVE_THEME, findTheme } from './themes.js';
import { HIDDEN_TAXONOMIES, POST_TYPES, STATUSES, TAXONOMIES, type StatusFacts } from './definitions.js';

export interface DiscoveryDeps {
  readonly capabilityRules: CapabilityRules;
  /** `rest_namespace` names the namespace the records' routes are served under. */
  readonly names: Names;
}

export function canEditPostsOf(context: RequestContext, rules: CapabilityRules, type: string): boolean {
  const names = rules.postTypes[type];
  return names !== undefined && userCan(context.user, names.edit_posts, undefined, rules);
}

/** Whether the caller may edit records of any served post type. */
export function canEditSomeType(context: RequestContext, rules: CapabilityRules): boolean {
  return POST_TYPES.some((type) => canEditPostsOf(context, rules, type.slug));
}

export function canAssignTerms(context: RequestContext, rules: CapabilityRules, taxonomy: string): boolean {
  const names = rules.taxonomies[taxonomy];
  return names !== undefined && userCan(context.user, names.assign_terms, undefined, rules);
}

export function canListTypes(context: RequestContext, deps: DiscoveryDeps): PermissionResult {
  if (context.context !== 'edit' || canEditSomeType(context, deps.capabilityRules)) return true;
  return forbidden(context.user, 'rest_cannot_view', 'Sorry, you are not allowed to edit posts in this post type.');
}

export function canListTaxonomies(context: RequestContext<Params<typeof taxonomyListArgs>>, deps: DiscoveryDeps): PermissionResult {
  if (context.context !== 'edit') return true;
  const type = context.params.type ?? '';
  const candidates = type === '' ? TAXONOMIES : TAXONOMIES.filter((taxonomy) => taxonomy.types.includes(type));
  if (candidates.some((taxonomy) => canAssignTerms(context, deps.capabilityRules, taxonomy.slug))) return true;
  return forbidden(context.user, 'rest_cannot_view', 'Sorry, you are not allowed to manage terms in this taxonomy.');
}

export function canReadTaxonomy(context: RequestContext<Params<typeof taxonomyItemArgs>>, deps: DiscoveryDeps): PermissionResult {
  const slug = context.params.taxonomy;
  if (HIDDEN_TAXONOMIES.has(slug)) return forbidden(context.user);
  const known = TAXONOMIES.some((taxonomy) => taxonomy.slug === slug);
  if (known && context.context === 'edit' && !canAssignTerms(context, deps.capabilityRules, slug)) {
    return forbidden(context.user, 'rest_forbidden_context', 'Sorry, you are not allowed to manage terms in this taxonomy.');
  }
  return true;
}

export function canListStatuses(context: RequestContext, deps: DiscoveryDeps): PermissionResult {
  if (context.context !== 'edit' || canEditSomeType(context, deps.capabilityRules)) return true;
  return forbidden(context.user, 'rest_cannot_view', 'Sorry, you are not allowed to manage post statuses.');
}

/** Public statuses are for everyone; the others (and the trash) for those who may edit some type; internal ones for nobody. */
export function canSeeStatus(status: StatusFacts, context: RequestContext, rules: CapabilityRules): boolean {
  if (status.public) return true;
  return (!status.internal || status.slug === 'trash') && canEditSomeType(context, rules);
}

export function findStatus(slug: unknown): StatusFacts | undefined {
  return STATUSES.find((status) => status.slug === slug);
}

export function canReadStatus(context: RequestContext, deps: DiscoveryDeps): PermissionResult {
  const status = findStatus(context.params.status);
  if (!status) return new CmsError('rest_status_invalid', 'Invalid status.', 404);
  if (!canSeeStatus(status, context, deps.capabilityRules)) return forbidden(context.user, 'rest_cannot_read_status', 'Cannot view status.');
  return true;
}

/** Who may switch themes sees every theme; who may edit some type sees the active one (what editors read). */
function canManageThemes(context: RequestContext, rules: CapabilityRules): boolean {
  return userCan(context.user, 'switch_themes', undefined, rules) || userCan(context.user, 'manage_network_themes', undefined, rules);
}

function canReadActiveTheme(context: RequestContext, rules: CapabilityRules): PermissionResult {
  if (userCan(context.user, 'edit_posts', undefined, rules) || canEditSomeType(context, rules)) return true;
  return forbidden(context.user, 'rest_cannot_view_active_theme', 'Sorry, you are not allowed to view the active theme.');
}

export function canListThemes(context: RequestContext, deps: DiscoveryDeps): PermissionResult {
  if (canManageThemes(context, deps.capabilityRules)) return true;
  const status = context.params.status;
  if (Array.isArray(status) && status.length === 1 && status[0] === 'active') return canReadActiveTheme(context, deps.capabilityRules);
  return forbidden(context.user, 'rest_cannot_view_themes', 'Sorry, you are not allowed to view themes.');
}

export function canReadTheme(context: RequestContext, deps: DiscoveryDeps): PermissionResult {
  if (canManageThemes(context, deps.capabilityRules)) return true;
  if (findTheme(context.params.stylesheet) === ACTIVE_THEME) return canReadActiveTheme(context, deps.capabilityRules);
  return forbidden(context.user, 'rest_cannot_view_themes', 'Sorry, you are not allowed to view themes.');
}
