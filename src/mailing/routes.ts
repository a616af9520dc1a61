/**
 * The routes of `mailing/v1`. `/form` is the reference's sign-up route: public and without declared arguments
 * (the index shows `"args": []`, as the reference's). The others are ours: sign-up forms and subscribers for
 * administrators, and the confirmation and unsubscribe links of the local provider.
 */
import { pageArgs } from '../core/paging.js';
import { allowAnyone, CREATABLE, DELETABLE, EDITABLE, endpoint, READABLE, type RouteTable } from '../core/registry.js';
import { formIdArg, formWriteArgs, subscriberListArgs, tokenArgs } from './args.js';
import type { MailingDeps } from './deps.js';
import { cancelSubscription, confirmSubscription, createForm, deleteForm, listForms, listSubscribers, readForm, updateForm } from './handlers.js';
import { canManageMailing } from './permissions.js';
import { signupFormSchema, subscriberSchema } from './schema.js';
import { submitSignup } from './signup/submit.js';

export function mailingRoutes(deps: MailingDeps): RouteTable {
  return [
    { path: '/form', endpoints: [
      { methods: CREATABLE, permission: allowAnyone, handler: (c) => submitSignup(c, deps) },
    ] },
    { path: '/forms', schema: signupFormSchema, endpoints: [
      endpoint({ methods: READABLE, args: pageArgs(), permission: (c) => canManageMailing(c), handler: (c) => listForms(c, deps) }),
      endpoint({ methods: CREATABLE, args: formWriteArgs(), permission: (c) => canManageMailing(c), handler: (c) => createForm(c, deps) }),
    ] },
    { path: '/forms/(?P<id>[\\d]+)', schema: signupFormSchema, endpoints: [
      endpoint({ methods: READABLE, args: { id: formIdArg() }, permission: (c) => canManageMailing(c), handler: (c) => readForm(c, deps) }),
      endpoint({ methods: EDITABLE, args: { id: formIdArg(), ...formWriteArgs() }, permission: (c) => canManageMailing(c), handler: (c) => updateForm(c, deps) }),
      endpoint({ methods: DELETABLE, args: { id: formIdArg() }, permission: (c) => canManageMailing(c), handler: (c) => deleteForm(c, deps) }),
    ] },
    { path: '/subscribers', schema: subscriberSchema, endpoints: [
      endpoint({ methods: READABLE, args: subscriberListArgs(), permission: (c) => canManageMailing(c), handler: (c) => listSubscribers(c, deps) }),
    ] },
    { path: '/confirm', endpoints: [
      endpoint({ methods: READABLE, args: tokenArgs(), permission: allowAnyone, handler: (c) => confirmSubscription(c, deps) }),
    ] },
    { path: '/unsubscribe', endpoints: [
      endpoint({ methods: READABLE, args: tokenArgs(), permission: allowAnyone, handler: (c) => cancelSubscription(c, deps) }),
    ] },
  ];
}
