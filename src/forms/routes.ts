/**
 * The `forms/v1` route table. The reference declares no arguments, so every endpoint shows `"args": []` in the
 * index; the submissions list is ours (the reference keeps no submissions).
 */
import { allowAnyone, CREATABLE, DELETABLE, EDITABLE, endpoint, READABLE, type RouteTable } from '../core/registry.js';
import { submissionListArgs } from './args.js';
import { submitFeedback } from './feedback.js';
import { createForm, deleteForm, listForms, listSubmissions, readFeedbackSchema, readForm, readRefill, updateForm } from './handlers.js';
import { formsRuntime, type FormsDeps, type FormsOptions } from './options.js';
import { canCreateForms, canEditForm, canListForms } from './permissions.js';
import { metaSchema } from './swv/index.js';

export function formRoutes(deps: FormsDeps, options: FormsOptions = {}): RouteTable {
  const runtime = formsRuntime(deps, options);
  return [
    { path: '/contact-forms', endpoints: [
      { methods: READABLE, permission: (c) => canListForms(c, deps), handler: (c) => listForms(c, runtime) },
      { methods: CREATABLE, permission: (c) => canCreateForms(c, deps), handler: (c) => createForm(c, runtime) },
    ] },
    { path: '/contact-forms/(?P<id>\\d+)', endpoints: [
      { methods: READABLE, permission: (c) => canEditForm(c, deps), handler: (c) => readForm(c, runtime) },
      { methods: EDITABLE, permission: (c) => canEditForm(c, deps), handler: (c) => updateForm(c, runtime) },
      { methods: DELETABLE, permission: (c) => canEditForm(c, deps), handler: (c) => deleteForm(c, runtime) },
    ] },
    { path: '/contact-forms/(?P<id>\\d+)/feedback', endpoints: [
      { methods: CREATABLE, permission: allowAnyone, handler: (c) => submitFeedback(c, runtime) },
    ] },
    { path: '/contact-forms/(?P<id>\\d+)/feedback/schema', schema: metaSchema, endpoints: [
      { methods: READABLE, permission: allowAnyone, handler: (c) => readFeedbackSchema(c, runtime) },
    ] },
    { path: '/contact-forms/(?P<id>\\d+)/refill', endpoints: [
      { methods: READABLE, permission: allowAnyone, handler: (c) => readRefill(c, runtime) },
    ] },
    { path: '/contact-forms/(?P<id>\\d+)/submissions', endpoints: [
      endpoint({ methods: READABLE, args: submissionListArgs, permission: (c) => canEditForm(c, deps), handler: (c) => listSubmissions(c, runtime) }),
    ] },
  ];
}
