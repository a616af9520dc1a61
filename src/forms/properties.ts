/**
 * Writing a form's title, locale and properties as the reference sanitises them, and showing the properties as
 * the REST interface does (`form.fields`, `additional_settings.settings`, messages completed from the defaults).
 */
import { CmsError } from '../core/errors.js';
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

/** A mail template as written: every field replaced (unsent ones become empty), strings trimmed, the body filtered. */
export async function sanitizeMail(value: unknown, context: WriteContext, forceActive: boolean): Promise<MailTemplate> {
  const input = value !== null && typeof value === 'object' && !Array.isArray(value) ? value as Record<string, unknown> : {};
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
    active: forceActive ? true : phpBool(input.active),
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

/** Only the known message keys that were sent, trimmed. */
export function sanitizeMessages(value: unknown): Record<string, string> {
  const input = value !== null && typeof value === 'object' && !Array.isArray(value) ? value as Record<string, unknown> : {};
  const output: Record<string, string> = {};
  for (const key of MESSAGE_KEYS) {
    const sent = Object.hasOwn(input, key) ? input[key] : undefined;
    if (sent === undefined || sent === null || typeof sent === 'object') continue;
    output[key] = phpTrim(phpString(sent));
  }
  return output;
}

export function sanitizeAdditionalSettings(value: unknown): string {
  return phpTrim(textOf(value));
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
  const [template, mail, mail2] = await Promise.all([
    sent('form') ? sanitizeForm(write.form, context) : properties.form,
    sent('mail') ? sanitizeMail(write.mail, context, true) : properties.mail,
    sent('mail_2') ? sanitizeMail(write.mail_2, context, false) : properties.mail_2,
  ]);
  Object.assign(properties, { form: template, mail, mail_2: mail2 });
  if (sent('messages')) properties.messages = sanitizeMessages(write.messages);
  if (sent('additional_settings')) properties.additional_settings = sanitizeAdditionalSettings(write.additional_settings);
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
