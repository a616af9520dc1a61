import { userCan } from '../../auth/index.js';
import type { RequestContext } from '../../core/context.js';
import { invalidUserIdError } from '../errors.js';
import type { UserRecord } from '../records.js';
import { getUser } from '../store.js';
import type { UsersDeps } from '../deps.js';

/** A user loaded once per request (permission checks and handlers share it). */
export function loadUser(context: RequestContext, deps: Pick<UsersDeps, 'storage'>, id: number): Promise<UserRecord | null> {
  return context.memo(`user:${id}`, () => getUser(deps.storage, id));
}

/** The user a route's id names, or `rest_user_invalid_id` (404). */
export async function requireUser(context: RequestContext, deps: Pick<UsersDeps, 'storage'>, id: number): Promise<UserRecord> {
  const user = await loadUser(context, deps, id);
  if (user === null) throw invalidUserIdError();
  return user;
}

/** Whether the caller has a (meta) capability, with the site's rules. */
export function can(context: RequestContext, deps: Pick<UsersDeps, 'capabilityRules'>, capability: string, userId?: number): boolean {
  const subject = userId === undefined ? undefined : { userId };
  return userCan(context.user, capability, subject, deps.capabilityRules);
}

/** A parameter the reference treats as set (`isset`): present and not null. */
export function isSet(context: RequestContext, name: string): boolean {
  const value = context.params[name];
  return value !== undefined && value !== null;
}
