import type { Principal } from '../core/context.js';
import type { Site } from '../core/site.js';
import type { StoragePort } from '../ports/storage.js';
import { reassignPosts, removePostsOf } from './posts.js';

/** Who deletes the user, and on which site: writes made for them run with the deleting user's rights. */
export interface UserDeletionActor {
  user: Principal | null;
  site: Site;
}

/**
 * What happens to a deleted user's posts. The default gives them to another user (`reassign`) or removes them
 * with their revisions; the content module may supply its own (to move them to the trash, say) by setting
 * `services.userPosts` when it registers.
 */
export interface UserPostsHandler {
  reassign(storage: StoragePort, from: number, to: number): Promise<unknown>;
  removeAll(storage: StoragePort, author: number, actor: UserDeletionActor): Promise<unknown>;
}

declare module '../core/context.js' {
  interface Services {
    userPosts?: UserPostsHandler;
  }
}

export const DEFAULT_USER_POSTS_HANDLER: UserPostsHandler = {
  reassign: reassignPosts,
  removeAll: (storage, author) => removePostsOf(storage, author),
};

export function userPostsHandler(services: { userPosts?: UserPostsHandler }): UserPostsHandler {
  return services.userPosts ?? DEFAULT_USER_POSTS_HANDLER;
}
