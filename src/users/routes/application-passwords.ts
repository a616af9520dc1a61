import type { Params } from '../../core/args/define.js';
import type { Item, PermissionResult, RequestContext } from '../../core/context.js';
import { CmsError, forbidden } from '../../core/errors.js';
import { collection, created, item, reply } from '../../core/response.js';
import { filterByContext } from '../../core/shape.js';
import {
  createApplicationPassword,
  getApplicationPassword,
  listApplicationPasswords,
  renameApplicationPassword,
  revokeAllApplicationPasswords,
  revokeApplicationPassword,
  type ApplicationPassword,
} from '../application-passwords.js';
import { applicationPasswordNotFoundError, invalidUserIdError, notLoggedInError } from '../errors.js';
import { authenticatedApplicationPassword } from '../principal.js';
import type { UserRecord } from '../records.js';
import type { applicationPasswordWriteArgs } from './args.js';
import { can, requireUser } from './load.js';
import { applicationPasswordSchema } from './schema.js';
import { IN_EDIT_CONTEXT } from './user-item.js';
import type { UsersDeps } from '../deps.js';

/** The user named by `user_id`: a number, or `me` (which needs someone logged in). */
async function routeUser(context: RequestContext, deps: UsersDeps): Promise<UserRecord> {
  const requested = String(context.params.user_id ?? '');
  if (requested === 'me') {
    if (context.user === null) throw notLoggedInError();
    return requireUser(context, deps, context.user.id);
  }
  const id = Number.parseInt(requested, 10);
  if (!(id > 0)) throw invalidUserIdError();
  return requireUser(context, deps, id);
}

function passwordUrl(context: RequestContext, userId: number, uuid: string): string {
  return context.url(`/cms/v2/users/${userId}/application-passwords/${uuid}`);
}

function passwordItem(context: RequestContext, user: UserRecord, password: ApplicationPassword, shownOnce?: string): Item {
  const data: Record<string, unknown> = {
    uuid: password.uuid,
    app_id: password.appId,
    name: password.name,
    created: password.created,
    last_used: password.lastUsed,
    last_ip: password.lastIp,
  };
  if (shownOnce !== undefined) data.password = shownOnce;
  return { data, links: { self: [{ href: passwordUrl(context, user.id, password.uuid) }] } };
}

async function requirePassword(context: RequestContext, deps: UsersDeps, user: UserRecord): Promise<ApplicationPassword> {
  const password = await getApplicationPassword(deps.storage, user.id, String(context.params.uuid ?? ''));
  if (password === null) throw applicationPasswordNotFoundError();
  return password;
}

/** A permission check: the target user must exist and the caller must hold `capability` for them. */
function permission(capability: string, code: string, message: string) {
  return async (context: RequestContext, deps: UsersDeps): Promise<PermissionResult> => {
    const user = await routeUser(context, deps);
    return can(context, deps, capability, user.id) ? true : forbidden(context.user, code, message);
  };
}

export const canListPasswords = permission(
  'list_app_passwords',
  'rest_cannot_list_application_passwords',
  'Sorry, you are not allowed to list application passwords for this user.',
);
export const canCreatePassword = permission(
  'create_app_password',
  'rest_cannot_create_application_passwords',
  'Sorry, you are not allowed to create application passwords for this user.',
);
export const canDeletePasswords = permission(
  'delete_app_passwords',
  'rest_cannot_delete_application_passwords',
  'Sorry, you are not allowed to delete application passwords for this user.',
);
export const canReadPassword = permission(
  'read_app_password',
  'rest_cannot_read_application_password',
  'Sorry, you are not allowed to read this application password.',
);
export const canEditPassword = permission(
  'edit_app_password',
  'rest_cannot_edit_application_password',
  'Sorry, you are not allowed to edit this application password.',
);
export const canDeletePassword = permission(
  'delete_app_password',
  'rest_cannot_delete_application_password',
  'Sorry, you are not allowed to delete this application password.',
);

export async function listPasswords(context: RequestContext, deps: UsersDeps) {
  const user = await routeUser(context, deps);
  const passwords = await listApplicationPasswords(deps.storage, user.id);
  return collection(passwords.map((password) => passwordItem(context, user, password)));
}

export async function createPassword(context: RequestContext<Params<typeof applicationPasswordWriteArgs>>, deps: UsersDeps) {
  const user = await routeUser(context, deps);
  const { params } = context;
  const appId = params.app_id !== undefined && params.app_id !== '' && !params.uuid ? params.app_id : undefined;
  const { password, item: stored } = await createApplicationPassword(deps.storage, deps.clock, user.id, {
    name: params.name ?? '',
    ...(appId === undefined ? {} : { appId }),
  }, undefined, deps.maxApplicationPasswords);
  const record = passwordItem(context, user, stored, password);
  return created(record, passwordUrl(context, user.id, stored.uuid), IN_EDIT_CONTEXT);
}

export async function deletePasswords(context: RequestContext, deps: UsersDeps) {
  const user = await routeUser(context, deps);
  const count = await revokeAllApplicationPasswords(deps.storage, user.id);
  return reply({ deleted: true, count });
}

export async function readPassword(context: RequestContext, deps: UsersDeps) {
  const user = await routeUser(context, deps);
  return item(passwordItem(context, user, await requirePassword(context, deps, user)));
}

export async function renamePassword(context: RequestContext<Params<typeof applicationPasswordWriteArgs>>, deps: UsersDeps) {
  const user = await routeUser(context, deps);
  const current = await requirePassword(context, deps, user);
  const renamed = await renameApplicationPassword(deps.storage, user.id, current.uuid, context.params.name ?? '');
  if (renamed === null) throw applicationPasswordNotFoundError();
  return item(passwordItem(context, user, renamed), IN_EDIT_CONTEXT);
}

export async function deletePassword(context: RequestContext, deps: UsersDeps) {
  const user = await routeUser(context, deps);
  const current = await requirePassword(context, deps, user);
  const previous = filterByContext(passwordItem(context, user, current).data, applicationPasswordSchema(), 'edit');
  if (!(await revokeApplicationPassword(deps.storage, user.id, current.uuid))) throw applicationPasswordNotFoundError();
  return reply({ deleted: true, previous });
}

/** Introspection is only about the caller's own request. */
export async function canIntrospect(context: RequestContext, deps: UsersDeps): Promise<PermissionResult> {
  const user = await routeUser(context, deps);
  if (context.user?.id !== user.id) {
    return forbidden(
      context.user,
      'rest_cannot_introspect_app_password_for_non_authenticated_user',
      'The authenticated application password can only be introspected for the current user.',
    );
  }
  return true;
}

export async function introspectPassword(context: RequestContext, deps: UsersDeps) {
  const user = await routeUser(context, deps);
  const uuid = authenticatedApplicationPassword(context.user);
  if (uuid === null) throw new CmsError('rest_no_authenticated_app_password', 'Cannot introspect application password.', 404);
  const password = await getApplicationPassword(deps.storage, user.id, uuid);
  // The password authenticated this very request; if it is gone now, something removed it meanwhile.
  if (password === null) throw applicationPasswordNotFoundError(500);
  return item(passwordItem(context, user, password));
}
