/**
 * Posts, pages and reusable blocks with their revisions and autosaves under `cms/v2`, and the block patterns: the
 * three post types are made once from the kit and handed to each route table; updates of any leave revisions.
 */
import { CMS } from '../core/names.js';
import { defineResource } from '../core/resource.js';
import { autosaveRoutes, type AutosaveDeps } from './autosaves/index.js';
import { BLOCK_TYPE, buildBlockSchema, patternRoutes } from './blocks/index.js';
import { definePostType, PAGE_TYPE, POST_TYPE, publishingDuePosts } from './post-type/index.js';
import { postRoutes } from './posts/index.js';
import { keepRevisions, revisionRoutes } from './revisions/index.js';

export type ContentDeps = AutosaveDeps;

export const postsAndPagesResource = defineResource({
  namespace: CMS,
  deps: (shared: ContentDeps) => shared,
  routes: (deps) => {
    const types = {
      posts: definePostType(POST_TYPE, deps),
      pages: definePostType(PAGE_TYPE, deps),
      blocks: definePostType(BLOCK_TYPE, deps, { schema: buildBlockSchema() }),
    };
    keepRevisions(deps.postEvents, types);
    // The index lists each type's revision routes, then its autosave routes.
    const history = publishingDuePosts([...revisionRoutes(types), ...autosaveRoutes(types)], deps);
    return [
      ...publishingDuePosts(postRoutes(types), deps),
      ...['/posts/', '/pages/', '/blocks/'].flatMap((base) => history.filter((route) => route.path.startsWith(base))),
      ...patternRoutes(deps),
    ];
  },
});
