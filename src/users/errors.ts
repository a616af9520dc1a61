import { CmsError } from '../core/errors.js';

/** Errors of the users module, shared by the in-process API and the routes. */

export function invalidUserIdError(): CmsError {
  return new CmsError('rest_user_invalid_id', 'Invalid user ID.', 404);
}

export function notLoggedInError(): CmsError {
  return new CmsError('rest_not_logged_in', 'You are not currently logged in.', 401);
}

export function unknownRoleError(role: string): CmsError {
  return new CmsError('rest_user_invalid_role', `The role ${role} does not exist.`, 400);
}

export function applicationPasswordNotFoundError(status = 404): CmsError {
  return new CmsError('rest_application_password_not_found', 'Application password not found.', status);
}
