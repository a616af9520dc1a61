/** The routes of `cms/v2/comments`. */
import { CREATABLE, DELETABLE, EDITABLE, endpoint, READABLE, type RouteTable } from '../core/registry.js';
import { deleteArgs, listArgs, readArgs, writeArgs } from './args.js';
import { createComment, deleteComment, listComments, readComment, updateComment } from './handlers.js';
import { resolveCommentOptions, type CommentsDeps } from './options.js';
import { canCreateComment, canDeleteComment, canListComments, canReadComment, canUpdateComment } from './permissions.js';
import { commentSchema } from './schema.js';

export function commentRoutes(deps: CommentsDeps): RouteTable {
  const options = resolveCommentOptions(deps.comments);
  return [
    { path: '/comments', schema: commentSchema, cache: { varies: 'caller' }, endpoints: [
      endpoint({ methods: READABLE, args: listArgs(), permission: (c) => canListComments(c, deps), handler: (c) => listComments(c, deps) }),
      endpoint({ methods: CREATABLE, args: writeArgs(true), permission: (c) => canCreateComment(c, deps, options), handler: (c) => createComment(c, deps) }),
    ] },
    { path: '/comments/(?P<id>[\\d]+)', schema: commentSchema, cache: { varies: 'caller' }, endpoints: [
      endpoint({ methods: READABLE, args: readArgs(), permission: (c) => canReadComment(c, deps), handler: (c) => readComment(c, deps) }),
      endpoint({ methods: EDITABLE, args: writeArgs(false), permission: (c) => canUpdateComment(c, deps), handler: (c) => updateComment(c, deps) }),
      endpoint({ methods: DELETABLE, args: deleteArgs(), permission: (c) => canDeleteComment(c, deps), handler: (c) => deleteComment(c, deps) }),
    ] },
  ];
}
