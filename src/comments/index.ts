/** `cms/v2/comments`: comments on posts, pages and media, their moderation, and the posts' `replies`. */
import { CMS } from '../core/names.js';
import { defineResource } from '../core/resource.js';
import type { CmsDeps } from '../deps.js';
import { createCommentsApi } from './api.js';
import { followPosts } from './events.js';
import type { CommentOptions, CommentsDeps } from './options.js';
import { commentRoutes } from './routes.js';

export { createCommentsApi, type CommentsApi, type NewCommentInput } from './api.js';
export { type CommentOptions, type CommentsDeps } from './options.js';
export { COMMENTS_COLLECTION, type CommentRecord, type CommentStatus } from './record.js';

export const commentsResource = defineResource({
  namespace: CMS,
  deps: (shared: CmsDeps, options: { comments?: CommentOptions }): CommentsDeps => Object.freeze({ ...shared, comments: options.comments }),
  routes: (deps) => {
    followPosts(deps.postEvents);
    return commentRoutes(deps);
  },
  /** Comments in-process: seeding and moderation. */
  api: { name: 'comments', create: createCommentsApi },
});
