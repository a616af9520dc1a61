/** Post types, taxonomies and statuses → response fields and links. */
import type { CapabilityRules } from '../auth/index.js';
import type { Item, Links, RequestContext } from '../core/context.js';
import { compactLinks, filterByContext } from '../core/shape.js';
import type { JsonSchema } from '../core/args/schema.js';
import type { PostTypeFacts, StatusFacts, TaxonomyFacts } from './definitions.js';
import { POST_TYPE_LABELS, TAXONOMY_LABELS } from './labels.js';

type Shown = Pick<RequestContext, 'wantsField' | 'url'>;
/** A post type or taxonomy also names the namespace its routes are served under. */
export type ShownType = Shown & { readonly namespace: string };

const ITEMS = 'https://api.w.org/items';

/** A post type's capability names in the reference's order. */
function postTypeCapabilityNames(slug: string, rules: CapabilityRules): Record<string, string> {
  const names = rules.postTypes[slug];
  if (!names) return {};
  const order = [
    'edit_post', 'read_post', 'delete_post', 'edit_posts', 'edit_others_posts', 'delete_posts', 'publish_posts', 'read_private_posts',
    'read', 'delete_private_posts', 'delete_published_posts', 'delete_others_posts', 'edit_private_posts', 'edit_published_posts', 'create_posts',
  ] as const;
  return Object.fromEntries(order.map((name) => [name, names[name]]));
}

export function preparePostType(type: PostTypeFacts, rules: CapabilityRules, shown: ShownType): Item {
  const want = shown.wantsField;
  const data: Record<string, unknown> = {};
  if (want('capabilities')) data.capabilities = postTypeCapabilityNames(type.slug, rules);
  if (want('description')) data.description = type.description;
  if (want('hierarchical')) data.hierarchical = type.hierarchical;
  if (want('has_archive')) data.has_archive = type.hasArchive;
  if (want('visibility')) data.visibility = { show_in_nav_menus: type.showInNavMenus, show_ui: type.showUi };
  if (want('viewable')) data.viewable = type.viewable;
  if (want('labels')) data.labels = POST_TYPE_LABELS[type.slug] ?? {};
  if (want('name')) data.name = POST_TYPE_LABELS[type.slug]?.name ?? type.slug;
  if (want('slug')) data.slug = type.slug;
  if (want('icon')) data.icon = type.icon;
  if (want('supports')) data.supports = Object.fromEntries(type.supports.map((feature) => [feature, true]));
  if (want('taxonomies')) data.taxonomies = [...type.taxonomies];
  if (want('rest_base')) data.rest_base = type.restBase;
  if (want('rest_namespace')) data.rest_namespace = shown.namespace;
  if (!want('_links') && !want('_embedded')) return { data };
  const links: Links = {
    collection: [{ href: shown.url('/cms/v2/types') }],
    [ITEMS]: [{ href: shown.url(`/cms/v2/${type.restBase}`) }],
  };
  return { data, links };
}

export function prepareTaxonomy(taxonomy: TaxonomyFacts, rules: CapabilityRules, shown: ShownType): Item {
  const want = shown.wantsField;
  const data: Record<string, unknown> = {};
  if (want('name')) data.name = TAXONOMY_LABELS[taxonomy.slug]?.name ?? taxonomy.slug;
  if (want('slug')) data.slug = taxonomy.slug;
  if (want('capabilities')) data.capabilities = { ...rules.taxonomies[taxonomy.slug] };
  if (want('description')) data.description = taxonomy.description;
  if (want('labels')) data.labels = TAXONOMY_LABELS[taxonomy.slug] ?? {};
  if (want('types')) data.types = [...taxonomy.types];
  if (want('show_cloud')) data.show_cloud = taxonomy.showCloud;
  if (want('hierarchical')) data.hierarchical = taxonomy.hierarchical;
  if (want('rest_base')) data.rest_base = taxonomy.restBase;
  if (want('rest_namespace')) data.rest_namespace = shown.namespace;
  if (want('visibility')) data.visibility = { ...taxonomy.visibility };
  if (!want('_links') && !want('_embedded')) return { data };
  const links: Links = {
    collection: [{ href: shown.url('/cms/v2/taxonomies') }],
    [ITEMS]: [{ href: shown.url(`/cms/v2/${taxonomy.restBase}`) }],
  };
  return { data, links };
}

export function prepareStatus(status: StatusFacts, shown: Shown): Item {
  const want = shown.wantsField;
  const data: Record<string, unknown> = {};
  if (want('name')) data.name = status.name;
  if (want('private')) data.private = status.private;
  if (want('protected')) data.protected = status.protected;
  if (want('public')) data.public = status.public;
  if (want('queryable')) data.queryable = status.queryable;
  if (want('show_in_list')) data.show_in_list = status.showInList;
  if (want('slug')) data.slug = status.slug;
  if (want('date_floating')) data.date_floating = status.dateFloating;
  // The reference links every status to its posts, whatever `_fields` asks.
  const href = status.slug === 'publish' ? shown.url('/cms/v2/posts') : shown.url('/cms/v2/posts', { status: status.slug });
  return { data, links: { archives: [{ href }] } };
}

/** A collection keyed by slug, each member filtered by context and carrying its own links. */
export function keyedCollection(entries: [string, Item][], schema: JsonSchema, context: string): Record<string, unknown> {
  const output: Record<string, unknown> = {};
  for (const [slug, entry] of entries) {
    const data = { ...(filterByContext(entry.data, schema, context) as Record<string, unknown>) };
    const links = compactLinks(entry.links);
    if (links) data._links = links;
    output[slug] = data;
  }
  return output;
}
