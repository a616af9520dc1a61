/**
 * What happens to a deleted user's posts when they are not given to someone else: posts and pages go to the
 * trash, as the reference's `wp_delete_user` does through `wp_delete_post`; other records are removed.
 */
import type { Services } from '../../core/context.js';
import { DEFAULT_USER_POSTS_HANDLER, type UserPostsHandler } from '../../users/user-posts.js';
import { removePostsOf } from '../../users/posts.js';
import { POSTS_COLLECTION, type PostRecord } from './record.js';
import { trashPost } from './save.js';
import { buildScope, type PostType } from './scope.js';

export function authorPostsHandler(services: Services, postTypes: readonly PostType[]): UserPostsHandler {
  const trashedTypes = postTypes.map((postType) => postType.definition.type);
  return {
    reassign: DEFAULT_USER_POSTS_HANDLER.reassign,
    async removeAll(storage, author, actor) {
      const source = { services, site: actor.site, user: actor.user, wantsField: () => true, url: actor.site.apiLink };
      for (const postType of postTypes) {
        const { items } = await storage.list(POSTS_COLLECTION, {
          where: [
            { field: 'author', op: 'eq', value: author },
            { field: 'type', op: 'eq', value: postType.definition.type },
            { field: 'status', op: 'ne', value: 'trash' },
          ],
        });
        const environment = buildScope(source, postType).saveEnvironment(storage);
        for (const post of items) await trashPost(post as PostRecord, environment);
      }
      return removePostsOf(storage, author, trashedTypes);
    },
  };
}
