/** Revisions and autosaves of posts and pages under `cms/v2`, and the revisions updates create. */
import type { Services } from '../../core/context.js';
import type { Registry } from '../../core/registry.js';
import { registerAutosaveRoutes } from '../autosaves/routes.js';
import { postEvents } from '../posts/events.js';
import { PAGE_TYPE, POST_TYPE, type PostTypeDefinition } from '../posts/post-types.js';
import { buildItemSchema } from '../posts/schema.js';
import type { PostType } from '../posts/scope.js';
import { revisionOnUpdate } from './create.js';
import { registerRevisionRoutes } from './routes.js';

/** The post types that keep revisions. */
export const REVISIONED_TYPES: readonly PostTypeDefinition[] = [POST_TYPE, PAGE_TYPE];

export function registerRevisionsAndAutosaves(registry: Registry, services: Services): void {
  for (const definition of REVISIONED_TYPES) {
    const postType: PostType = { definition, schema: buildItemSchema(definition) };
    const revisionSchema = registerRevisionRoutes(registry, postType);
    registerAutosaveRoutes(registry, postType, revisionSchema);
  }
  postEvents(services).saved.push(revisionOnUpdate(new Set(REVISIONED_TYPES.map((definition) => definition.type))));
}
