import { FORMS } from '../core/names.js';
import type { Registry } from '../core/registry.js';
import { defineResource } from '../core/resource.js';
import { createFormsApi } from './api.js';
import type { FormsDeps, FormsOptions } from './options.js';
import { formRoutes } from './routes.js';

export { createFormsApi, type FormsApi, type FormSummary, type FormView, type Submission } from './api.js';
export type { FormsDeps, FormsOptions, SpamVerdict, BeforeSendMailVerdict } from './options.js';
export type { SubmissionSummary } from './submission/summary.js';
export type { RenderOptions } from './render.js';
export type { FormWrite } from './properties.js';
export { FORM_TYPE } from './record.js';
export { scanTags } from './tags/scan.js';

export const formsResource = defineResource({
  namespace: FORMS,
  deps: (shared: FormsDeps, options: { forms?: FormsOptions }) => ({ deps: shared, options: options.forms ?? {} }),
  routes: ({ deps, options }) => formRoutes(deps, options),
  /** Contact forms, their HTML and their kept submissions, in-process. */
  api: { name: 'forms', create: ({ deps, options }) => createFormsApi(deps, options) },
});

/** Registers the forms routes on a host's own registry (the namespace must be declared). */
export function registerForms(registry: Registry, deps: FormsDeps, options: FormsOptions = {}): void {
  registry.addRoutes(FORMS.name, formRoutes(deps, options));
}
