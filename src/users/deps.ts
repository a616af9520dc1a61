/** What the users routes, the users API and Basic authentication are given. */
import type { CapabilityRules, RoleTable } from '../auth/index.js';
import type { Clock } from '../ports/clock.js';
import type { StoragePort } from '../ports/storage.js';
import type { UserPostsHandler } from '../services/user-posts.js';

export interface UsersDeps {
  readonly storage: StoragePort;
  readonly clock: Clock;
  readonly roles: RoleTable;
  readonly capabilityRules: CapabilityRules;
  /** What becomes of a deleted user's posts. */
  readonly userPosts: UserPostsHandler;
  /** Most application passwords one user may hold (default `DEFAULT_MAX_APPLICATION_PASSWORDS`). */
  readonly maxApplicationPasswords?: number;
}
