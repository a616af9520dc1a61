/** The handlers of `/types`, `/taxonomies` and `/statuses`. */
import type { Params } from '../core/args/define.js';
import type { HandlerResult, Item, RequestContext } from '../core/context.js';
import type { taxonomyListArgs, typeItemArgs } from './args.js';
import { CmsError, forbidden } from '../core/errors.js';
import { CMS } from '../core/names.js';
import { collection, item, reply } from '../core/response.js';
import { POST_TYPES, STATUSES, TAXONOMIES } from './definitions.js';
import { canAssignTerms, canEditPostsOf, canSeeStatus, findStatus, type DiscoveryDeps } from './permissions.js';
import { keyedCollection, preparePostType, prepareStatus, prepareTaxonomy, type ShownType } from './prepare.js';
import { postStatusSchema, postTypeSchema, taxonomyItemSchema } from './schema.js';
import { ACTIVE_THEME, findTheme, prepareTheme } from './themes.js';

/** The types' routes are served under the names in force, like every link. */
function shownType(context: RequestContext, deps: DiscoveryDeps): ShownType {
  return { wantsField: (field) => context.wantsField(field), url: (path, query) => context.url(path, query), namespace: deps.names.namespace(CMS.name) };
}

export function listTypes(context: RequestContext, deps: DiscoveryDeps): HandlerResult {
  const rules = deps.capabilityRules;
  const entries: [string, Item][] = POST_TYPES
    .filter((type) => context.context !== 'edit' || canEditPostsOf(context, rules, type.slug))
    .map((type) => [type.slug, preparePostType(type, rules, shownType(context, deps))]);
  return reply(keyedCollection(entries, postTypeSchema(), context.context));
}

export function readType(context: RequestContext<Params<typeof typeItemArgs>>, deps: DiscoveryDeps): HandlerResult {
  const rules = deps.capabilityRules;
  const slug = context.params.type;
  const type = POST_TYPES.find((candidate) => candidate.slug === slug);
  if (!type) {
    // Types the capability rules know but that have no routes here are the reference's types hidden from REST.
    if (Object.hasOwn(rules.postTypes, slug)) throw forbidden(context.user, 'rest_cannot_read_type', 'Cannot view post type.');
    throw new CmsError('rest_type_invalid', 'Invalid post type.', 404);
  }
  if (context.context === 'edit' && !canEditPostsOf(context, rules, slug)) {
    throw forbidden(context.user, 'rest_forbidden_context', 'Sorry, you are not allowed to edit posts in this post type.');
  }
  return item(preparePostType(type, rules, shownType(context, deps)));
}

export function listTaxonomies(context: RequestContext<Params<typeof taxonomyListArgs>>, deps: DiscoveryDeps): HandlerResult {
  const rules = deps.capabilityRules;
  const type = context.params.type ?? '';
  const entries: [string, Item][] = TAXONOMIES
    .filter((taxonomy) => type === '' || taxonomy.types.includes(type))
    .filter((taxonomy) => context.context !== 'edit' || canAssignTerms(context, rules, taxonomy.slug))
    .map((taxonomy) => [taxonomy.slug, prepareTaxonomy(taxonomy, rules, shownType(context, deps))]);
  return reply(keyedCollection(entries, taxonomyItemSchema(), context.context));
}

export function readTaxonomy(context: RequestContext, deps: DiscoveryDeps): HandlerResult {
  const taxonomy = TAXONOMIES.find((candidate) => candidate.slug === context.params.taxonomy);
  if (!taxonomy) throw new CmsError('rest_taxonomy_invalid', 'Invalid taxonomy.', 404);
  return item(prepareTaxonomy(taxonomy, deps.capabilityRules, shownType(context, deps)));
}

export function listStatuses(context: RequestContext, deps: DiscoveryDeps): HandlerResult {
  const listed = STATUSES.filter((status) => !status.internal || status.slug === 'trash');
  const entries: [string, Item][] = listed
    .filter((status) => canSeeStatus(status, context, deps.capabilityRules))
    .map((status) => [status.slug, prepareStatus(status, context)]);
  return reply(keyedCollection(entries, postStatusSchema(), context.context));
}

export function readStatus(context: RequestContext): HandlerResult {
  const status = findStatus(context.params.status);
  if (!status) throw new CmsError('rest_status_invalid', 'Invalid status.', 404);
  return item(prepareStatus(status, context), { linksAlways: true });
}

/** Every theme whose status is asked for (all without `status`): the active one, or none. */
export function listThemes(context: RequestContext): HandlerResult {
  const status = context.params.status;
  const themes = Array.isArray(status) && !status.includes('active') ? [] : [ACTIVE_THEME];
  const items = themes.map((theme) => prepareTheme(theme, context));
  return collection(items, { total: items.length, totalPages: 1, page: 1 });
}

export function readTheme(context: RequestContext): HandlerResult {
  const theme = findTheme(context.params.stylesheet);
  if (!theme) throw new CmsError('rest_theme_not_found', 'Theme not found.', 404);
  return item(prepareTheme(theme, context));
}
