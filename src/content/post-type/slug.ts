/** Post slugs: the reference's `sanitize_title` (shared with terms) and its length limit for suffixed slugs. */
export { removeAccents, sanitizeTitle } from '../../format/slug.js';

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
