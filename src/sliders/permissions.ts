/** The read routes are public, as in the reference; writing sliders takes `manage_options`. */
import { userCan, type CapabilityRules } from '../auth/index.js';
import type { PermissionResult, RequestContext } from '../core/context.js';
import { forbidden } from '../core/errors.js';

export function canManageSliders(context: RequestContext, rules: CapabilityRules): PermissionResult {
  if (userCan(context.user, 'manage_options', undefined, rules)) return true;
  return forbidden(context.user, 'rest_forbidden', 'Sorry, you are not allowed to manage sliders.');
}
