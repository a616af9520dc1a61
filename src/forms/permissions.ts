/**
 * Who may do what with forms, as the reference maps its capabilities: reading the list needs `edit_posts`
 * (contributors and up), everything else on forms `publish_pages` (editors and up). Every refusal is a 403
 * `wpcf7_forbidden`, anonymous callers included, and comes before any lookup, so a refusal says nothing about
 * whether a form exists.
 */
import { userCan } from '../auth/index.js';
import type { PermissionResult, RequestContext } from '../core/context.js';
import { CmsError } from '../core/errors.js';
import type { FormsDeps } from './options.js';

function requireCapability(context: RequestContext, deps: FormsDeps, capability: string, message: string): PermissionResult {
  return userCan(context.user, capability, undefined, deps.capabilityRules) || new CmsError('wpcf7_forbidden', message, 403);
}

export function canListForms(context: RequestContext, deps: FormsDeps): PermissionResult {
  return requireCapability(context, deps, 'edit_posts', 'You are not allowed to access contact forms.');
}

export function canCreateForms(context: RequestContext, deps: FormsDeps): PermissionResult {
  return requireCapability(context, deps, 'publish_pages', 'You are not allowed to create a contact form.');
}

/** Reading, updating and deleting one form, and listing its submissions. */
export function canEditForm(context: RequestContext, deps: FormsDeps): PermissionResult {
  return requireCapability(context, deps, 'publish_pages', 'You are not allowed to access the requested contact form.');
}
