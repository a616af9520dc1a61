/**
 * The records of a WXR file (WordPress's `export.php`, WXR 1.0–1.2), read from parsed channel children and
 * checked: what the import needs must be there and make sense, or the file is refused with the line.
 * Dates are turned into the stored form (`YYYY-MM-DDTHH:MM:SS`); WordPress's zero date becomes null.
 */
import { WxrError } from './errors.js';
import type { ExportedUser } from './ports.js';
import { child, childrenNamed, textOf, type XmlElement } from './xml-tree.js';

export interface WxrSite {
  title: string;
  link: string;
  description: string;
  language: string;
  version: string;
  baseSiteUrl: string;
  baseBlogUrl: string;
}

/** An author of the file, with the line it starts on. */
export interface WxrAuthor extends ExportedUser {
  line: number;
}

/** A category, tag or other term from the channel. */
export interface WxrTerm {
  id: number;
  taxonomy: string;
  slug: string;
  name: string;
  description: string;
  /** The parent's slug, `''` for none (WXR names parents by slug). */
  parentSlug: string;
  line: number;
}

export interface WxrMeta {
  key: string;
  value: string;
}

export interface WxrComment {
  id: number;
  author: string;
  authorEmail: string;
  authorUrl: string;
  authorIp: string;
  date: string | null;
  dateGmt: string | null;
  content: string;
  /** `1`, `0`, `spam`, `trash`, `post-trashed`. */
  approved: string;
  type: string;
  parent: number;
  userId: number;
  meta: WxrMeta[];
}

export interface WxrItem {
  id: number;
  type: string;
  title: string;
  guid: string;
  /** The author's login. */
  creator: string;
  content: string;
  excerpt: string;
  date: string | null;
  dateGmt: string | null;
  modified: string | null;
  modifiedGmt: string | null;
  commentStatus: string;
  pingStatus: string;
  slug: string;
  status: string;
  parent: number;
  menuOrder: number;
  password: string;
  sticky: boolean;
  attachmentUrl: string;
  terms: { taxonomy: string; slug: string; name: string }[];
  meta: WxrMeta[];
  comments: WxrComment[];
  line: number;
}

function invalid(element: XmlElement, message: string): never {
  throw new WxrError('wxr_invalid', `<${element.name}>: ${message}`, element.line);
}

function required(element: XmlElement, name: string): string {
  const found = child(element, name);
  const value = found?.text.trim() ?? '';
  if (value === '') invalid(element, `<${name}> is missing or empty`);
  return value;
}

function integer(element: XmlElement, name: string, { required: must = false, signed = false } = {}): number {
  const text = must ? required(element, name) : textOf(element, name).trim();
  if (text === '') return 0;
  const value = (signed ? /^-?\d{1,15}$/ : /^\d{1,15}$/).test(text) ? Number(text) : NaN;
  if (!Number.isSafeInteger(value)) invalid(element, `<${name}> holds "${text.slice(0, 40)}", not a whole number`);
  return value;
}

const WXR_DATE = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/;

/** `YYYY-MM-DD HH:MM:SS` → stored form; empty or WordPress's zero date → null. */
function date(element: XmlElement, name: string): string | null {
  const text = textOf(element, name).trim();
  if (text === '' || text === '0000-00-00 00:00:00') return null;
  const match = WXR_DATE.exec(text);
  const [month, day, hour, minute, second] = (match?.slice(2) ?? []).map(Number) as number[];
  if (!match || month! < 1 || month! > 12 || day! < 1 || day! > 31 || hour! > 23 || minute! > 59 || second! > 59) {
    invalid(element, `<${name}> holds "${text.slice(0, 40)}", not a date like 2024-05-01 12:00:00`);
  }
  return text.replace(' ', 'T');
}

function metaList(element: XmlElement, name: string): WxrMeta[] {
  return childrenNamed(element, name).map((meta) => ({ key: textOf(meta, 'wp:meta_key'), value: textOf(meta, 'wp:meta_value') }));
}

export function readSiteField(site: WxrSite, element: XmlElement): void {
  const text = element.text.trim();
  switch (element.name) {
    case 'title': site.title = element.text; break;
    case 'link': site.link = text; break;
    case 'description': site.description = element.text; break;
    case 'language': site.language = text; break;
    case 'wp:wxr_version':
      if (!/^\d+\.\d+$/.test(text)) invalid(element, `"${text.slice(0, 20)}" is not a WXR version number`);
      site.version = text;
      break;
    case 'wp:base_site_url': site.baseSiteUrl = text; break;
    case 'wp:base_blog_url': site.baseBlogUrl = text; break;
    default:
  }
}

export function readAuthor(element: XmlElement): WxrAuthor {
  return {
    id: integer(element, 'wp:author_id'),
    login: required(element, 'wp:author_login'),
    email: textOf(element, 'wp:author_email').trim(),
    displayName: textOf(element, 'wp:author_display_name'),
    firstName: textOf(element, 'wp:author_first_name'),
    lastName: textOf(element, 'wp:author_last_name'),
    line: element.line,
  };
}

/** `<wp:category>`, `<wp:tag>` or `<wp:term>`. */
export function readTerm(element: XmlElement): WxrTerm {
  const id = integer(element, 'wp:term_id');
  const line = element.line;
  if (element.name === 'wp:category') {
    const slug = required(element, 'wp:category_nicename');
    const name = textOf(element, 'wp:cat_name');
    return { id, taxonomy: 'category', slug, name: name || slug, description: textOf(element, 'wp:category_description'), parentSlug: textOf(element, 'wp:category_parent').trim(), line };
  }
  if (element.name === 'wp:tag') {
    const slug = required(element, 'wp:tag_slug');
    const name = textOf(element, 'wp:tag_name');
    return { id, taxonomy: 'post_tag', slug, name: name || slug, description: textOf(element, 'wp:tag_description'), parentSlug: '', line };
  }
  const slug = required(element, 'wp:term_slug');
  const name = textOf(element, 'wp:term_name');
  return {
    id, taxonomy: required(element, 'wp:term_taxonomy'), slug, name: name || slug, description: textOf(element, 'wp:term_description'),
    parentSlug: textOf(element, 'wp:term_parent').trim(), line,
  };
}

function readComment(element: XmlElement): WxrComment {
  return {
    id: integer(element, 'wp:comment_id', { required: true }),
    author: textOf(element, 'wp:comment_author'),
    authorEmail: textOf(element, 'wp:comment_author_email').trim(),
    authorUrl: textOf(element, 'wp:comment_author_url').trim(),
    authorIp: textOf(element, 'wp:comment_author_IP').trim(),
    date: date(element, 'wp:comment_date'),
    dateGmt: date(element, 'wp:comment_date_gmt'),
    content: textOf(element, 'wp:comment_content'),
    approved: textOf(element, 'wp:comment_approved').trim() || '1',
    type: textOf(element, 'wp:comment_type').trim(),
    parent: integer(element, 'wp:comment_parent'),
    userId: integer(element, 'wp:comment_user_id'),
    meta: metaList(element, 'wp:commentmeta'),
  };
}

export function readItem(element: XmlElement): WxrItem {
  const terms = childrenNamed(element, 'category')
    .filter((category) => category.attributes.nicename !== undefined)
    .map((category) => ({ taxonomy: (category.attributes.domain ?? 'category').trim(), slug: category.attributes.nicename!.trim(), name: category.text }));
  const sticky = textOf(element, 'wp:is_sticky').trim();
  return {
    id: integer(element, 'wp:post_id', { required: true }),
    type: required(element, 'wp:post_type'),
    title: textOf(element, 'title'),
    guid: textOf(element, 'guid').trim(),
    creator: textOf(element, 'dc:creator').trim(),
    content: textOf(element, 'content:encoded'),
    excerpt: textOf(element, 'excerpt:encoded'),
    date: date(element, 'wp:post_date'),
    dateGmt: date(element, 'wp:post_date_gmt'),
    modified: date(element, 'wp:post_modified'),
    modifiedGmt: date(element, 'wp:post_modified_gmt'),
    commentStatus: textOf(element, 'wp:comment_status').trim(),
    pingStatus: textOf(element, 'wp:ping_status').trim(),
    slug: textOf(element, 'wp:post_name').trim(),
    status: textOf(element, 'wp:status').trim(),
    parent: integer(element, 'wp:post_parent'),
    menuOrder: integer(element, 'wp:menu_order', { signed: true }),
    password: textOf(element, 'wp:post_password'),
    sticky: sticky !== '' && sticky !== '0',
    attachmentUrl: textOf(element, 'wp:attachment_url').trim(),
    terms,
    meta: metaList(element, 'wp:postmeta'),
    comments: childrenNamed(element, 'wp:comment').map(readComment),
    line: element.line,
  };
}
