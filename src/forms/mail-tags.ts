/**
 * Mail-tag replacement: `[field]`, `[_raw_field]`, `[_format_field "F j, Y"]` and the special tags (`[_site_title]`,
 * `[_remote_ip]`, `[_date]`, ...) in mail templates and messages. One pass, left to right: a replaced value is
 * never scanned again, so posted text cannot smuggle in tags.
 */
import { texturize } from '../content/render/index.js';
import { turnTaker } from '../format/turn.js';
import { formatDate, instantOfLocalDate, type SiteTime } from './dates.js';
import { TEXTS } from './defaults.js';
import type { FormTag } from './tags/form-tag.js';
import { supports } from './tags/types.js';
import { escapeHtml, flatJoin, phpTrim } from './text.js';
import { stripAllTags } from '../format/strip-tags.js';

export interface SiteValues {
  title: string;
  description: string;
  url: string;
  adminEmail: string;
}

export interface PostValues {
  id: number;
  slug: string;
  title: string;
  url: string;
  authorName: string;
  authorEmail: string;
}

/** What a logged-in submitter's `[_user_*]` tags read. */
export type UserValues = Readonly<Record<string, string>>;

/** The submission as mail tags see it. */
export interface SubmissionView {
  /** Posted values after pipes. */
  posted: Readonly<Record<string, unknown>>;
  /** Posted values as sent (for `[_raw_field]`). */
  raw: Readonly<Record<string, unknown>>;
  /** Names of the uploaded files by field. */
  uploads: Readonly<Record<string, readonly string[]>>;
  remoteIp: string;
  userAgent: string;
  url: string;
  time: Date;
  invalidFieldCount: number;
  formTitle: string;
  post: PostValues | null;
  user: UserValues | null;
}

export interface MailTagContext {
  tags: readonly FormTag[];
  site: SiteValues;
  siteTime: SiteTime;
  dateFormat: string;
  timeFormat: string;
  submission: SubmissionView | null;
}

export interface ReplaceOptions {
  html?: boolean;
  /** Drop lines whose every tag was replaced by an empty value (mail bodies with `exclude_blank`). */
  excludeBlank?: boolean;
}

const MAIL_TAG = /(\[?)\[[\t ]*([a-zA-Z_][0-9a-zA-Z:._-]*)((?:[\t ]+"[^"]*"|[\t ]+'[^']*')*)[\t ]*\](\]?)/g;

/**
 * The most mail tags one field of a mail template written through the interface may hold: a submission replaces
 * each on the main thread, and checking the configuration weighs each against the form's fields.
 */
export const MAX_MAIL_TAGS = 1000;

/** Whether the text holds more than `MAX_MAIL_TAGS` mail tags; the count stops at the first one past the limit. */
export function hasTooManyMailTags(text: string): boolean {
  const pattern = new RegExp(MAIL_TAG.source, 'g');
  let count = 0;
  while (pattern.exec(text) !== null) if (++count > MAX_MAIL_TAGS) return true;
  return false;
}

/** One mail tag found in a text: its name (`_raw_x`, `_format_x` included) and the field it reads. */
export interface FoundMailTag {
  whole: string;
  name: string;
  /** The field name: the name without `_raw_`/`_format_`, dots as underscores. */
  field: string;
  raw: boolean;
}

/** Replaces every mail tag by what `replace` returns for it (null keeps it); `[[escaped]]` loses one bracket pair. */
export function replaceTagsWith(content: string, replace: (tag: FoundMailTag) => string | null): string {
  return content.replace(MAIL_TAG, (whole: string, open: string, name: string, _values: string, close: string) =>
    replacementOf(whole, open, name, close, replace));
}

function replacementOf(whole: string, open: string, name: string, close: string, replace: (tag: FoundMailTag) => string | null): string {
  if (open === '[' && close === ']') return whole.slice(1, -1);
  const stripped = /^_(?:raw|format)_(.+)$/.exec(name);
  const field = (stripped ? stripped[1]!.trim() : name).replace(/\./g, '_');
  return replace({ whole, name, field, raw: name.startsWith('_raw_') }) ?? whole;
}

/**
 * Whether `replaceTagsWith(content, replace)` holds a character matching `kept`, found without building it: the
 * text and the replacements are looked at in order, and the first such character ends the search.
 */
export function replacementHas(content: string, replace: (tag: FoundMailTag) => string | null, kept: RegExp): boolean {
  const pattern = new RegExp(MAIL_TAG.source, 'g');
  let from = 0;
  for (let found = pattern.exec(content); found !== null; found = pattern.exec(content)) {
    if (kept.test(content.slice(from, found.index))) return true;
    if (kept.test(replacementOf(found[0], found[1]!, found[2]!, found[4]!, replace))) return true;
    from = pattern.lastIndex;
  }
  return kept.test(content.slice(from));
}

export function replaceMailTags(content: string, context: MailTagContext, options: ReplaceOptions = {}): string {
  const output: string[] = [];
  for (const line of content.split('\n')) {
    const replaced = replaceInLine(line, context, options);
    if (replaced !== null) output.push(replaced);
  }
  return output.join('\n');
}

/** `replaceMailTags` letting the event loop take turns between lines (a mail body may be megabytes long). */
export async function replaceMailTagsInTurns(content: string, context: MailTagContext, options: ReplaceOptions = {}): Promise<string> {
  const take = turnTaker();
  const output: string[] = [];
  for (const line of content.split('\n')) {
    const replaced = replaceInLine(line, context, options);
    if (replaced !== null) output.push(replaced);
    await take();
  }
  return output.join('\n');
}

/** A line with its mail tags replaced, or null when `excludeBlank` drops it. */
function replaceInLine(line: string, context: MailTagContext, options: ReplaceOptions): string | null {
  const replacedValues: string[] = [];
  const replaced = line.replace(MAIL_TAG, (whole: string, open: string, name: string, values: string, close: string) => {
    if (open === '[' && close === ']') return whole.slice(1, -1);
    const value = replaceOne(name, values, context, options.html ?? false);
    if (value === null) return whole;
    // As in the reference, a lone doubled bracket around a replaced tag goes with it.
    replacedValues.push(value);
    return value;
  });
  return options.excludeBlank && replacedValues.length > 0 && replacedValues.every((value) => value === '') ? null : replaced;
}

function quotedValues(text: string): string[] {
  return [...text.matchAll(/"([^"]*)"|'([^']*)'/g)].map((found) => found[1] ?? found[2] ?? '');
}

/** The tag's replacement, or null to leave it as written. */
function replaceOne(tagName: string, valuesText: string, context: MailTagContext, html: boolean): string | null {
  let name = tagName;
  let raw = false;
  let format = '';
  const rawMatch = /^_raw_(.+)$/.exec(tagName);
  const formatMatch = /^_format_(.+)$/.exec(tagName);
  if (rawMatch) {
    name = rawMatch[1]!.trim();
    raw = true;
  }
  if (formatMatch) {
    name = formatMatch[1]!.trim();
    format = quotedValues(valuesText)[0] ?? '';
  }
  const field = name.replace(/\./g, '_');
  const { submission } = context;
  let submitted: unknown = null;
  if (submission) {
    if (raw) submitted = Object.hasOwn(submission.raw, field) ? submission.raw[field] : '';
    else if (Object.hasOwn(submission.posted, field)) submitted = submission.posted[field];
  }
  let replaced: string | null = null;
  if (submitted !== null && submitted !== undefined) {
    const values = format ? reformatDates(submitted, format, context.siteTime) : submitted;
    replaced = flatJoin(values, ', ');
    if (html) replaced = texturize(escapeHtml(replaced));
  }
  const formTag = submission
    ? context.tags.find((tag) => tag.name === field && !supports(tag.type, 'zero-controls-container'))
    : undefined;
  if (formTag && submission) replaced = typeSpecific(formTag, replaced, submitted, submission, html);
  if (replaced !== null) return phpTrim(replaced);
  return specialTag(tagName.replace(/^wpcf7\./, '_'), context, html);
}

function reformatDates(value: unknown, format: string, site: SiteTime): unknown {
  const list = Array.isArray(value) ? value : [value];
  return list.map((item) => {
    if (typeof item !== 'string') return item;
    const instant = instantOfLocalDate(item, site);
    return instant ? formatDate(format, instant, site) : item;
  });
}

function typeSpecific(tag: FormTag, replaced: string | null, submitted: unknown, submission: SubmissionView, html: boolean): string | null {
  if (tag.basetype === 'acceptance') {
    const consented = Array.isArray(submitted) ? submitted.length > 0 : submitted !== '' && submitted !== null && submitted !== undefined;
    let label = tag.content !== '' ? tag.content : (tag.values[0] ?? '');
    if (!html) label = stripAllTags(label);
    label = phpTrim(label);
    const word = consented ? TEXTS.consented : TEXTS.notConsented;
    return label ? `${word}: ${label}` : word;
  }
  if (tag.basetype === 'file') {
    const names = submission.uploads[tag.name];
    if (names && names.length > 0) return names.join(', ');
  }
  return replaced;
}

function specialTag(name: string, context: MailTagContext, html: boolean): string | null {
  const { site, submission } = context;
  switch (name) {
    case '_site_title': return html ? escapeHtml(site.title) : site.title;
    case '_site_description': return html ? escapeHtml(site.description) : site.description;
    case '_site_url': return site.url;
    case '_site_domain': {
      try {
        const host = new URL(site.url).hostname;
        return host.startsWith('www.') ? host.slice(4) : host;
      } catch {
        return '';
      }
    }
    case '_site_admin_email': return site.adminEmail;
    default: break;
  }
  if (!submission) return null;
  switch (name) {
    case '_remote_ip': return submission.remoteIp;
    case '_user_agent': return html ? escapeHtml(submission.userAgent) : submission.userAgent;
    case '_url': return submission.url;
    case '_date': return formatDate(context.dateFormat, submission.time, context.siteTime);
    case '_time': return formatDate(context.timeFormat, submission.time, context.siteTime);
    case '_invalid_fields': return String(submission.invalidFieldCount);
    case '_contact_form_title': return html ? escapeHtml(submission.formTitle) : submission.formTitle;
    default: break;
  }
  if (name.startsWith('_post_')) {
    const post = submission.post;
    if (!post) return '';
    const values: Record<string, string> = {
      _post_id: String(post.id), _post_name: post.slug, _post_title: html ? escapeHtml(post.title) : post.title,
      _post_url: post.url, _post_author: post.authorName, _post_author_email: post.authorEmail,
    };
    return values[name] ?? null;
  }
  if (name.startsWith('_user_') && name !== '_user_agent') {
    if (!submission.user) return '';
    const key = name.slice(1);
    const property = ['user_login', 'user_email', 'user_url'].includes(key) ? key : key.slice(5);
    return submission.user[property] ?? '';
  }
  return null;
}

/** A message as shown: tags replaced, then HTML stripped. */
export function filterMessage(message: string, context: MailTagContext): string {
  return stripAllTags(replaceMailTags(message, context));
}
