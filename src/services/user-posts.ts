/**
 * What becomes of a deleted user's posts: the users resource calls it, the post-type kit supplies it
 * (`authorPostsHandler`) through `createCms`.
 */
import type { Principal } from '../core/context.js';
import type { Site } from '../core/site.js';
import type { StoragePort } from '../ports/storage.js';

/** Who deletes the user, and on which site: writes made for them run with the deleting user's rights. */
export interface UserDeletionActor {
  user: Principal | null;
  site: Site;
}

/**
 * What happens to a deleted user's posts: given to another user (`reassign`), or trashed and removed
 * (`removeAll`). Both run inside the deletion's transaction.
 */
export interface UserPostsHandler {
  reassign(storage: StoragePort, from: number, to: number): Promise<unknown>;
  removeAll(storage: StoragePort, author: number, actor: UserDeletionActor): Promise<unknown>;
}
