/**
 * Writing a form's title, locale and properties as the reference sanitises them, and showing the properties as
 * the REST interface does (`form.fields`, `additional_settings.settings`, messages completed from the defaults).
 */
import { CmsError } from '../core/errors.js';
import { checkTextLength } from '../core/text-bound.js';
import { stripAllTags } from '../format/strip-tags.js';
import { sanitizePostHtmlWhereCheapest } from '../content/render/pool/jobs.js';
import { hasTooManyMailTags, MAX_MAIL_TAGS } from './mail-tags.js';
import { DEFAULT_LOCALE, DEFAULT_MESSAGES, MESSAGE_KEYS, type MailTemplate } from './defaults.js';
import type { ContactForm, FormProperties } from './record.js';
import { hasTooManyTags, MAX_FORM_TAGS, scanTags } from './tags/scan.js';
import type { FormTagJson } from './tags/form-tag.js';
import { phpString, phpTrim, stripWhitespaces } from './text.js';

/** A scalar as text; lists and maps (which the reference would choke on) count as empty. */
function textOf(value: unknown): string {
  return value !== null && typeof value === 'object' ? '' : phpString(value);
}

/** PHP's boolean cast: `false`, `0`, `"0"`, `""`, `null` and empty lists are false. */
export function phpBool(value: unknown): boolean {
  if (Array.isArray(value)) return value.length > 0;
  if (value !== null && typeof value === 'object') return Object.keys(value).length > 0;
  return !(value === false || value === 0 || value === '0' || value === '' || value === null || value === undefined);
}

/**
 * The most characters a title may hold as sent (more is 400 `rest_invalid_param`, `rest_too_long`): the plugin
 * keeps it as a post title, in a column of 65,535 bytes; stripping 8 MiB of tags held the event loop for 0.2–0.8 s.
 */
export const MAX_FORM_TITLE_LENGTH = 65_535;

export function sanitizeTitle(value: unknown): string {
  const title = stripWhitespaces(stripAllTags(textOf(value), true));
  return title === '' ? 'Untitled' : title;
}

export function isValidLocale(locale: unknown): locale is string {
  return typeof locale === 'string' && /^[a-z]{2,3}(?:_[a-zA-Z_]{2,})?$/.test(locale);
}

export function sanitizeLocale(value: unknown): string {
  const locale = phpTrim(textOf(value));
  return isValidLocale(locale) ? locale : DEFAULT_LOCALE;
}

export interface WriteContext {
  /** Whether the writer may keep any HTML (`unfiltered_html`); otherwise markup is filtered like post content. */
  unfilteredHtml: boolean;
}

/**
 * The template's markup filtered like post content (large templates on a worker thread, as posts are). A
 * template of more than `MAX_FORM_TAGS` form-tags is refused.
 */
export function sanitizeForm(value: unknown, context: WriteContext): string | Promise<string> {
  const form = phpTrim(textOf(value));
  if (hasTooManyTags(form)) {
    throw new CmsError('wpcf7_too_many_form_tags', `A form template may hold at most ${MAX_FORM_TAGS} form-tags.`, 400, { max: MAX_FORM_TAGS });
  }
  return context.unfilteredHtml ? form : sanitizePostHtmlWhereCheapest(form);
}

/**
 * The most characters a mail's subject, sender, recipient, additional headers or attachments may hold as sent
 * (more is 400 `rest_invalid_param`, `rest_too_long`; the body has no such bound): each is read whole, as mailboxes
 * or line by line, by every check of the form and every submission. A sender or recipient of 1 MiB held the event
 * loop for 80 s.
 */
export const MAX_MAIL_FIELD_LENGTH = 16_384;
const BOUNDED_MAIL_FIELDS = ['subject', 'sender', 'recipient', 'additional_headers', 'attachments'];

const mailInput = (value: unknown): Record<string, unknown> => (value !== null && typeof value === 'object' && !Array.isArray(value) ? value as Record<string, unknown> : {});

function checkMailFields(value: unknown, param: 'mail' | 'mail_2'): void {
  const input = mailInput(value);
  for (const name of BOUNDED_MAIL_FIELDS) checkTextLength(param, textOf(input[name]), MAX_MAIL_FIELD_LENGTH, `${param}[${name}]`);
}

/** A mail template as written: every field replaced (unsent ones become empty), strings trimmed, the body filtered. */
export async function sanitizeMail(value: unknown, context: WriteContext, param: 'mail' | 'mail_2'): Promise<MailTemplate> {
  const input = mailInput(value);
  const field = (name: string) => phpTrim(textOf(input[name]));
  const headers = textOf(input.additional_headers).replace(/\r\n/g, '\n').split('\n')
    .map(phpTrim).filter((line) => line !== '').join('\n');
  const texts = {
    subject: field('subject'), sender: field('sender'), recipient: field('recipient'), body: field('body'),
    additional_headers: phpTrim(headers), attachments: field('attachments'),
  };
  if (Object.values(texts).some(hasTooManyMailTags)) {
    throw new CmsError('wpcf7_too_many_mail_tags', `A field of a mail template may hold at most ${MAX_MAIL_TAGS} mail-tags.`, 400, { max: MAX_MAIL_TAGS });
  }
  return {
    active: param === 'mail' ? true : phpBool(input.active),
    subject: texts.subject,
    sender: texts.sender,
    recipient: texts.recipient,
    body: context.unfilteredHtml ? texts.body : await sanitizePostHtmlWhereCheapest(texts.body),
    additional_headers: texts.additional_headers,
    attachments: texts.attachments,
    use_html: phpBool(input.use_html),
    exclude_blank: phpBool(input.exclude_blank),
  };
}

/**
 * The most characters a message may hold as sent (more is 400 `rest_invalid_param`, `rest_too_long`): every
 * field's rules carry their message, filtered for display, into the schema, each check and each answer; 8 MiB
 * messages held the event loop for 3 s at every step.
 */
export const MAX_MESSAGE_LENGTH = 2000;
/**
 * The most characters the additional settings may hold as sent: they are read line by line on every read, check
 * and submission (8 MiB of settings held the loop for 0.3–3 s at each).
 */
export const MAX_ADDITIONAL_SETTINGS_LENGTH = 16_384;

/** Only the known message keys that were sent, trimmed. */
export function sanitizeMessages(value: unknown): Record<string, string> {
  const input = value !== null && typeof value === 'object' && !Array.isArray(value) ? value as Record<string, unknown> : {};
  const output: Record<string, string> = {};
  for (const key of MESSAGE_KEYS) {
    const sent = Object.hasOwn(input, key) ? input[key] : undefined;
    if (sent === undefined || sent === null || typeof sent === 'object') continue;
    const text = phpString(sent);
    checkTextLength('messages', text, MAX_MESSAGE_LENGTH, `messages[${key}]`);
    output[key] = phpTrim(text);
  }
  return output;
}

export function sanitizeAdditionalSettings(value: unknown): string {
  const text = textOf(value);
  checkTextLength('additional_settings', text, MAX_ADDITIONAL_SETTINGS_LENGTH);
  return phpTrim(text);
}

/** The parameters a create or update may carry. Absent (or null) ones leave the property as it was. */
export interface FormWrite {
  title?: unknown;
  locale?: unknown;
  form?: unknown;
  mail?: unknown;
  mail_2?: unknown;
  messages?: unknown;
  additional_settings?: unknown;
}

/**
 * Applies a write to a form in memory (the reference's `wpcf7_save_contact_form` before it saves). The template
 * and the two mail bodies are filtered side by side.
 */
export async function applyWrite(form: ContactForm, write: FormWrite, context: WriteContext): Promise<ContactForm> {
  const sent = (name: keyof FormWrite) => write[name] !== undefined && write[name] !== null;
  const properties: FormProperties = { ...form.properties };
  // The bounded texts first: a refused one sends no template or mail to be filtered.
  if (sent('messages')) properties.messages = sanitizeMessages(write.messages);
  if (sent('additional_settings')) properties.additional_settings = sanitizeAdditionalSettings(write.additional_settings);
  if (sent('title')) checkTextLength('title', textOf(write.title), MAX_FORM_TITLE_LENGTH);
  if (sent('mail')) checkMailFields(write.mail, 'mail');
  if (sent('mail_2')) checkMailFields(write.mail_2, 'mail_2');
  const [template, mail, mail2] = await Promise.all([
    sent('form') ? sanitizeForm(write.form, context) : properties.form,
    sent('mail') ? sanitizeMail(write.mail, context, 'mail') : properties.mail,
    sent('mail_2') ? sanitizeMail(write.mail_2, context, 'mail_2') : properties.mail_2,
  ]);
  Object.assign(properties, { form: template, mail, mail_2: mail2 });
  return {
    ...form,
    title: sent('title') ? sanitizeTitle(write.title) : form.title,
    locale: sent('locale') ? sanitizeLocale(write.locale) : form.locale,
    properties,
  };
}

/** Messages with every key the stored form lacks taken from the defaults (what a read shows). */
export function completeMessages(messages: Readonly<Record<string, string>>): Record<string, string> {
  const complete: Record<string, string> = { ...messages };
  for (const key of MESSAGE_KEYS) if (!Object.hasOwn(complete, key)) complete[key] = DEFAULT_MESSAGES[key]!;
  return complete;
}

/**
 * `name: value` lines of the additional settings; `on`/`true` and `off`/`false` become booleans. A line that is
 * not a setting leaves a gap in the numbering, as the reference's filtered PHP array does, so the list turns
 * into an object with numeric keys when there is a gap.
 */
export function settingsOf(text: string): [string, string | boolean][] | Record<string, [string, string | boolean]> {
  const entries: [number, [string, string | boolean]][] = [];
  text.split('\n').forEach((line, index) => {
    const found = /^([a-zA-Z0-9_]+)[\t ]*:(.*)$/.exec(line);
    if (!found) return;
    const raw = phpTrim(found[2]!);
    const value = raw === 'on' || raw === 'true' ? true : raw === 'off' || raw === 'false' ? false : raw;
    entries.push([index, [phpTrim(found[1]!), value]]);
  });
  const contiguous = entries.every(([index], position) => index === position);
  if (contiguous) return entries.map(([, entry]) => entry);
  const object: Record<string, [string, string | boolean]> = {};
  for (const [index, entry] of entries) object[String(index)] = entry;
  return object;
}

/** The first value of a named additional setting, trimmed, or null. */
export function settingValue(text: string, name: string): string | null {
  for (const line of text.split('\n')) {
    const found = /^([a-zA-Z0-9_]+)[\t ]*:(.*)$/.exec(line);
    if (found && found[1] === name) return phpTrim(found[2]!);
  }
  return null;
}

/** Whether a setting is `on`, `true` or `1`. */
export function isSettingOn(text: string, name: string): boolean {
  const value = settingValue(text, name);
  return value === 'on' || value === 'true' || value === '1';
}

export interface PropertiesJson {
  form: { content: string; fields: FormTagJson[] };
  mail: MailTemplate;
  mail_2: MailTemplate;
  messages: Record<string, string>;
  additional_settings: { content: string; settings: ReturnType<typeof settingsOf> };
}

export function propertiesJson(properties: FormProperties): PropertiesJson {
  return {
    form: { content: properties.form, fields: scanTags(properties.form).map((tag) => tag.toJSON()) },
    mail: properties.mail,
    mail_2: properties.mail_2,
    messages: properties.messages,
    additional_settings: { content: properties.additional_settings, settings: settingsOf(properties.additional_settings) },
  };
}
