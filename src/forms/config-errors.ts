/**
 * The configuration validator: what is wrong with a form's template, mail, messages and settings, by section,
 * with the reference's codes, messages and documentation links. Mail is checked by replacing each mail tag with
 * the least a submission could put there (an example address, an example text, or nothing).
 */
import type { BlobStore } from '../ports/blobs.js';
import { isValidBlobKey } from '../ports/blobs.js';
import { turnTaker } from '../format/turn.js';
import { stripAllTags } from '../format/strip-tags.js';
import type { MailTemplate } from './defaults.js';
import { replacementHas, replaceTagsWith, type FoundMailTag } from './mail-tags.js';
import { isSettingOn, settingValue } from './properties.js';
import type { ContactForm } from './record.js';
import type { SwvRule, SwvSchema } from './swv/index.js';
import type { FormTag } from './tags/form-tag.js';
import { scanTags } from './tags/scan.js';
import { supports } from './tags/types.js';
import { decodeEntities, stripWhitespaces, WHITESPACE } from './text.js';
import { isEmailInSiteDomain, mailboxList } from './validators.js';

export interface ConfigError {
  message: string;
  link: string;
}

/** `[]` when clean (as the reference's empty PHP array prints), else errors by section. */
export type ConfigErrors = Record<string, ConfigError[]> | [];

export interface ConfigEnvironment {
  adminEmail: string;
  home: string;
  /** The largest upload the site accepts, in bytes. */
  maxUploadBytes: number;
  blobs: BlobStore;
  /** The form's schema (its enumerations and required fields decide what mail tags may be). */
  schema: SwvSchema;
  /** The template's form-tags, when scanned already. */
  tags?: FormTag[];
}

const DOCS = 'https://contactform7.com/configuration-errors';
const EXAMPLE_EMAIL = 'example@example.com';
const UNSAFE_EXAMPLE = 'user-specified@example.com';
const MAX_ATTACHMENTS_BYTES = 25 * 1024 * 1024;
/** What `stripWhitespaces` keeps. */
const NOT_WHITESPACE = new RegExp(`[^${WHITESPACE}\\uFEFF]`);

const PUBLIC_QUERY_VARS = new Set([
  'm', 'p', 'posts', 'w', 'cat', 'withcomments', 'withoutcomments', 's', 'search', 'exact', 'sentence', 'calendar',
  'page', 'paged', 'more', 'tb', 'pb', 'author', 'order', 'orderby', 'year', 'monthnum', 'day', 'hour', 'minute',
  'second', 'name', 'category_name', 'tag', 'feed', 'author_name', 'static', 'pagename', 'page_id', 'error',
  'attachment', 'attachment_id', 'subpost', 'subpost_id', 'preview', 'robots', 'taxonomy', 'term', 'cpage',
  'post_type', 'embed',
]);

class Collector {
  readonly errors = new Map<string, ConfigError[]>();

  add(section: string, code: string, message: string): void {
    const list = this.errors.get(section) ?? [];
    list.push({ message: decodeEntities(message), link: `${DOCS}/${code.replace(/_/g, '-')}` });
    this.errors.set(section, list);
  }

  result(): ConfigErrors {
    return this.errors.size === 0 ? [] : Object.fromEntries(this.errors);
  }
}

const BLANK = 0b001;
const EMAIL = 0b100;

/** What the schema lets a field's mail tag hold: a combination of email, text and blank. */
function outputOf(field: string, rule: SwvRule, tags: readonly FormTag[], raw: boolean): number {
  if (rule.rule === 'any') return (rule.rules ?? []).reduce((result, child) => result | outputOf(field, child, tags, raw), 0);
  if (rule.rules) return (rule.rules ?? []).reduce((result, child) => result & outputOf(field, child, tags, raw), 0b111);
  if (rule.field !== field) return 0b111;
  if (rule.rule === 'required') return 0b111 & ~BLANK;
  if (rule.rule === 'email') return EMAIL | BLANK;
  if (rule.rule === 'enum') {
    let values = [...new Set((rule.accept ?? []).map(String).filter((value) => value !== '' && value !== '0'))];
    if (!raw) {
      const pipes = tags.filter((tag) => tag.name === field && tag.pipes).flatMap((tag) => tag.pipes!.all);
      values = values.map((value) => pipes.find((pipe) => pipe.before === value)?.after ?? value);
    }
    if (values.every((value) => mailboxList(value) !== null)) return EMAIL | BLANK;
  }
  return 0b111;
}

export function validateConfiguration(form: ContactForm, environment: ConfigEnvironment): Promise<ConfigErrors> {
  return new ConfigValidator(form, environment).validate();
}

class ConfigValidator {
  readonly #collector = new Collector();
  readonly #tags: FormTag[];
  readonly #settings: string;

  constructor(readonly form: ContactForm, readonly environment: ConfigEnvironment) {
    this.#tags = environment.tags ?? scanTags(form.properties.form);
    this.#settings = form.properties.additional_settings;
  }

  /** The event loop takes turns between the template and the mails, each of which may be megabytes long. */
  async validate(): Promise<ConfigErrors> {
    const take = turnTaker();
    this.#validateTemplate();
    if (!isSettingOn(this.#settings, 'demo_mode') && !isSettingOn(this.#settings, 'skip_mail')) {
      await take();
      await this.#validateMail('mail', this.form.properties.mail);
      await take();
      await this.#validateMail('mail_2', this.form.properties.mail_2);
      await take();
    }
    for (const [key, message] of Object.entries(this.form.properties.messages)) {
      if (key === 'captcha_not_match') continue;
      if (stripAllTags(message) !== message) this.#collector.add(`messages.${key}`, 'html_in_message', 'HTML tags are used in a message.');
    }
    if (settingValue(this.#settings, 'on_sent_ok') !== null || settingValue(this.#settings, 'on_submit') !== null) {
      this.#collector.add('additional_settings.body', 'deprecated_settings', 'Deprecated settings are used.');
    }
    return this.#collector.result();
  }

  #validateTemplate(): void {
    const section = 'form.body';
    const template = this.form.properties.form;
    if (hasMultipleControlsInLabel(template)) {
      this.#collector.add(section, 'multiple_controls_in_label', 'Multiple form controls are in a single label element.');
    }
    const taken = [...new Set(this.#tags.filter((tag) => PUBLIC_QUERY_VARS.has(tag.name)).map((tag) => `"${tag.name}"`))];
    if (taken.length > 0) {
      this.#collector.add(section, 'unavailable_names', `Unavailable names (${taken.join(', ')}) are used for form controls.`);
    }
    if (/(?:<form[\s\t>]|<\/form>)/i.test(template)) {
      this.#collector.add(section, 'unavailable_html_elements', 'Unavailable HTML elements are used in the form template.');
    }
    const named = this.#tags.filter((tag) => supports(tag.type, 'name-attr'));
    if (named.some((tag) => tag.rawName.includes('.'))) this.#collector.add(section, 'dots_in_names', 'Dots are used in form-tag names.');
    if (named.some((tag) => tag.rawName.includes(':'))) this.#collector.add(section, 'colons_in_names', 'Colons are used in form-tag names.');
    if (this.#tags.some((tag) => tag.basetype === 'file' && this.environment.maxUploadBytes < tag.limitOption())) {
      this.#collector.add(section, 'upload_filesize_overlimit', 'Uploadable file size exceeds PHP&#8217;s maximum acceptable size.');
    }
  }

  /** Mail tags replaced by the least a submission could give. */
  #minimumInput(content: string): string {
    return replaceTagsWith(content, this.#leastValues());
  }

  /**
   * Whether a field may come to nothing (`#oneLine` is empty), answered at the first character that stays: a long
   * body is not rebuilt with its tags replaced.
   */
  #maybeEmpty(content: string): boolean {
    return !replacementHas(content, this.#leastValues(), NOT_WHITESPACE);
  }

  #least: ((tag: FoundMailTag) => string) | undefined;

  /** The least a submission could put in place of each mail tag; made once per check (each header line asks). */
  #leastValues(): (tag: FoundMailTag) => string {
    this.#least ??= this.#makeLeastValues();
    return this.#least;
  }

  #makeLeastValues(): (tag: FoundMailTag) => string {
    const subscribersOnly = isSettingOn(this.#settings, 'subscribers_only');
    // What the schema allows a field depends on the field alone: weighed once per field, not once per mail tag.
    const outputs = new Map<string, number>();
    const outputFor = (field: string, raw: boolean) => {
      const key = `${raw ? 'raw' : ''}:${field}`;
      let output = outputs.get(key);
      if (output === undefined) {
        output = this.environment.schema.rules.reduce((result, rule) => result & outputOf(field, rule, this.#tags, raw), 0b111);
        outputs.set(key, output);
      }
      return output;
    };
    return ({ field, raw }) => {
      if (field === '_site_admin_email') return this.environment.adminEmail;
      if (field === '_user_agent') return 'example';
      if (field === '_user_email') return subscribersOnly ? EXAMPLE_EMAIL : '';
      if (field.startsWith('_user_')) return subscribersOnly ? 'example' : '';
      if (field.startsWith('_')) return field.endsWith('_email') ? EXAMPLE_EMAIL : 'example';
      const output = outputFor(field, raw);
      if (output === EMAIL) return EXAMPLE_EMAIL;
      return (output & BLANK) === 0 ? 'example' : '';
    };
  }

  #oneLine(content: string): string {
    return stripWhitespaces(this.#minimumInput(content).replace(/[\r\n]/g, ''));
  }

  /** No address at all counts as invalid too (the reference tests the list's truthiness). */
  #invalidMailbox(content: string): boolean {
    const addresses = mailboxList(this.#oneLine(content));
    return addresses === null || addresses.length === 0;
  }

  #unsafeEmail(content: string): boolean {
    if (isSettingOn(this.#settings, 'subscribers_only')) return false;
    const emailFields = new Set(this.#tags.filter((tag) => tag.basetype === 'email').map((tag) => tag.name));
    const first = replaceTagsWith(content, ({ field }) => {
      const tag = this.#tags.find((candidate) => candidate.name === field);
      return tag && emailFields.has(tag.name) ? UNSAFE_EXAMPLE : null;
    });
    return this.#oneLine(first).includes(UNSAFE_EXAMPLE);
  }

  async #validateMail(name: 'mail' | 'mail_2', mail: MailTemplate): Promise<void> {
    if (!mail || typeof mail !== 'object' || Object.keys(mail).length === 0) return;
    if (name !== 'mail' && !mail.active) return;
    const text = (key: keyof MailTemplate) => (typeof mail[key] === 'string' ? mail[key] as string : '');
    if (this.#maybeEmpty(text('subject'))) this.#collector.add(`${name}.subject`, 'maybe_empty', 'There is a possible empty field.');

    const sender = text('sender');
    if (this.#invalidMailbox(sender)) {
      this.#collector.add(`${name}.sender`, 'invalid_mailbox_syntax', 'Invalid mailbox syntax is used.');
    } else if (!isEmailInSiteDomain(this.#oneLine(sender), this.environment.home)) {
      this.#collector.add(`${name}.sender`, 'email_not_in_site_domain', 'Sender email address does not belong to the site domain.');
    }

    const recipient = text('recipient');
    if (this.#invalidMailbox(recipient)) {
      this.#collector.add(`${name}.recipient`, 'invalid_mailbox_syntax', 'Invalid mailbox syntax is used.');
    } else if (this.#unsafeEmail(recipient)) {
      this.#collector.add(`${name}.recipient`, 'unsafe_email_without_protection', 'Unsafe email config is used without sufficient protection.');
    }

    this.#validateHeaders(`${name}.additional_headers`, text('additional_headers'));
    if (this.#maybeEmpty(text('body'))) this.#collector.add(`${name}.body`, 'maybe_empty', 'There is a possible empty field.');
    await this.#validateAttachments(`${name}.attachments`, text('attachments'));
  }

  #validateHeaders(section: string, content: string): void {
    const invalidHeaders: string[] = [];
    const invalidMailboxFields: string[] = [];
    const unsafeFields: string[] = [];
    for (const line of content.split('\n')) {
      const header = line.trim();
      if (header === '') continue;
      const found = /^([0-9A-Za-z-]+):(.*)$/s.exec(header);
      if (!found) {
        invalidHeaders.push(header);
        continue;
      }
      const headerName = found[1]!;
      const value = found[2]!.trim();
      const lower = headerName.toLowerCase();
      if (['reply-to', 'cc', 'bcc'].includes(lower) && value !== '' && this.#invalidMailbox(value)) {
        invalidMailboxFields.push(headerName);
        continue;
      }
      if (['cc', 'bcc'].includes(lower) && this.#unsafeEmail(value)) unsafeFields.push(headerName);
    }
    if (invalidHeaders.length > 0) this.#collector.add(section, 'invalid_mail_header', 'There are invalid mail header fields.');
    for (const field of invalidMailboxFields) {
      this.#collector.add(section, 'invalid_mailbox_syntax', `Invalid mailbox syntax is used in the ${field} field.`);
    }
    if (unsafeFields.length > 0) {
      this.#collector.add(section, 'unsafe_email_without_protection', 'Unsafe email config is used without sufficient protection.');
    }
  }

  /** Lines naming a file field attach its uploads; other lines name stored files (keys of the upload store). */
  async #validateAttachments(section: string, content: string): Promise<void> {
    if (content === '') return;
    const limits = new Map<string, number>();
    for (const tag of this.#tags.filter((candidate) => candidate.type === 'file' || candidate.type === 'file*')) {
      if (!content.includes(`[${tag.name}]`)) continue;
      limits.set(tag.name, Math.max(limits.get(tag.name) ?? 0, tag.limitOption()));
    }
    let total = [...limits.values()].reduce((sum, limit) => sum + limit, 0);
    const missing: string[] = [];
    for (const raw of content.split('\n').slice(0, 100)) {
      const line = raw.trim();
      if (line === '' || line.startsWith('[')) continue;
      const blob = isValidBlobKey(line) ? await this.environment.blobs.get(line).catch(() => null) : null;
      if (!blob) missing.push(line);
      else total += blob.size;
    }
    for (const path of missing) this.#collector.add(section, 'file_not_found', `Attachment file does not exist at ${path}.`);
    if (MAX_ATTACHMENTS_BYTES < total) this.#collector.add(section, 'attachments_overweight', 'The total size of attachment files is too large.');
  }
}

/** Whether some `<label>` holds more than one form control. */
function hasMultipleControlsInLabel(template: string): boolean {
  let position = 0;
  for (;;) {
    const open = template.indexOf('<label', position);
    if (open === -1) return false;
    const next = template[open + 6];
    const tagEnd = template.indexOf('>', open + 6);
    if (tagEnd === -1) return false;
    if (next !== '>' && next !== ' ' && next !== '\t' && next !== '\n') {
      position = open + 6;
      continue;
    }
    const close = template.indexOf('</label>', tagEnd + 2);
    if (close === -1) return false;
    let controls = 0;
    for (const tag of scanTags(template.slice(tagEnd + 1, close))) {
      if (supports(tag.type, 'multiple-controls-container')) controls += tag.values.length + (tag.hasOption('free_text') ? 1 : 0);
      else if (!supports(tag.type, 'zero-controls-container') && tag.name !== '') controls += 1;
      if (controls > 1) return true;
    }
    position = close + 8;
  }
}
