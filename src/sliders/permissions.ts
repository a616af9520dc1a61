/** The read routes are public, as in the reference; writing sliders takes `manage_options`. */
import { userCan } from '../auth/index.js';
import type { PermissionResult, RequestContext } from '../core/context.js';
import { forbidden } from '../core/errors.js';
import type { SlidersDeps } from './handlers.js';

export function canManageSliders(context: RequestContext, deps: Pick<SlidersDeps, 'capabilityRules'>): PermissionResult {
  if (userCan(context.user, 'manage_options', undefined, deps.capabilityRules)) return true;
  return forbidden(context.user, 'rest_forbidden', 'Sorry, you are not allowed to manage sliders.');
}
