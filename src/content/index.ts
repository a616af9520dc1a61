/**
 * Posts, pages and reusable blocks with their revisions and autosaves under `cms/v2`, and the block patterns: the
 * three post types are made once from the kit and handed to each route table; updates of any leave revisions.
 */
import type { Registry } from '../core/registry.js';
import { autosaveRoutes, type AutosaveDeps } from './autosaves/index.js';
import { BLOCK_TYPE, buildBlockSchema, patternRoutes } from './blocks/index.js';
import { definePostType, PAGE_TYPE, POST_TYPE, publishingDuePosts } from './post-type/index.js';
import { postRoutes } from './posts/index.js';
import { keepRevisions, revisionRoutes } from './revisions/index.js';

const NAMESPACE = 'cms/v2';

export type ContentDeps = AutosaveDeps;

export function registerPostsAndPages(registry: Registry, deps: ContentDeps): void {
  const types = {
    posts: definePostType(POST_TYPE, deps),
    pages: definePostType(PAGE_TYPE, deps),
    blocks: definePostType(BLOCK_TYPE, deps, { schema: buildBlockSchema() }),
  };
  registry.addRoutes(NAMESPACE, publishingDuePosts(postRoutes(types), deps));
  // The index lists each type's revision routes, then its autosave routes.
  const history = publishingDuePosts([...revisionRoutes(types), ...autosaveRoutes(types)], deps);
  for (const base of ['/posts/', '/pages/', '/blocks/']) registry.addRoutes(NAMESPACE, history.filter((route) => route.path.startsWith(base)));
  registry.addRoutes(NAMESPACE, patternRoutes(deps));
  keepRevisions(deps.postEvents, types);
}
