import type { Registry } from '../core/registry.js';
import type { FormsDeps, FormsOptions } from './options.js';
import { formRoutes } from './routes.js';

export { createFormsApi, type FormsApi, type FormSummary, type FormView, type Submission } from './api.js';
export type { FormsDeps, FormsOptions, SpamVerdict, BeforeSendMailVerdict } from './options.js';
export type { SubmissionSummary } from './submission/summary.js';
export type { RenderOptions } from './render.js';
export type { FormWrite } from './properties.js';
export { FORM_TYPE } from './record.js';
export { scanTags } from './tags/scan.js';

/** Registers the `forms/v1` routes (the namespace must be declared). */
export function registerForms(registry: Registry, deps: FormsDeps, options: FormsOptions = {}): void {
  registry.addRoutes('forms/v1', formRoutes(deps, options));
}
