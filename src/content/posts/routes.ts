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
}

export function postRoutes({ posts, pages }: PostsAndPages): RouteTable {
  return [
    { path: '/posts', schema: () => posts.schema, allowBatch: true, cache: true, endpoints: [
      endpoint({ methods: READABLE, args: listArgs(posts), permission: (c) => listPermission(c, posts), handler: (c) => listPosts(c, posts) }),
      { methods: CREATABLE, args: createArgs(posts), permission: (c) => createPermission(c, posts), handler: (c) => createPost(c, posts) },
    ] },
    { path: '/posts/(?P<id>[\\d]+)', schema: () => posts.schema, allowBatch: true, cache: true, endpoints: [
      { methods: READABLE, args: readArgs(), permission: (c) => readPermission(c, posts), handler: (c) => readPost(c, posts) },
      { methods: EDITABLE, args: updateArgs(posts), permission: (c) => updatePermission(c, posts), handler: (c) => updatePost(c, posts) },
      { methods: DELETABLE, args: deleteArgs(), permission: (c) => deletePermission(c, posts), handler: (c) => removePost(c, posts) },
    ] },
    { path: '/pages', schema: () => pages.schema, allowBatch: true, cache: true, endpoints: [
      endpoint({ methods: READABLE, args: listArgs(pages), permission: (c) => listPermission(c, pages), handler: (c) => listPosts(c, pages) }),
      { methods: CREATABLE, args: createArgs(pages), permission: (c) => createPermission(c, pages), handler: (c) => createPost(c, pages) },
    ] },
    { path: '/pages/(?P<id>[\\d]+)', schema: () => pages.schema, allowBatch: true, cache: true, endpoints: [
      { methods: READABLE, args: readArgs(), permission: (c) => readPermission(c, pages), handler: (c) => readPost(c, pages) },
      { methods: EDITABLE, args: updateArgs(pages), permission: (c) => updatePermission(c, pages), handler: (c) => updatePost(c, pages) },
      { methods: DELETABLE, args: deleteArgs(), permission: (c) => deletePermission(c, pages), handler: (c) => removePost(c, pages) },
    ] },
  ];
}
