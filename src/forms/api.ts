/**
 * `cms.forms`: forms and their submissions from the host's own code, without HTTP or permission checks (the
 * host acts as the site's operator, whose markup is kept as written).
 */
import { resolveSite } from '../core/site.js';
import { listQueryOf } from './args.js';
import type { ConfigErrors } from './config-errors.js';
import { defaultFromEmail } from './defaults.js';
import { modelOf } from './form-model.js';
import { configErrorsOf, formJson, listItem } from './handlers.js';
import { formsRuntime, type FormsDeps, type FormsOptions } from './options.js';
import { applyWrite, type FormWrite, type PropertiesJson } from './properties.js';
import type { SubmissionRecord } from './record.js';
import { renderForm, type RenderOptions } from './render.js';
import {
  deleteForm, formOf, listForms, listSubmissions, loadFormRecord, removeSubmission, removeSubmissionsOf, saveForm, templateForm,
} from './service.js';

export interface FormSummary {
  id: number;
  hash: string;
  slug: string;
  title: string;
  locale: string;
}

export interface FormView {
  id: number;
  slug: string;
  title: string;
  locale: string;
  properties: PropertiesJson;
  /** Configuration problems by section (`[]` when there are none). */
  configErrors: ConfigErrors;
}

export type Submission = Omit<SubmissionRecord, 'form_id'> & { formId: number };

export interface FormsApi {
  /** Creates and stores a form from the default template, with what `input` sets (as a create request does). */
  create(input?: FormWrite): Promise<FormView>;
  get(id: number): Promise<FormView | null>;
  /** Every form, by id. */
  list(): Promise<FormSummary[]>;
  update(id: number, input: FormWrite): Promise<FormView | null>;
  /** Deletes a form and its submissions; false when there was none. */
  delete(id: number): Promise<boolean>;
  /** The form's HTML (wrapper, hidden fields, controls), or null when there is no such form. */
  render(id: number, options?: RenderOptions): Promise<string | null>;
  /** A form's kept submissions, newest first. */
  submissions(id: number, options?: { page?: number; perPage?: number }): Promise<{ items: Submission[]; total: number }>;
  deleteSubmission(id: number): Promise<boolean>;
}

export function createFormsApi(deps: FormsDeps, options: FormsOptions = {}): FormsApi {
  const runtime = formsRuntime(deps, options);
  const site = () => resolveSite(deps.site, undefined, deps.names);
  const operator = { unfilteredHtml: true };
  const view = async (id: number): Promise<FormView | null> => {
    const record = await loadFormRecord(deps.storage, id);
    if (!record) return null;
    const form = formOf(record, runtime.adminEmail);
    const json = formJson(form) as Omit<FormView, 'configErrors'>;
    return { ...json, id: record.id, slug: record.slug, configErrors: await configErrorsOf(form, runtime, site()) };
  };
  const save = (form: Parameters<typeof saveForm>[0]) =>
    saveForm(form, { storage: deps.storage, now: deps.clock.now(), site: site(), userId: 0 });
  return {
    async create(input = {}) {
      const form = await applyWrite(templateForm(runtime.locale, defaultFromEmail(runtime.adminEmail, site().home)), input, operator);
      const record = await save(form);
      return (await view(record.id))!;
    },
    get: view,
    async list() {
      const records = await listForms(deps.storage, listQueryOf({}));
      return records.map((record) => listItem(record) as unknown as FormSummary);
    },
    async update(id, input) {
      const record = await loadFormRecord(deps.storage, id);
      if (!record) return null;
      await save(await applyWrite(formOf(record, runtime.adminEmail), input, operator));
      return view(id);
    },
    async delete(id) {
      const record = await loadFormRecord(deps.storage, id);
      if (!record) return false;
      await removeSubmissionsOf(deps.storage, id);
      return deleteForm(deps.storage, id);
    },
    async render(id, renderOptions = {}) {
      await deps.secret.ready();
      const record = await loadFormRecord(deps.storage, id);
      return record ? renderForm(modelOf(formOf(record, runtime.adminEmail)), runtime, site(), renderOptions) : null;
    },
    async submissions(id, page = {}) {
      const { items, total } = await listSubmissions(deps.storage, id, Math.max(1, page.page ?? 1), Math.max(1, page.perPage ?? 10));
      return {
        items: items.map(({ form_id: formId, ...rest }) => ({ ...rest, formId })),
        total,
      };
    },
    deleteSubmission: (id) => removeSubmission(deps.storage, id),
  };
}
