/**
 * One submission of a form, in the plugin's order: subscribers-only gate, posted data, validation, acceptance,
 * spam, uploads, the host's pre-send hook, mail (then `mail_2`). The first step that fails sets the status; the
 * answer carries the status, its message, the invalid fields and the posted-data hash.
 */
import { userCan } from '../../auth/index.js';
import type { Principal } from '../../core/context.js';
import type { Site } from '../../core/site.js';
import { TEXTS } from '../defaults.js';
import { mailTagContext, messageOf, schemaOf, type FormModel } from '../form-model.js';
import { filterMessage, type PostValues, type SubmissionView, type UserValues } from '../mail-tags.js';
import type { FormsRuntime } from '../options.js';
import type { SwvInput } from '../swv/index.js';
import { spamReason, termsAccepted, validateFields, type InvalidFields } from './checks.js';
import { cleanValue, postedValue, type SubmissionInput } from './input.js';
import { turnTaker } from '../../format/turn.js';
import { composeMail } from './mail.js';
import { buildPostedData, postedDataHash } from './posted-data.js';
import type { SubmissionSummary } from './summary.js';
import { checkUploads, type AcceptedUpload } from './uploads.js';

export type SubmissionStatus =
  | 'error' | 'validation_failed' | 'acceptance_missing' | 'spam' | 'aborted' | 'mail_sent' | 'mail_failed';

export interface SubmitRequest {
  input: SubmissionInput;
  unitTag: string;
  user: Principal | null;
  remoteIp: string;
  userAgent: string;
  /** The page the form was sent from, when it is on this site. */
  url: string;
  site: Site;
  /** Looks up the container post (published ones only) and the logged-in user, for their mail tags. */
  post(id: number): Promise<PostValues | null>;
  userValues(user: Principal): Promise<UserValues | null>;
}

export interface SubmissionOutcome {
  status: SubmissionStatus;
  message: string;
  invalidFields: InvalidFields;
  /** Absent for the subscribers-only refusal, "" before the mail step, the hash after. */
  postedDataHash: string | null;
  demoMode: boolean;
  /** Set when the submission was accepted (mail sent or failed) and may be kept. */
  accepted: {
    posted: Readonly<Record<string, unknown>>;
    uploads: ReadonlyMap<string, readonly AcceptedUpload[]>;
    keep: boolean;
  } | null;
}

function cleanFields(fields: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const cleaned = Object.create(null) as Record<string, unknown>;
  for (const [name, value] of Object.entries(fields)) cleaned[name] = cleanValue(value);
  return cleaned;
}

function weekdayOf(date: string): number {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  const weekday = new Date(Date.UTC(year, month - 1, day)).getUTCDay();
  return weekday === 0 ? 7 : weekday;
}

export async function submit(model: FormModel, runtime: FormsRuntime, request: SubmitRequest): Promise<SubmissionOutcome> {
  const { input, site } = request;
  const demoMode = model.isOn('demo_mode');
  const outcome = (status: SubmissionStatus, message: string, extra: Partial<SubmissionOutcome> = {}): SubmissionOutcome => ({
    status, message, invalidFields: new Map(), postedDataHash: '', demoMode, accepted: null, ...extra,
  });
  const rules = runtime.deps.capabilityRules;
  const canSubmit = userCan(request.user, 'read', undefined, rules);
  if (model.isOn('subscribers_only') && !canSubmit) {
    return outcome('error', TEXTS.subscribersOnly, { postedDataHash: null });
  }

  const now = runtime.deps.clock.now();
  // Cleaning megabytes of posted text takes milliseconds: a turn between the posted data and the raw fields.
  const take = turnTaker();
  const posted = buildPostedData(model, input.fields);
  await take();
  const hash = postedDataHash(runtime, now, request.remoteIp, request.unitTag, posted.values);
  await take();
  const raw = cleanFields(input.fields);
  const uploadNames: Record<string, string[]> = Object.create(null);
  const view: SubmissionView = {
    posted: posted.values,
    raw,
    uploads: uploadNames,
    remoteIp: request.remoteIp,
    userAgent: request.userAgent,
    url: request.url,
    time: now,
    invalidFieldCount: 0,
    formTitle: model.form.title,
    post: await request.post(Number.parseInt(String(postedValue(input.fields, '_wpcf7_container_post', '0')), 10) || 0),
    user: request.user ? await request.userValues(request.user) : null,
  };
  const context = mailTagContext(model, runtime, site, view);
  const message = (key: string) => messageOf(model, key, context);
  const schema = schemaOf(model, runtime, site, context);
  const swv: SwvInput = {
    posted: (field) => input.fields[field],
    uploads: (field) => (input.files.get(field) ?? []).filter((file) => file.filename !== '')
      .map((file) => ({ name: file.filename, size: file.bytes.byteLength })),
    weekday: weekdayOf,
  };

  const invalid = validateFields({ model, runtime, rules: schema.rules, swv, fields: input.fields, message });
  if (invalid.size > 0) return outcome('validation_failed', message('validation_error'), { invalidFields: invalid });
  if (!termsAccepted(model, input.fields)) return outcome('acceptance_missing', message('accept_terms'));

  const summary: SubmissionSummary = {
    form: { id: model.form.id ?? 0, title: model.form.title },
    fields: posted.values,
    files: [...input.files].flatMap(([field, files]) => files.filter((file) => file.filename !== '')
      .map((file) => ({ field, name: file.filename, size: file.bytes.byteLength, type: file.contentType }))),
    remoteIp: request.remoteIp,
    userAgent: request.userAgent,
    unitTag: request.unitTag,
    userId: request.user?.id ?? 0,
  };
  const skipSpamCheck = model.isOn('subscribers_only') && canSubmit;
  if (!skipSpamCheck && await spamReason({ model, runtime, posted: posted.values, summary }) !== null) {
    return outcome('spam', message('spam'));
  }

  const uploads = checkUploads(model, input, schema.rules, swv, message('upload_file_type_invalid'));
  if (uploads.invalid.size > 0) {
    const invalidFields: InvalidFields = new Map([...uploads.invalid].map(([field, [tag, text]]) => [field, { message: text, tag }]));
    return outcome('validation_failed', message('validation_error'), { invalidFields });
  }
  for (const [field, files] of uploads.accepted) {
    uploadNames[field] = files.map((file) => file.name);
    const current = posted.values[field];
    if (current === undefined || current === '' || (Array.isArray(current) && current.length === 0)) {
      posted.values[field] = files.map((file) => file.sha256).join(' ');
    }
  }

  const keep = runtime.options.keepSubmissions !== false && !demoMode && !posted.consentMissing && !model.isOn('do_not_store');
  const accepted = { posted: posted.values, uploads: uploads.accepted, keep };
  const hook = runtime.options.beforeSendMail;
  if (hook) {
    const verdict = await hook(summary);
    if (verdict && verdict.abort) {
      const text = verdict.message ? filterMessage(verdict.message, context) : filterMessage(TEXTS.aborted, context);
      return outcome('aborted', text, { postedDataHash: hash, accepted: null });
    }
  }

  const skipMail = demoMode || model.isOn('skip_mail');
  const sent = skipMail || await sendMails(model, runtime, context, uploads.accepted);
  return sent
    ? outcome('mail_sent', message('mail_sent_ok'), { postedDataHash: hash, accepted })
    : outcome('mail_failed', message('mail_sent_ng'), { postedDataHash: hash, accepted });
}

/** `mail` first; `mail_2` only when `mail` went out and it is active. A transport failure is a failed mail. */
async function sendMails(
  model: FormModel, runtime: FormsRuntime, context: ReturnType<typeof mailTagContext>,
  uploads: ReadonlyMap<string, readonly AcceptedUpload[]>,
): Promise<boolean> {
  const templates = [model.form.properties.mail, ...(model.form.properties.mail_2?.active ? [model.form.properties.mail_2] : [])];
  for (const [index, template] of templates.entries()) {
    const message = await composeMail({ template, context, locale: model.form.locale, uploads, blobs: runtime.deps.blobs });
    let delivered = false;
    if (message) {
      try {
        await runtime.deps.mailer.send(message);
        delivered = true;
      } catch {
        delivered = false;
      }
    }
    if (index === 0 && !delivered) return false;
  }
  return true;
}
