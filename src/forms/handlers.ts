/** The handlers of the form routes: list, create, read, update, delete, schema, refill and submissions. */
import { userCan } from '../auth/index.js';
import type { Params } from '../core/args/define.js';
import type { RequestContext } from '../core/context.js';
import { CmsError } from '../core/errors.js';
import { turnTaker } from '../format/turn.js';
import { collection, reply } from '../core/response.js';
import { pageWindow, paging } from '../core/paging.js';
import type { Site } from '../core/site.js';
import { isDryRun, listQueryOf, phpInt, type submissionListArgs } from './args.js';
import { validateConfiguration, type ConfigErrors } from './config-errors.js';
import { defaultFromEmail } from './defaults.js';
import { mailTagContext, modelOf, schemaOf } from './form-model.js';
import type { FormsRuntime } from './options.js';
import { applyWrite, isValidLocale, propertiesJson, type FormWrite } from './properties.js';
import { quizRefill } from './quiz.js';
import type { ContactForm, FormRecord } from './record.js';
import {
  deleteForm as removeForm, formOf, listForms as findForms, listSubmissions as findSubmissions, loadFormRecord, removeSubmissionsOf, saveForm,
  templateForm,
} from './service.js';

export function notFound(): CmsError {
  return new CmsError('wpcf7_not_found', 'The requested contact form was not found.', 404);
}

/** The form the URL names (a stored record of the form type), or a 404. */
export async function requireForm(context: RequestContext, runtime: FormsRuntime): Promise<FormRecord> {
  const id = Number(context.params.id);
  const record = await context.memo(`form:${id}`, () => loadFormRecord(runtime.deps.storage, id));
  if (!record) throw notFound();
  return record;
}

export function listItem(record: FormRecord): Record<string, unknown> {
  return {
    id: record.id, hash: record.hash.slice(0, 7), slug: record.slug, title: record.title,
    locale: isValidLocale(record.locale) ? record.locale : '',
  };
}

export async function listForms(context: RequestContext, runtime: FormsRuntime) {
  const records = await findForms(runtime.deps.storage, listQueryOf(context.params));
  return reply(records.map(listItem));
}

/** The read shape: `{id, slug, title, locale, properties}`. */
export function formJson(form: ContactForm): Record<string, unknown> {
  return {
    id: form.id,
    slug: form.slug,
    title: form.title,
    locale: isValidLocale(form.locale) ? form.locale : '',
    properties: propertiesJson(form.properties),
  };
}

/** The event loop takes turns between the steps, each of which goes through every tag of the form. */
export async function configErrorsOf(form: ContactForm, runtime: FormsRuntime, site: Site, take = turnTaker()): Promise<ConfigErrors> {
  const model = modelOf(form);
  await take();
  const schema = schemaOf(model, runtime, site, mailTagContext(model, runtime, site, null));
  await take();
  return validateConfiguration(form, {
    adminEmail: runtime.adminEmail, home: site.home, maxUploadBytes: runtime.maxUploadBytes, blobs: runtime.deps.blobs, schema, tags: [...model.tags],
  });
}

/** The parameters a write reads (the JSON body, form body or query, merged as the reference merges them). */
function writeOf(params: Readonly<Record<string, unknown>>): FormWrite {
  const { title, locale, form, mail, mail_2: mail2, messages, additional_settings: settings } = params;
  return { title, locale, form, mail, mail_2: mail2, messages, additional_settings: settings };
}

/** A write's answer; the event loop takes turns between its steps, each of which may read megabytes. */
async function answerWrite(form: ContactForm, context: RequestContext, runtime: FormsRuntime, take: () => Promise<void>) {
  await take();
  const config_errors = await configErrorsOf(form, runtime, context.site, take);
  await take();
  return reply({ ...formJson(form), config_errors });
}

function writeContext(context: RequestContext, runtime: FormsRuntime) {
  return { unfilteredHtml: userCan(context.user, 'unfiltered_html', undefined, runtime.deps.capabilityRules) };
}

export async function createForm(context: RequestContext, runtime: FormsRuntime) {
  if (phpInt(context.params.id) !== 0) {
    throw new CmsError('wpcf7_post_exists', 'Cannot create existing contact form.', 400);
  }
  const template = templateForm(runtime.locale, defaultFromEmail(runtime.adminEmail, context.site.home));
  const take = turnTaker();
  const form = await applyWrite(template, writeOf(context.params), writeContext(context, runtime));
  if (isDryRun(context.params)) return answerWrite(form, context, runtime, take);
  await take();
  const record = await saveForm(form, { storage: runtime.deps.storage, now: runtime.deps.clock.now(), site: context.site, userId: context.user?.id ?? 0 });
  // The reference answers a create without the slug the stored form got.
  return answerWrite({ ...form, id: record.id, hash: record.hash, slug: null }, context, runtime, take);
}

export async function readForm(context: RequestContext, runtime: FormsRuntime) {
  const record = await requireForm(context, runtime);
  return reply(formJson(formOf(record, runtime.adminEmail)));
}

export async function updateForm(context: RequestContext, runtime: FormsRuntime) {
  const record = await requireForm(context, runtime);
  const take = turnTaker();
  const form = await applyWrite(formOf(record, runtime.adminEmail), writeOf(context.params), writeContext(context, runtime));
  if (!isDryRun(context.params)) {
    await take();
    await saveForm(form, { storage: runtime.deps.storage, now: runtime.deps.clock.now(), site: context.site, userId: context.user?.id ?? 0 });
  }
  return answerWrite(form, context, runtime, take);
}

export async function deleteForm(context: RequestContext, runtime: FormsRuntime) {
  const record = await requireForm(context, runtime);
  await removeSubmissionsOf(runtime.deps.storage, record.id);
  if (!(await removeForm(runtime.deps.storage, record.id))) {
    throw new CmsError('wpcf7_cannot_delete', 'There was an error deleting the contact form.', 500);
  }
  return reply({ deleted: true });
}

export async function readFeedbackSchema(context: RequestContext, runtime: FormsRuntime) {
  const model = modelOf(formOf(await requireForm(context, runtime), runtime.adminEmail));
  return reply(schemaOf(model, runtime, context.site, mailTagContext(model, runtime, context.site, null)));
}

export async function readRefill(context: RequestContext, runtime: FormsRuntime) {
  const model = modelOf(formOf(await requireForm(context, runtime), runtime.adminEmail));
  const quiz = quizRefill(model, runtime);
  return reply(quiz ? { quiz } : []);
}

export async function listSubmissions(context: RequestContext<Params<typeof submissionListArgs>>, runtime: FormsRuntime) {
  const record = await requireForm(context, runtime);
  const { page, perPage } = pageWindow(context.params, 'page');
  const { items, total } = await findSubmissions(runtime.deps.storage, record.id, page, perPage);
  const shown = items.map((item) => ({
    data: {
      id: item.id, contact_form_id: item.form_id, status: item.status, date_gmt: item.date_gmt,
      fields: item.fields, files: item.files, meta: item.meta,
    },
  }));
  return collection(shown, paging(total, page, perPage));
}
