/** `cms/v2/users` and application passwords; users in-process; HTTP Basic authentication with application passwords. */
import { CMS } from '../core/names.js';
import { defineResource } from '../core/resource.js';
import type { SiteSettings } from '../core/site.js';
import { createUsersApi, type UsersApiServices } from './api.js';
import type { UsersDeps } from './deps.js';
import { userRoutes } from './routes/routes.js';

export { createUsersApi, toUser, type User, type UsersApi, type UsersApiServices } from './api.js';
export {
  DEFAULT_MAX_APPLICATION_PASSWORDS,
  type ApplicationPassword,
  type CreatedApplicationPassword,
  type NewApplicationPassword,
} from './application-passwords.js';
export { createBasicAuthenticator, type BasicAuthenticationInput, type BasicAuthenticator, type CredentialMemoryOptions } from './authenticate.js';
export { ensureAdministrator, type AdministratorOptions, type AdministratorSetup } from './bootstrap.js';
export { authenticatedApplicationPassword, principalOf } from './principal.js';
export { escapeSpecialCharacters } from './fields.js';
export { AVATAR_SIZES } from './routes/schema.js';
export { avatarUrls } from './routes/user-item.js';
export { USERS, toUserRecord, type ApplicationPasswordRecord, type UserRecord } from './records.js';
export { findUserByEmail, findUserByLogin, findUserBySlug, getUser, type NewUser, type UserChanges } from './store.js';
export type { UserDeletionActor, UserPostsHandler } from '../services/user-posts.js';
export type { UsersDeps } from './deps.js';

export const usersResource = defineResource({
  namespace: CMS,
  deps: (shared: UsersDeps & UsersApiServices & { site: SiteSettings }) => shared,
  routes: userRoutes,
  /** Users and their application passwords, in-process: seeding and administration without HTTP. */
  api: { name: 'users', create: (deps) => createUsersApi(deps, deps.site) },
});
