/** Who may use the oEmbed routes: the embed route is public; the proxy needs `edit_posts`. */
import { userCan, type CapabilityRules } from '../auth/index.js';
import type { PermissionResult, RequestContext } from '../core/context.js';
import { forbidden } from '../core/errors.js';

export function canProxy(context: RequestContext, rules: CapabilityRules): PermissionResult {
  if (userCan(context.user, 'edit_posts', undefined, rules)) return true;
  return forbidden(context.user, 'rest_forbidden', 'Sorry, you are not allowed to make proxied oEmbed requests.');
}
