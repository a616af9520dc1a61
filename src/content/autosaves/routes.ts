/** The routes of `cms/v2/{posts,pages,blocks}/{id}/autosaves` and `…/{parent}/autosaves/{id}`. */
import { CREATABLE, endpoint, READABLE, type RouteTable } from '../../core/registry.js';
import { buildRevisionSchema, readPermission } from '../revisions/index.js';
import { autosaveCreateArgs, autosaveListArgs, autosaveReadArgs } from './args.js';
import type { AutosavedType } from './deps.js';
import { createAutosave, listAutosaves, readAutosave } from './handlers.js';
import { createPermission } from './permissions.js';
import { buildAutosaveSchema } from './schema.js';

export function autosaveRoutes({ posts, pages, blocks }: { posts: AutosavedType; pages: AutosavedType; blocks: AutosavedType }): RouteTable {
  const postAutosave = buildAutosaveSchema(buildRevisionSchema(posts.definition.type, posts.schema));
  const pageAutosave = buildAutosaveSchema(buildRevisionSchema(pages.definition.type, pages.schema));
  const blockAutosave = buildAutosaveSchema(buildRevisionSchema(blocks.definition.type, blocks.schema));
  // The single autosave is guarded like a revision (its message speaks of revisions, as the reference's does).
  return [
    { path: '/posts/(?P<id>[\\d]+)/autosaves', schema: () => postAutosave, endpoints: [
      { methods: READABLE, args: autosaveListArgs(), permission: (c) => readPermission(c, posts, 'id', 'autosaves'), handler: (c) => listAutosaves(c, posts) },
      endpoint({ methods: CREATABLE, args: autosaveCreateArgs(posts), permission: (c) => createPermission(c, posts), handler: (c) => createAutosave(c, posts) }),
    ] },
    { path: '/posts/(?P<parent>[\\d]+)/autosaves/(?P<id>[\\d]+)', schema: () => postAutosave, endpoints: [
      { methods: READABLE, args: autosaveReadArgs(), permission: (c) => readPermission(c, posts, 'parent', 'revisions'), handler: (c) => readAutosave(c, posts) },
    ] },
    { path: '/pages/(?P<id>[\\d]+)/autosaves', schema: () => pageAutosave, endpoints: [
      { methods: READABLE, args: autosaveListArgs(), permission: (c) => readPermission(c, pages, 'id', 'autosaves'), handler: (c) => listAutosaves(c, pages) },
      endpoint({ methods: CREATABLE, args: autosaveCreateArgs(pages), permission: (c) => createPermission(c, pages), handler: (c) => createAutosave(c, pages) }),
    ] },
    { path: '/pages/(?P<parent>[\\d]+)/autosaves/(?P<id>[\\d]+)', schema: () => pageAutosave, endpoints: [
      { methods: READABLE, args: autosaveReadArgs(), permission: (c) => readPermission(c, pages, 'parent', 'revisions'), handler: (c) => readAutosave(c, pages) },
    ] },
    { path: '/blocks/(?P<id>[\\d]+)/autosaves', schema: () => blockAutosave, endpoints: [
      { methods: READABLE, args: autosaveListArgs(), permission: (c) => readPermission(c, blocks, 'id', 'autosaves'), handler: (c) => listAutosaves(c, blocks) },
      endpoint({ methods: CREATABLE, args: autosaveCreateArgs(blocks), permission: (c) => createPermission(c, blocks), handler: (c) => createAutosave(c, blocks) }),
    ] },
    { path: '/blocks/(?P<parent>[\\d]+)/autosaves/(?P<id>[\\d]+)', schema: () => blockAutosave, endpoints: [
      { methods: READABLE, args: autosaveReadArgs(), permission: (c) => readPermission(c, blocks, 'parent', 'revisions'), handler: (c) => readAutosave(c, blocks) },
    ] },
  ];
}
