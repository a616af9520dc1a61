/** Post slugs: the reference's `sanitize_title` (shared with terms) and its length limit for suffixed slugs. */
import { sanitizeTitle as sanitizeTitleNow } from '../../format/slug.js';

export { removeAccents } from '../../format/slug.js';

/** Titles and slugs remembered with their sanitised form: every save and edit answer sanitises the same few. */
const sanitized = new Map<string, string>();
const MOST_SANITIZED = 500;
/** Longer texts are sanitised each time (remembering them would hold large strings). */
const LONGEST_SANITIZED = 1_000;

/** `sanitize_title`: a pure function of the text, remembered for short texts (`fallback` is not part of it). */
export function sanitizeTitle(title: string, fallback = ''): string {
  if (title.length > LONGEST_SANITIZED) return sanitizeTitleNow(title, fallback);
  let slug = sanitized.get(title);
  if (slug === undefined) {
    slug = sanitizeTitleNow(title);
    if (sanitized.size >= MOST_SANITIZED) sanitized.delete(sanitized.keys().next().value!);
    sanitized.set(title, slug);
  }
  return slug === '' ? fallback : slug;
}

const encoder = new TextEncoder();

/** Percent-encodes every byte outside `A-Z a-z 0-9 - _ . ~` (lower-case hex), stopping before `length` characters. */
function encodeWithin(text: string, length: number): string {
  let output = '';
  for (const char of text) {
    const encoded = /^[A-Za-z0-9\-_.~]$/.test(char)
      ? char
      : [...encoder.encode(char)].map((byte) => `%${byte.toString(16).padStart(2, '0')}`).join('');
    if (output.length + encoded.length > length) break;
    output += encoded;
  }
  return output;
}

/**
 * Shortens a slug to `length` characters without cutting a percent-encoded character in half, then drops
 * trailing dashes (the reference's `_truncate_post_slug`).
 */
export function truncateSlug(slug: string, length: number): string {
  let truncated = slug;
  if (slug.length > length) {
    let decoded = slug;
    try {
      decoded = decodeURIComponent(slug);
    } catch {
      // Malformed escapes: cut the text as it is.
    }
    truncated = decoded === slug ? slug.slice(0, length) : encodeWithin(decoded, length);
  }
  return truncated.replace(/-+$/, '');
}
