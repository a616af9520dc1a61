import type { Params } from '../../core/args/define.js';
import { filterByContext } from '../../core/shape.js';
import type { AnyParams, PermissionResult, RequestContext } from '../../core/context.js';
import { CmsError, forbidden } from '../../core/errors.js';
import { isEmpty, isNumeric, toInt } from '../../format/php.js';
import { created, item, reply } from '../../core/response.js';
import { notLoggedInError, unknownRoleError } from '../errors.js';
import { usersIn, type UserRecord } from '../records.js';
import { createUser as insertUser, findUserByEmail, findUserBySlug, getUser, updateUser as saveUser, type NewUser, type UserChanges } from '../store.js';
import type { userDeleteArgs, userWriteArgs } from './args.js';
import { can, loadUser, requireUser } from './load.js';

type WriteParams = Params<typeof userWriteArgs>;
import { userSchema } from './schema.js';
import { IN_EDIT_CONTEXT, userItem, userUrl } from './user-item.js';
import type { UsersDeps } from '../deps.js';

/** The user a `/users/{id}` or `/users/me` route acts on: `id` is declared (`userIdArg`) on the first only. */
function targetId(context: RequestContext<AnyParams & { readonly id?: number }>): number {
  if (context.route.endsWith('/users/me')) {
    if (context.user === null) throw notLoggedInError();
    return context.user.id;
  }
  return context.params.id ?? 0;
}

/**
 * Roles may only be given by those allowed to, must exist, and an administrator may not give themselves a role
 * that would take away their right to edit users.
 */
function checkRoleUpdate(context: RequestContext, deps: UsersDeps, userId: number | null, roles: readonly string[]): void {
  for (const role of roles) {
    const definition = deps.roles.get(role);
    if (definition === undefined) throw unknownRoleError(role);
    if (context.user !== null && context.user.id === userId && definition.capabilities.edit_users !== true) {
      throw forbidden(context.user, 'rest_user_invalid_role', 'Sorry, you are not allowed to give users that role.');
    }
  }
}

/** The writable fields sent with the request, as the store takes them. */
function changesFrom(params: WriteParams): UserChanges {
  const changes: UserChanges = {};
  const fields: [keyof UserChanges, 'email' | 'password' | 'name' | 'first_name' | 'last_name' | 'nickname' | 'slug' | 'description' | 'url' | 'locale'][] = [
    ['email', 'email'],
    ['password', 'password'],
    ['name', 'name'],
    ['firstName', 'first_name'],
    ['lastName', 'last_name'],
    ['nickname', 'nickname'],
    ['slug', 'slug'],
    ['description', 'description'],
    ['url', 'url'],
    ['locale', 'locale'],
  ];
  for (const [key, param] of fields) {
    const value = params[param];
    if (value !== undefined) (changes as Record<string, string>)[key] = value;
  }
  if (params.roles !== undefined) changes.roles = params.roles;
  return changes;
}

function requestedRoles(params: WriteParams): string[] {
  return params.roles ?? [];
}

export function canCreateUser(context: RequestContext, deps: UsersDeps): PermissionResult {
  return can(context, deps, 'create_users')
    ? true
    : forbidden(context.user, 'rest_cannot_create_user', 'Sorry, you are not allowed to create new users.');
}

export async function createUser(context: RequestContext<WriteParams>, deps: UsersDeps) {
  if (!isEmpty(context.params.id)) throw new CmsError('rest_user_exists', 'Cannot create existing user.', 400);
  const roles = requestedRoles(context.params);
  if (roles.length > 0) checkRoleUpdate(context, deps, null, roles);
  const { email = '', ...changes } = changesFrom(context.params);
  const input: NewUser = { login: context.params.username ?? '', email, ...changes };
  const user = await insertUser(deps, input);
  return created(userItem(user, context, deps), userUrl(context, user.id), IN_EDIT_CONTEXT);
}

/** Roles need `promote_user` (and nothing else when only roles change); everything else `edit_user`. */
export async function canUpdateUser(context: RequestContext<WriteParams>, deps: UsersDeps): Promise<PermissionResult> {
  const target = await requireUser(context, deps, targetId(context));
  if (requestedRoles(context.params).length > 0) {
    if (!can(context, deps, 'promote_user', target.id)) {
      return forbidden(context.user, 'rest_cannot_edit_roles', 'Sorry, you are not allowed to edit roles of this user.');
    }
    const sent = new Set(Object.keys(context.params));
    sent.add('id');
    if (sent.size === 2 && sent.has('roles')) return true;
  }
  if (!can(context, deps, 'edit_user', target.id)) {
    return forbidden(context.user, 'rest_cannot_edit', 'Sorry, you are not allowed to edit this user.');
  }
  return true;
}

export async function updateUser(context: RequestContext<WriteParams>, deps: UsersDeps) {
  const target = await requireUser(context, deps, targetId(context));
  const { params } = context;
  if (params.email !== undefined) {
    const owner = await findUserByEmail(deps.storage, params.email.trim());
    if (owner !== null && owner.id !== target.id) throw new CmsError('rest_user_invalid_email', 'Invalid email address.', 400);
  }
  if (!isEmpty(params.username) && params.username !== target.login) {
    throw new CmsError('rest_user_invalid_argument', 'Username is not editable.', 400);
  }
  const { slug } = params;
  if (slug !== undefined && !isEmpty(slug) && slug !== target.slug && (await findUserBySlug(deps.storage, slug))) {
    throw new CmsError('rest_user_invalid_slug', 'Invalid slug.', 400);
  }
  const roles = requestedRoles(params);
  if (roles.length > 0) checkRoleUpdate(context, deps, target.id, roles);
  const updated = await saveUser(deps, target.id, changesFrom(params));
  if (updated === null) throw new CmsError('rest_user_invalid_id', 'Invalid user ID.', 404);
  return item(userItem(updated, context, deps), IN_EDIT_CONTEXT);
}

/**
 * `reassign` accepts a number (0 leaves the posts without an author), or `false`/"" for "delete the posts too"; anything else is refused the way the
 * reference's sanitiser refuses it. Absent (as when `Allow` is worked out for another method) it is not judged.
 */
function readReassign(context: RequestContext): number | null | undefined {
  const value = context.params.reassign;
  if (value === undefined) return undefined;
  if (isNumeric(value)) return Math.abs(toInt(value));
  if (isEmpty(value) || value === 'false' || (Array.isArray(value) && value.length === 0)) return null;
  const message = 'Invalid user parameter(s).';
  throw new CmsError('rest_invalid_param', 'Invalid parameter(s): reassign', 400, {
    params: { reassign: message },
    details: { reassign: { code: 'rest_invalid_param', message, data: { status: 400 } } },
  });
}

export async function canDeleteUser(context: RequestContext, deps: UsersDeps): Promise<PermissionResult> {
  readReassign(context);
  const target = await requireUser(context, deps, targetId(context));
  if (!can(context, deps, 'delete_user', target.id)) {
    return forbidden(context.user, 'rest_user_cannot_delete', 'Sorry, you are not allowed to delete this user.');
  }
  return true;
}

/** The user in the edit context, without links: the `previous` of a delete answer. */
function previousData(user: UserRecord, context: RequestContext, deps: UsersDeps): unknown {
  return filterByContext(userItem(user, context, deps).data, userSchema(), 'edit');
}

export async function deleteUser(context: RequestContext<Params<typeof userDeleteArgs>>, deps: UsersDeps) {
  const target = await requireUser(context, deps, targetId(context));
  const reassign = readReassign(context) ?? null;
  if (context.params.force !== true) {
    throw new CmsError('rest_trash_not_supported', "Users do not support trashing. Set 'force=true' to delete.", 501);
  }
  if (reassign !== null && reassign !== 0) {
    if (reassign === target.id || (await loadUser(context, deps, reassign)) === null) {
      throw new CmsError('rest_user_invalid_reassign', 'Invalid user ID for reassignment.', 400);
    }
  }
  const previous = previousData(target, context, deps);
  const posts = deps.userPosts;
  await deps.storage.transaction(async (tx) => {
    if ((await getUser(tx, target.id)) === null) throw new CmsError('rest_cannot_delete', 'The user cannot be deleted.', 500);
    if (reassign !== null) await posts.reassign(tx, target.id, reassign);
    else await posts.removeAll(tx, target.id, { user: context.user, site: context.site });
    await usersIn(tx).remove(target.id);
  });
  return reply({ deleted: true, previous });
}
