/**
 * A post type as the routes use it: what differs between types (the definition), the item schema, and the
 * dependencies its checks, handlers and writes run with. Posts, pages and media are each made with
 * `definePostType()`; revisions and autosaves hang off the post types they are given.
 */
import type { CapabilityRules } from '../../auth/index.js';
import type { Clock } from '../../ports/clock.js';
import type { StoragePort } from '../../ports/storage.js';
import type { PostTypeDefinition } from './definition.js';
import type { PostEventHub } from './events.js';
import { buildItemSchema, type ItemSchema } from './schema.js';
import type { ResolvedPostSettings } from './settings.js';

/** What the post-type kit needs from `createCms`. */
export interface PostTypeDeps {
  readonly storage: StoragePort;
  readonly clock: Clock;
  readonly capabilityRules: CapabilityRules;
  /** Saves and deletes are announced here (revisions, term counts and comments listen). */
  readonly postEvents: PostEventHub;
  readonly postSettings: ResolvedPostSettings;
}

export interface PostType<D extends PostTypeDeps = PostTypeDeps> {
  readonly definition: PostTypeDefinition;
  readonly schema: ItemSchema;
  readonly deps: D;
}

/** A post type bound to its dependencies; `schema` replaces the one built from the definition (media). */
export function definePostType<D extends PostTypeDeps>(
  definition: PostTypeDefinition, deps: D, options: { schema?: ItemSchema } = {},
): PostType<D> {
  return Object.freeze({ definition, schema: options.schema ?? buildItemSchema(definition), deps });
}

/**
 * Whether the type's records have a public view (the reference's `is_post_type_viewable`): its schema then has a
 * permalink template. Reusable blocks have none, so no `Link: rel="alternate"` and no preview address.
 */
export function isViewable(postType: Pick<PostType, 'schema'>): boolean {
  return postType.schema.properties.permalink_template !== undefined;
}
