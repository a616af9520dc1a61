/** Who may manage webhooks: users who may manage the site's options. */
import type { PermissionResult, RequestContext } from '../core/context.js';
import { forbidden } from '../core/errors.js';

export function canManageWebhooks(context: RequestContext): PermissionResult {
  return context.user?.capabilities.has('manage_options') === true ? true : forbidden(context.user);
}
