/**
 * The routes of `mailing/v1`. `/form` is the reference's sign-up route: public and without declared arguments
 * (the index shows `"args": []`, as the reference's). The others are ours: sign-up forms and subscribers for
 * administrators, and the confirmation and unsubscribe links of the local provider.
 */
import { allowAnyone, CREATABLE, DELETABLE, EDITABLE, READABLE, type RouteTable } from '../core/registry.js';
import { formIdArg, formWriteArgs, pagingArgs, subscriberListArgs, tokenArgs } from './args.js';
import type { MailingDeps } from './deps.js';
import {
  confirmHandler,
  createFormHandler,
  deleteFormHandler,
  listForms,
  listSubscribers,
  readFormHandler,
  unsubscribeHandler,
  updateFormHandler,
} from './handlers.js';
import { canManageMailing } from './permissions.js';
import { signupFormSchema, subscriberSchema } from './schema.js';
import { submitSignup } from './signup/submit.js';

export function mailingRoutes(deps: MailingDeps): RouteTable {
  return [
    { path: '/form', endpoints: [
      { methods: CREATABLE, permission: allowAnyone, handler: (c) => submitSignup(c, deps) },
    ] },
    { path: '/forms', schema: signupFormSchema, endpoints: [
      { methods: READABLE, args: pagingArgs(), permission: (c) => canManageMailing(c), handler: (c) => listForms(c, deps) },
      { methods: CREATABLE, args: formWriteArgs(), permission: (c) => canManageMailing(c), handler: (c) => createFormHandler(c, deps) },
    ] },
    { path: '/forms/(?P<id>[\\d]+)', schema: signupFormSchema, endpoints: [
      { methods: READABLE, args: { id: formIdArg() }, permission: (c) => canManageMailing(c), handler: (c) => readFormHandler(c, deps) },
      { methods: EDITABLE, args: { id: formIdArg(), ...formWriteArgs() }, permission: (c) => canManageMailing(c), handler: (c) => updateFormHandler(c, deps) },
      { methods: DELETABLE, args: { id: formIdArg() }, permission: (c) => canManageMailing(c), handler: (c) => deleteFormHandler(c, deps) },
    ] },
    { path: '/subscribers', schema: subscriberSchema, endpoints: [
      { methods: READABLE, args: subscriberListArgs(), permission: (c) => canManageMailing(c), handler: (c) => listSubscribers(c, deps) },
    ] },
    { path: '/confirm', endpoints: [
      { methods: READABLE, args: tokenArgs(), permission: allowAnyone, handler: (c) => confirmHandler(c, deps) },
    ] },
    { path: '/unsubscribe', endpoints: [
      { methods: READABLE, args: tokenArgs(), permission: allowAnyone, handler: (c) => unsubscribeHandler(c, deps) },
    ] },
  ];
}
