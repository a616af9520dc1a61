import type { Params } from '../../core/args/define.js';
import type { PermissionResult, RequestContext } from '../../core/context.js';
import { forbidden } from '../../core/errors.js';
import { collection, item } from '../../core/response.js';
import { paging } from '../../core/paging.js';
import { invalidUserIdError, notLoggedInError } from '../errors.js';
import { AUTHORED_POST_TYPES, countVisiblePosts, restPostTypes } from '../posts.js';
import { usersIn } from '../records.js';
import { isEmpty } from '../../format/php.js';
import { can, loadUser, requireUser } from './load.js';
import type { contextArg } from '../../core/context-arg.js';
import type { userCollectionArgs, userIdArg } from './args.js';
import { planUserList } from './user-query.js';
import { userItem } from './user-item.js';
import type { UsersDeps } from '../deps.js';

/** `GET /users`: filters and orderings that reveal more than public author data need `list_users`. */
export function canListUsers(context: RequestContext, deps: UsersDeps): PermissionResult {
  const { params, user } = context;
  const mayListUsers = can(context, deps, 'list_users');
  if (!isEmpty(params.roles) && !mayListUsers) {
    return forbidden(user, 'rest_user_cannot_view', 'Sorry, you are not allowed to filter users by role.');
  }
  if (!isEmpty(params.capabilities) && !mayListUsers) {
    return forbidden(user, 'rest_user_cannot_view', 'Sorry, you are not allowed to filter users by capability.');
  }
  if (context.context === 'edit' && !mayListUsers) {
    return forbidden(user, 'rest_forbidden_context', 'Sorry, you are not allowed to edit users.');
  }
  if ((params.orderby === 'email' || params.orderby === 'registered_date') && !mayListUsers) {
    return forbidden(user, 'rest_forbidden_orderby', 'Sorry, you are not allowed to order users by this parameter.');
  }
  if (params.who === 'authors') {
    const { postTypes } = deps.capabilityRules;
    const mayEditSomeType = AUTHORED_POST_TYPES.some((type) => {
      const names = postTypes[type];
      return names !== undefined && can(context, deps, names.edit_posts);
    });
    if (!mayEditSomeType) {
      return forbidden(user, 'rest_forbidden_who', 'Sorry, you are not allowed to query users by this parameter.');
    }
  }
  return true;
}

export async function listUsers(context: RequestContext<Params<typeof userCollectionArgs>>, deps: UsersDeps) {
  const plan = await planUserList(context, deps);
  const { items, total = 0 } = await usersIn(deps.storage).list(plan.query);
  const records = items
    .filter((user) => context.context !== 'edit' || can(context, deps, 'edit_user', user.id))
    .map((user) => userItem(user, context, deps));
  return collection(records, paging(total, plan.page, plan.perPage));
}

/**
 * `GET /users/{id}`: yourself always; others in edit context only with `edit_user`; otherwise the user must be
 * editable or listable by the caller, or have posts the caller can see.
 */
export async function canReadUser(context: RequestContext<Params<{ id: ReturnType<typeof userIdArg> }>>, deps: UsersDeps): Promise<PermissionResult> {
  const target = await requireUser(context, deps, context.params.id);
  if (context.user !== null && context.user.id === target.id) return true;
  const mayEdit = can(context, deps, 'edit_user', target.id);
  if (context.context === 'edit' && !mayEdit) {
    return forbidden(context.user, 'rest_forbidden_context', 'Sorry, you are not allowed to edit this user.');
  }
  if (!mayEdit && !can(context, deps, 'list_users')) {
    const { storage, capabilityRules } = deps;
    const visiblePosts = await context.memo(`user-posts:${target.id}`, () =>
      countVisiblePosts(storage, target.id, restPostTypes(capabilityRules), context.user, capabilityRules),
    );
    if (visiblePosts === 0) return forbidden(context.user, 'rest_user_cannot_view', 'Sorry, you are not allowed to list users.');
  }
  return true;
}

export async function readUser(context: RequestContext<Params<{ id: ReturnType<typeof userIdArg>; context: ReturnType<typeof contextArg> }>>, deps: UsersDeps) {
  return item(userItem(await requireUser(context, deps, context.params.id), context, deps));
}

/** `GET /users/me`. */
export async function readCurrentUser(context: RequestContext, deps: UsersDeps) {
  if (context.user === null) throw notLoggedInError();
  const user = await loadUser(context, deps, context.user.id);
  if (user === null) throw invalidUserIdError();
  return item(userItem(user, context, deps));
}
