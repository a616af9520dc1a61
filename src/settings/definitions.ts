/**
 * The site settings `/settings` serves, in the reference's order: their schema, their default, how a written value
 * is cleaned, and which field of the site settings (`SiteSettings`) a stored value overrides, so the index,
 * links and rendering follow a change at once.
 */
import type { JsonSchema } from '../core/args/schema.js';
import { isEmail } from '../format/formats.js';
import { escapeHtml } from '../format/entities.js';
import { stripAllTags } from '../format/strip-tags.js';
import { sanitizeUrl } from '../format/url.js';
import type { SiteSettings } from '../core/site.js';

/** A written value, cleaned; or a message saying why it cannot be stored. */
export type Cleaned = { ok: true; value: unknown } | { ok: false; message: string };

export interface SettingDefinition {
  /** The name in the interface. */
  name: string;
  schema: JsonSchema;
  /** The value when nothing is stored and the host set nothing. */
  fallback: unknown;
  /** The site settings field a stored value overrides. */
  site?: keyof SiteSettings;
  clean(value: unknown): Cleaned;
}

const keep = (value: unknown): Cleaned => ({ ok: true, value });
const absint = (value: unknown): Cleaned => ({ ok: true, value: Math.abs(Math.trunc(Number(value) || 0)) });

function isTimeZone(zone: string): boolean {
  if (!/^[A-Za-z_]+(?:\/[A-Za-z0-9_+-]+)*$/.test(zone)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/**
 * The most characters a text setting may hold as sent: a title or a format is short, and a stored value is
 * escaped or stripped on the main thread, then written into many answers (the index, feeds, exports).
 */
export const MAX_SETTING_LENGTH = 4096;

const string = (description: string, extra: JsonSchema = {}): JsonSchema => ({
  type: 'string', description, default: null, maxLength: MAX_SETTING_LENGTH, ...extra,
});
const integer = (description: string, extra: JsonSchema = {}): JsonSchema => ({ type: 'integer', description, default: null, ...extra });

export const SETTINGS: readonly SettingDefinition[] = [
  { name: 'title', schema: string('Site title.'), fallback: 'quire', site: 'name', clean: (value) => keep(escapeHtml(String(value))) },
  { name: 'description', schema: string('Site tagline.'), fallback: '', site: 'description', clean: (value) => keep(escapeHtml(String(value))) },
  {
    name: 'url', schema: string('Site URL.', { format: 'uri' }), fallback: '', site: 'url',
    clean: (value) => {
      const url = sanitizeUrl(String(value)).replace(/\/+$/, '');
      return /^https?:\/\/.+/i.test(url) ? keep(url) : { ok: false, message: 'url must be an http or https address.' };
    },
  },
  {
    name: 'email', schema: string('This address is used for admin purposes, like new user notification.', { format: 'email' }), fallback: '',
    clean: (value) => (isEmail(String(value).trim()) ? keep(String(value).trim()) : { ok: false, message: 'email must be a valid email address.' }),
  },
  {
    name: 'timezone', schema: string('A city in the same timezone as you.'), fallback: '', site: 'timezone',
    clean: (value) => {
      const zone = String(value).trim();
      return zone === '' || isTimeZone(zone) ? keep(zone) : { ok: false, message: 'timezone is not a known time zone.' };
    },
  },
  { name: 'date_format', schema: string('A date format for all date strings.'), fallback: 'F j, Y', clean: (value) => keep(stripAllTags(String(value))) },
  { name: 'time_format', schema: string('A time format for all time strings.'), fallback: 'g:i a', clean: (value) => keep(stripAllTags(String(value))) },
  { name: 'start_of_week', schema: integer('A day number of the week that the week should start on.'), fallback: 1, clean: absint },
  {
    name: 'language', schema: string('WordPress locale code.', { default: 'en_US' }), fallback: 'en_US',
    clean: (value) => (value === 'en_US' || value === '' ? keep('en_US') : { ok: false, message: 'language must be an installed locale (en_US).' }),
  },
  {
    name: 'use_smilies', schema: { type: 'boolean', description: 'Convert emoticons like :-) and :-P to graphics on display.', default: true },
    fallback: true, site: 'useSmilies', clean: keep,
  },
  { name: 'default_category', schema: integer('Default post category.'), fallback: 1, clean: absint },
  { name: 'default_post_format', schema: string('Default post format.'), fallback: '0', clean: (value) => keep(stripAllTags(String(value))) },
  {
    name: 'posts_per_page', schema: integer('Blog pages show at most.', { default: 10 }), fallback: 10,
    clean: (value) => {
      const count = Math.trunc(Number(value) || 0);
      return keep(count === 0 ? 1 : count < -1 ? Math.abs(count) : count);
    },
  },
  {
    name: 'show_on_front', schema: string('What to show on the front page'), fallback: 'posts', site: 'showOnFront',
    clean: (value) => (value === 'posts' || value === 'page' ? keep(value) : { ok: false, message: 'show_on_front must be posts or page.' }),
  },
  { name: 'page_on_front', schema: integer('The ID of the page that should be displayed on the front page'), fallback: 0, site: 'pageOnFront', clean: absint },
  { name: 'page_for_posts', schema: integer('The ID of the page that should display the latest posts'), fallback: 0, site: 'pageForPosts', clean: absint },
  {
    name: 'default_ping_status',
    schema: string('Allow link notifications from other blogs (pingbacks and trackbacks) on new articles.', { enum: ['open', 'closed'] }),
    fallback: 'open', clean: keep,
  },
  {
    name: 'default_comment_status', schema: string('Allow people to submit comments on new posts.', { enum: ['open', 'closed'] }),
    fallback: 'open', clean: keep,
  },
  { name: 'site_logo', schema: integer('Site logo.'), fallback: null, site: 'siteLogo', clean: absint },
  { name: 'site_icon', schema: integer('Site icon.'), fallback: 0, site: 'siteIcon', clean: absint },
];

export function settingNamed(name: string): SettingDefinition | undefined {
  return SETTINGS.find((setting) => setting.name === name);
}

/** The host's settings with stored values laid over them. */
export function withStoredValues(host: SiteSettings, stored: Readonly<Record<string, unknown>>): SiteSettings {
  const merged: Record<string, unknown> = { ...host };
  for (const setting of SETTINGS) {
    if (!setting.site || !Object.hasOwn(stored, setting.name)) continue;
    merged[setting.site] = stored[setting.name];
  }
  // A stored time zone decides the offset too.
  if (Object.hasOwn(stored, 'timezone')) {
    if (stored.timezone !== '') delete merged.gmtOffset;
  }
  return merged as SiteSettings;
}
