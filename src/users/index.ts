import type { Services } from '../core/context.js';
import type { Registry } from '../core/registry.js';
import { registerUserRoutes } from './routes/register.js';

export { createUsersApi, toUser, type User, type UsersApi, type UsersApiServices } from './api.js';
export {
  type ApplicationPassword,
  type CreatedApplicationPassword,
  type NewApplicationPassword,
} from './application-passwords.js';
export { createBasicAuthenticator, type BasicAuthenticationInput, type BasicAuthenticator, type CredentialMemoryOptions } from './authenticate.js';
export { ensureAdministrator, type AdministratorOptions, type AdministratorSetup } from './bootstrap.js';
export { authenticatedApplicationPassword, principalOf } from './principal.js';
export { USERS, toUserRecord, type ApplicationPasswordRecord, type UserRecord } from './records.js';
export { findUserByEmail, findUserByLogin, findUserBySlug, getUser, type NewUser, type UserChanges } from './store.js';
export { DEFAULT_USER_POSTS_HANDLER, type UserPostsHandler } from './user-posts.js';

/** Registers the users and application-password routes of `cms/v2`. */
export function registerUsers(registry: Registry, services: Services): void {
  registerUserRoutes(registry, services);
}
