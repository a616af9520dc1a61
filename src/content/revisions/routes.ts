/** The routes of `cms/v2/{posts,pages}/{parent}/revisions` and `…/revisions/{id}`. */
import { DELETABLE, endpoint, READABLE, type RouteTable } from '../../core/registry.js';
import type { PostType } from '../post-type/index.js';
import { revisionDeleteArgs, revisionListArgs, revisionReadArgs } from './args.js';
import { deleteRevision, listRevisions, readRevision } from './handlers.js';
import { deletePermission, readPermission } from './permissions.js';
import { buildRevisionSchema } from './schema.js';

/** The post types that keep revisions. */
export interface RevisionedTypes {
  posts: PostType;
  pages: PostType;
  blocks: PostType;
}

export function revisionRoutes({ posts, pages, blocks }: RevisionedTypes): RouteTable {
  const postRevision = buildRevisionSchema(posts.definition.type, posts.schema);
  const pageRevision = buildRevisionSchema(pages.definition.type, pages.schema);
  const blockRevision = buildRevisionSchema(blocks.definition.type, blocks.schema);
  return [
    { path: '/posts/(?P<parent>[\\d]+)/revisions', schema: () => postRevision, endpoints: [
      endpoint({ methods: READABLE, args: revisionListArgs(), permission: (c) => readPermission(c, posts, 'parent', 'revisions'), handler: (c) => listRevisions(c, posts) }),
    ] },
    { path: '/posts/(?P<parent>[\\d]+)/revisions/(?P<id>[\\d]+)', schema: () => postRevision, endpoints: [
      endpoint({ methods: READABLE, args: revisionReadArgs(), permission: (c) => readPermission(c, posts, 'parent', 'revisions'), handler: (c) => readRevision(c, posts) }),
      endpoint({ methods: DELETABLE, args: revisionDeleteArgs(), permission: (c) => deletePermission(c, posts), handler: (c) => deleteRevision(c, posts, postRevision) }),
    ] },
    { path: '/pages/(?P<parent>[\\d]+)/revisions', schema: () => pageRevision, endpoints: [
      endpoint({ methods: READABLE, args: revisionListArgs(), permission: (c) => readPermission(c, pages, 'parent', 'revisions'), handler: (c) => listRevisions(c, pages) }),
    ] },
    { path: '/pages/(?P<parent>[\\d]+)/revisions/(?P<id>[\\d]+)', schema: () => pageRevision, endpoints: [
      endpoint({ methods: READABLE, args: revisionReadArgs(), permission: (c) => readPermission(c, pages, 'parent', 'revisions'), handler: (c) => readRevision(c, pages) }),
      endpoint({ methods: DELETABLE, args: revisionDeleteArgs(), permission: (c) => deletePermission(c, pages), handler: (c) => deleteRevision(c, pages, pageRevision) }),
    ] },
    { path: '/blocks/(?P<parent>[\\d]+)/revisions', schema: () => blockRevision, endpoints: [
      endpoint({ methods: READABLE, args: revisionListArgs(), permission: (c) => readPermission(c, blocks, 'parent', 'revisions'), handler: (c) => listRevisions(c, blocks) }),
    ] },
    { path: '/blocks/(?P<parent>[\\d]+)/revisions/(?P<id>[\\d]+)', schema: () => blockRevision, endpoints: [
      endpoint({ methods: READABLE, args: revisionReadArgs(), permission: (c) => readPermission(c, blocks, 'parent', 'revisions'), handler: (c) => readRevision(c, blocks) }),
      endpoint({ methods: DELETABLE, args: revisionDeleteArgs(), permission: (c) => deletePermission(c, blocks), handler: (c) => deleteRevision(c, blocks, blockRevision) }),
    ] },
  ];
}
