import { escapeHtml } from './entities.js';
import { isWellFormedText } from './pcre.js';
import { asciiLower, isScalar, phpTrim, toPhpString } from './php.js';
import { stripAllTags } from './strip-tags.js';

/**
 * The reference's `sanitize_text_field` (and, with `keepNewlines`, `sanitize_textarea_field`): invalid text
 * gives "", a lone `<` is HTML-escaped, tags are stripped (with the contents of `script`/`style`), white space
 * runs collapse to one space (unless newlines are kept), the result is trimmed and `%xx` octets are removed.
 */
export function sanitizeTextField(text: unknown, keepNewlines = false): string {
  if (text !== null && text !== undefined && !isScalar(text)) return '';
  let filtered = toPhpString(text);
  if (!isWellFormedText(filtered)) return '';
  if (filtered.includes('<')) {
    filtered = filtered.replace(/<[^>]*?(?:(?=<)|>|$)/g, (segment) => (segment.includes('>') ? segment : escapeHtml(segment)));
    filtered = stripAllTags(filtered);
    // Keeps a later newline collapse from turning "<\n" into a working tag.
    filtered = filtered.replaceAll('<\n', '&lt;\n');
  }
  if (!keepNewlines) filtered = filtered.replace(/[\r\n\t ]+/g, ' ');
  filtered = phpTrim(filtered);
  let removedOctets = false;
  for (let octet = /%[a-f0-9]{2}/i.exec(filtered); octet; octet = /%[a-f0-9]{2}/i.exec(filtered)) {
    filtered = filtered.replaceAll(octet[0], '');
    removedOctets = true;
  }
  if (removedOctets) filtered = phpTrim(filtered.replace(/ +/g, ' '));
  return filtered;
}

/** The reference's `sanitize_key`: lower-case ASCII letters, digits, `_` and `-` only. */
export function sanitizeKey(key: unknown): string {
  if (!isScalar(key)) return '';
  return asciiLower(toPhpString(key)).replace(/[^a-z0-9_-]/g, '');
}
