import { createPrincipal, type ApplicationPasswordPrincipal, type Principal, type RoleTable } from '../auth/index.js';
import type { UserRecord } from './records.js';

/** The principal of a stored user. */
export function principalOf(user: UserRecord, roles: RoleTable): Principal {
  return createPrincipal({ id: user.id, login: user.login, roles: user.roles, capabilities: user.capabilities }, roles);
}

/** The principal of a user who logged in with one of their application passwords. */
export function applicationPasswordPrincipalOf(user: UserRecord, roles: RoleTable, uuid: string): ApplicationPasswordPrincipal {
  return Object.freeze({ ...principalOf(user, roles), applicationPassword: uuid });
}

/** The uuid of the application password the request was authenticated with, if it was. */
export function authenticatedApplicationPassword(principal: Principal | null): string | null {
  if (principal === null) return null;
  const uuid = (principal as Partial<ApplicationPasswordPrincipal>).applicationPassword;
  return typeof uuid === 'string' ? uuid : null;
}
