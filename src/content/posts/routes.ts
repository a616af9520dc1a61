/** The routes of `cms/v2/posts` and `cms/v2/pages`: one post-type kit, two types. */
import { CREATABLE, DELETABLE, EDITABLE, endpoint, READABLE, type RouteTable } from '../../core/registry.js';
import {
  createPermission, createPost, deletePermission, listPermission, listPosts, readPermission, readPost, removePost,
  updatePermission, updatePost, type PostType,
} from '../post-type/index.js';
import { createArgs, deleteArgs, listArgs, readArgs, updateArgs } from './args.js';

export interface PostsAndPages {
  posts: PostType;
  pages: PostType;
  /** Reusable blocks (`wp_block`). */
  blocks: PostType;
}

export function postRoutes({ posts, pages, blocks }: PostsAndPages): RouteTable {
  return [
    { path: '/posts', schema: () => posts.schema, allowBatch: true, cache: { varies: 'caller' }, endpoints: [
      endpoint({ methods: READABLE, args: listArgs(posts), permission: (c) => listPermission(c, posts), handler: (c) => listPosts(c, posts) }),
      endpoint({ methods: CREATABLE, args: createArgs(posts), permission: (c) => createPermission(c, posts), handler: (c) => createPost(c, posts) }),
    ] },
    { path: '/posts/(?P<id>[\\d]+)', schema: () => posts.schema, allowBatch: true, cache: { varies: 'caller' }, endpoints: [
      endpoint({ methods: READABLE, args: readArgs(), permission: (c) => readPermission(c, posts), handler: (c) => readPost(c, posts) }),
      endpoint({ methods: EDITABLE, args: updateArgs(posts), permission: (c) => updatePermission(c, posts), handler: (c) => updatePost(c, posts) }),
      endpoint({ methods: DELETABLE, args: deleteArgs(), permission: (c) => deletePermission(c, posts), handler: (c) => removePost(c, posts) }),
    ] },
    { path: '/pages', schema: () => pages.schema, allowBatch: true, cache: { varies: 'caller' }, endpoints: [
      endpoint({ methods: READABLE, args: listArgs(pages), permission: (c) => listPermission(c, pages), handler: (c) => listPosts(c, pages) }),
      endpoint({ methods: CREATABLE, args: createArgs(pages), permission: (c) => createPermission(c, pages), handler: (c) => createPost(c, pages) }),
    ] },
    { path: '/pages/(?P<id>[\\d]+)', schema: () => pages.schema, allowBatch: true, cache: { varies: 'caller' }, endpoints: [
      endpoint({ methods: READABLE, args: readArgs(), permission: (c) => readPermission(c, pages), handler: (c) => readPost(c, pages) }),
      endpoint({ methods: EDITABLE, args: updateArgs(pages), permission: (c) => updatePermission(c, pages), handler: (c) => updatePost(c, pages) }),
      endpoint({ methods: DELETABLE, args: deleteArgs(), permission: (c) => deletePermission(c, pages), handler: (c) => removePost(c, pages) }),
    ] },
    { path: '/blocks', schema: () => blocks.schema, allowBatch: true, cache: { varies: 'caller' }, endpoints: [
      endpoint({ methods: READABLE, args: listArgs(blocks), permission: (c) => listPermission(c, blocks), handler: (c) => listPosts(c, blocks) }),
      endpoint({ methods: CREATABLE, args: createArgs(blocks), permission: (c) => createPermission(c, blocks), handler: (c) => createPost(c, blocks) }),
    ] },
    { path: '/blocks/(?P<id>[\\d]+)', schema: () => blocks.schema, allowBatch: true, cache: { varies: 'caller' }, endpoints: [
      endpoint({ methods: READABLE, args: readArgs(), permission: (c) => readPermission(c, blocks), handler: (c) => readPost(c, blocks) }),
      endpoint({ methods: EDITABLE, args: updateArgs(blocks), permission: (c) => updatePermission(c, blocks), handler: (c) => updatePost(c, blocks) }),
      endpoint({ methods: DELETABLE, args: deleteArgs(), permission: (c) => deletePermission(c, blocks), handler: (c) => removePost(c, blocks) }),
    ] },
  ];
}
