/**
 * The checks of a sign-up, in the order the reference plugin runs them; only the first error is reported:
 * 1. `no_lists_selected` — the lists (the form's, or the `_mc4wp_lists` override) are empty;
 * 2. spam, at most one of `spam.user_agent` (missing or bot-like), `spam.timestamp` (`_mc4wp_timestamp` missing,
 *    not a number, under 2 seconds old or over 90 days old), `spam.honeypot` (`_mc4wp_honeypot` missing or filled);
 * 3. only when nothing failed yet: `invalid_email`, then `required_field_missing` (a required field sent empty;
 *    one not sent at all passes).
 */
import { isNumeric } from '../../format/php.js';
import type { FormSettings } from '../settings.js';
import { isEmail } from './email.js';
import { withoutEmptyItems, type PostedSignup, type Value } from './request-data.js';

/** The form's configuration for this request, after the `_mc4wp_*` overrides. */
export interface SignupConfig {
  lists: string[];
  action: 'subscribe' | 'unsubscribe';
  emailType: 'html' | 'text' | '';
}

const BOT_AGENT = /bot|crawl|spider|seo|lighthouse|facebookexternalhit|preview/i;
const DAY_SECONDS = 86_400;

export function signupConfig(posted: PostedSignup, settings: FormSettings): SignupConfig {
  const config: SignupConfig = { lists: [...settings.lists], action: 'subscribe', emailType: '' };
  const lists = posted.raw._mc4wp_lists;
  if (lists !== undefined) {
    // A list of ids drops its empty items; a string is a comma list whose empty parts still count as lists.
    config.lists = typeof lists === 'string'
      ? lists.split(',').map((id) => id.trim())
      : Object.values(withoutEmptyItems(lists)).filter((id): id is string => typeof id === 'string');
  }
  if (posted.raw._mc4wp_action === 'unsubscribe') config.action = 'unsubscribe';
  const emailType = posted.raw._mc4wp_email_type;
  if (emailType === 'html' || emailType === 'text') config.emailType = emailType;
  return config;
}

/**
 * The names of the required fields: the setting's comma list upper-cased, `[sub]` parts removed, `EMAIL`,
 * duplicates and empty names dropped, and a dotted name's sub-key lower-cased again (`ADDRESS.city`).
 */
export function requiredFields(setting: string): string[] {
  const names = setting.toUpperCase().replace(/\[\w+\]/g, '').split(',').map((name) => name.trim());
  const kept = new Set<string>();
  for (const name of names) {
    if (name === '' || name === '0' || name === 'EMAIL') continue;
    const dot = name.indexOf('.');
    kept.add(dot > 0 ? name.slice(0, dot) + name.slice(dot).toLowerCase() : name);
  }
  return [...kept];
}

/** A data value by name, or by a dotted path into list and map values. */
function lookup(data: Record<string, Value>, name: string): Value | undefined {
  if (Object.hasOwn(data, name)) return data[name];
  let current: Value | undefined = data as Value;
  for (const segment of name.split('.')) {
    if (current === undefined || typeof current === 'string' || !Object.hasOwn(current, segment)) return undefined;
    current = (current as Record<string, Value>)[segment];
  }
  return current;
}

function isSpamTimestamp(value: Value | undefined, nowSeconds: number): boolean {
  if (typeof value !== 'string' || !isNumeric(value)) return true;
  const stamp = Number(value);
  return stamp < nowSeconds - 90 * DAY_SECONDS || stamp > nowSeconds - 2;
}

/** The first error key, or null when the sign-up may go on. */
export function firstError(posted: PostedSignup, config: SignupConfig, settings: FormSettings, userAgent: string, nowSeconds: number): string | null {
  if (config.lists.length === 0) return 'no_lists_selected';
  if (userAgent === '' || BOT_AGENT.test(userAgent)) return 'spam.user_agent';
  if (isSpamTimestamp(posted.raw._mc4wp_timestamp, nowSeconds)) return 'spam.timestamp';
  if (posted.raw._mc4wp_honeypot !== '') return 'spam.honeypot';
  if (!isEmail(posted.data.EMAIL)) return 'invalid_email';
  for (const name of requiredFields(settings.required_fields)) {
    const value = lookup(posted.data, name);
    if (value === '' || (value !== undefined && typeof value !== 'string' && Object.keys(value).length === 0)) {
      return 'required_field_missing';
    }
  }
  return null;
}
