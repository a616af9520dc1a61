/**
 * Posts and pages with their revisions and autosaves under `cms/v2`: the two post types are made once from the
 * kit and handed to each route table; updates of either leave revisions.
 */
import type { Registry } from '../core/registry.js';
import { autosaveRoutes, type AutosaveDeps } from './autosaves/index.js';
import { definePostType, PAGE_TYPE, POST_TYPE, publishingDuePosts } from './post-type/index.js';
import { postRoutes } from './posts/index.js';
import { keepRevisions, revisionRoutes } from './revisions/index.js';

const NAMESPACE = 'cms/v2';

export type ContentDeps = AutosaveDeps;

export function registerPostsAndPages(registry: Registry, deps: ContentDeps): void {
  const types = { posts: definePostType(POST_TYPE, deps), pages: definePostType(PAGE_TYPE, deps) };
  registry.addRoutes(NAMESPACE, publishingDuePosts(postRoutes(types), deps));
  // The index lists each type's revision routes, then its autosave routes.
  const history = publishingDuePosts([...revisionRoutes(types), ...autosaveRoutes(types)], deps);
  for (const base of ['/posts/', '/pages/']) registry.addRoutes(NAMESPACE, history.filter((route) => route.path.startsWith(base)));
  keepRevisions(deps.postEvents, types);
}
