/** How user fields are cleaned before they are stored (the reference's `pre_user_*` filters and helpers). */
import { sanitizeHtml } from '../format/lazy-modules.js';
import { HTML4_ENTITY_NAMES } from '../format/entities.js';
import { stripAllTags } from '../format/strip-tags.js';
import { sanitizeTextField } from '../format/text.js';
import { ALLOWED_PROTOCOLS, sanitizeUrl } from '../format/url.js';
import { TITLE_ALLOWED_HTML } from '../format/kses/allowed-html.js';
import { limitNesting } from '../format/kses/nesting.js';

export const MAX_LOGIN_LENGTH = 60;
export const MAX_SLUG_LENGTH = 50;
export const MAX_URL_LENGTH = 100;
/**
 * The most characters a display name, first or last name, or nickname may hold as sent: the reference keeps
 * display names in a column of 250, and any of these may become the display name.
 */
export const MAX_NAME_LENGTH = 250;
/**
 * The most characters a URL or slug may hold as sent, before it is cleaned (and then held to `MAX_URL_LENGTH`
 * or `MAX_SLUG_LENGTH` as the reference does): cleaning happens on the main thread.
 */
export const MAX_SENT_URL_OR_SLUG_LENGTH = 2048;
/**
 * The most characters a description (biographical info) may hold as sent: sanitised on the main thread, the
 * densest markup of this length takes some milliseconds.
 */
export const MAX_DESCRIPTION_LENGTH = 16_384;
/** The most characters an application password's name may hold as sent (it is cleaned on the main thread). */
export const MAX_APPLICATION_NAME_LENGTH = 200;

/** Letters lose their accents (a close stand-in for the reference's `remove_accents`). */
function removeAccents(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '');
}

/**
 * The reference's strict `sanitize_user`: tags, accents, `%xx` octets and entities go, then everything but
 * ASCII letters, digits, space, `_ . - @`; the rest is trimmed with inner white space collapsed.
 */
export function sanitizeLogin(login: string): string {
  let cleaned = removeAccents(stripAllTags(login));
  cleaned = cleaned.replace(/%[a-fA-F0-9]{2}/g, '').replace(/&.+?;/g, '');
  cleaned = cleaned.replace(/[^a-z0-9 _.\-@]/gi, '');
  return cleaned.trim().replace(/\s+/g, ' ');
}

/** The reference's `validate_username`: the login is what `sanitizeLogin` makes of it, and not empty. */
export function isValidLogin(login: string): boolean {
  return login !== '' && sanitizeLogin(login) === login;
}

/**
 * A user slug (the reference's `user_nicename`) from a login or a requested slug: a login-safe string turned
 * into lower-case words joined by dashes, dots becoming dashes.
 */
export function userSlug(text: string): string {
  return sanitizeLogin(text)
    .toLowerCase()
    .replace(/\./g, '-')
    .replace(/[^a-z0-9 _-]/g, '')
    .replace(/\s+/g, '-')
    .replace(/-+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/** `&`, `<` and `>` become entities, leaving well-formed character references alone (no double encoding). */
export function escapeSpecialCharacters(text: string): string {
  return text
    .replace(/&(?!(?:#[0-9]+|#x[0-9a-fA-F]+|([A-Za-z][A-Za-z0-9]*));)/g, '&amp;')
    .replace(/&([A-Za-z][A-Za-z0-9]*);/g, (reference, name: string) => (HTML4_ENTITY_NAMES.has(name) ? reference : `&amp;${name};`))
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');
}

/** Display name, first and last name, nickname: plain text with HTML special characters escaped. */
export function sanitizeNameField(text: string): string {
  return escapeSpecialCharacters(sanitizeTextField(text));
}

/** The reference's inline set (as for titles), with `rel` on links for user descriptions. */
const DESCRIPTION_ALLOWED_HTML: Readonly<Record<string, string[]>> = Object.fromEntries(
  Object.entries(TITLE_ALLOWED_HTML).map(([tag, attributes]) => [tag, tag === 'a' ? [...attributes, 'rel'] : [...attributes]]),
);

const DESCRIPTION_OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: Object.keys(DESCRIPTION_ALLOWED_HTML),
  allowedAttributes: DESCRIPTION_ALLOWED_HTML,
  allowedSchemes: [...ALLOWED_PROTOCOLS],
  allowedSchemesByTag: {},
  allowedSchemesAppliedToAttributes: ['href', 'cite'],
  allowProtocolRelative: true,
  disallowedTagsMode: 'discard',
  nonTextTags: [],
  parser: { decodeEntities: false, lowerCaseTags: true, lowerCaseAttributeNames: true },
};

/** Biographical info: only the inline tags above survive, with safe URLs. */
export function sanitizeDescription(html: string): string {
  const text = html.replace(/[\x00-\x08\x0B\x0C\x0E-\x1F]/g, '');
  // Text without markup characters comes out unchanged; skipping the sanitiser keeps it unloaded (megabytes).
  if (!/[<>&]/.test(text)) return text;
  return sanitizeHtml(limitNesting(text), DESCRIPTION_OPTIONS);
}

export function sanitizeUserUrl(url: string): string {
  return sanitizeUrl(stripAllTags(url));
}
