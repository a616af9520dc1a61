/** `cms/v2/comments`: comments on posts, pages and media, their moderation, and the posts' `replies`. */
import type { Registry } from '../core/registry.js';
import { followPosts } from './events.js';
import type { CommentsDeps } from './options.js';
import { commentRoutes } from './routes.js';

export { createCommentsApi, type CommentsApi, type NewCommentInput } from './api.js';
export { type CommentOptions, type CommentsDeps } from './options.js';
export { COMMENTS_COLLECTION, type CommentRecord, type CommentStatus } from './record.js';

export function registerComments(registry: Registry, deps: CommentsDeps): void {
  followPosts(deps.postEvents);
  registry.addRoutes('cms/v2', commentRoutes(deps));
}
