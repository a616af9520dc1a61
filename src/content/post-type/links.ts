/** The `_links` of a post-type record (`resources.md` §1.2), plus the edit-context action relations. */
import { userCan, type CapabilityRules } from '../../auth/index.js';
import type { Links, LinkTarget, Principal } from '../../core/context.js';
import type { StoragePort } from '../../ports/storage.js';
import { capabilitiesOf } from './capabilities.js';
import type { PostTypeDefinition } from './definition.js';
import { postsIn, type PostRecord } from './record.js';
import type { ItemSchema } from './schema.js';

const API = 'https://api.w.org/';

/** Route bases of the post types served over REST, for links to records of another type. */
export const REST_BASES: Readonly<Record<string, string>> = { post: 'posts', page: 'pages', attachment: 'media', wp_block: 'blocks' };

export interface LinkContext {
  definition: PostTypeDefinition;
  /** The type's schema: a type without authors or comments (no such fields) links to neither. */
  schema: ItemSchema;
  storage: StoragePort;
  url(path: string, query?: Record<string, unknown>): string;
  /** The record's revision history as the answer read it; `revisionSummary` when not given. */
  historyOf?: ((id: number) => Promise<RevisionSummary>) | undefined;
}

export type RevisionSummary = { count: number; latestId: number | null };

/** How many revisions (autosaves included) a record has, and the newest one's id. */
export async function revisionSummary(storage: StoragePort, postId: number): Promise<RevisionSummary> {
  const { items, total } = await postsIn(storage).list({
    where: [{ field: 'parent', op: 'eq', value: postId }, { field: 'type', op: 'eq', value: 'revision' }],
    orderBy: [{ field: 'date', direction: 'desc' }],
    limit: 1,
    withTotal: true,
  });
  return { count: total ?? 0, latestId: items[0]?.id ?? null };
}

async function routeOfPost(storage: StoragePort, id: number, fallbackBase: string): Promise<string> {
  const record = await postsIn(storage).get(id);
  const base = record ? REST_BASES[record.type] ?? fallbackBase : fallbackBase;
  return `/cms/v2/${base}/${id}`;
}

export async function postLinks(post: PostRecord, context: LinkContext): Promise<Links> {
  const { definition, schema, storage, url, historyOf } = context;
  const base = `/cms/v2/${definition.restBase}`;
  const links: Links = {
    self: [{ href: url(`${base}/${post.id}`) }],
    collection: [{ href: url(base) }],
    about: [{ href: url(`/cms/v2/types/${definition.type}`) }],
  };
  if (schema.properties.author && post.author !== 0) links.author = [{ embeddable: true, href: url(`/cms/v2/users/${post.author}`) }];
  if (schema.properties.comment_status) links.replies = [{ embeddable: true, href: url('/cms/v2/comments', { post: post.id }) }];

  const revisions = historyOf ? await historyOf(post.id) : await revisionSummary(storage, post.id);
  links['version-history'] = [{ count: revisions.count, href: url(`${base}/${post.id}/revisions`) }];
  if (revisions.count > 0 && revisions.latestId !== null) {
    links['predecessor-version'] = [{ id: revisions.latestId, href: url(`${base}/${post.id}/revisions/${revisions.latestId}`) }];
  }
  if (definition.hierarchical && post.parent > 0) {
    links.up = [{ embeddable: true, href: url(await routeOfPost(storage, post.parent, definition.restBase)) }];
  }
  if (post.featured_media > 0) {
    links[`${API}featuredmedia`] = [{ embeddable: true, href: url(await routeOfPost(storage, post.featured_media, 'media')) }];
  }
  links[`${API}attachment`] = [{ href: url('/cms/v2/media', { parent: post.id }) }];
  if (definition.taxonomies.length > 0) {
    links[`${API}term`] = definition.taxonomies.map((taxonomy): LinkTarget => ({
      taxonomy: taxonomy.taxonomy,
      embeddable: true,
      href: url(`/cms/v2/${taxonomy.restBase}`, { post: post.id }),
    }));
  }
  return links;
}

/** Relations naming what the user may do with the record (edit context only); each points at the record. */
export function actionRelations(definition: PostTypeDefinition, user: Principal | null, rules: CapabilityRules, schema: ItemSchema): string[] {
  const names = capabilitiesOf(definition, rules);
  const can = (capability: string) => userCan(user, capability, undefined, rules);
  const relations: string[] = [];
  if (can(names.publish_posts)) relations.push(`${API}action-publish`);
  if (can('unfiltered_html')) relations.push(`${API}action-unfiltered-html`);
  if (definition.supportsSticky && can(names.edit_others_posts) && can(names.publish_posts)) relations.push(`${API}action-sticky`);
  if (schema.properties.author && can(names.edit_others_posts)) relations.push(`${API}action-assign-author`);
  for (const taxonomy of definition.taxonomies) {
    const capabilities = rules.taxonomies[taxonomy.taxonomy];
    if (!capabilities) continue;
    if (can(taxonomy.hierarchical ? capabilities.edit_terms : capabilities.assign_terms)) relations.push(`${API}action-create-${taxonomy.restBase}`);
    if (can(capabilities.assign_terms)) relations.push(`${API}action-assign-${taxonomy.restBase}`);
  }
  return relations;
}
