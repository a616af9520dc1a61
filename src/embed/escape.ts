/** Escaping for the markup oEmbed answers carry, with the reference's rules (`esc_url`, `esc_attr`, `esc_html`). */
import { escapeHtml } from '../format/entities.js';
import { toInt } from '../format/php.js';
import { sanitizeUrl } from '../format/url.js';

/** `esc_attr` and `esc_html`: `& < > " '` escaped, well-formed character references kept. */
export const escapeText = escapeHtml;

const BARE_AMPERSAND = /&(?!(?:[a-zA-Z][a-zA-Z0-9]*|#\d+|#x[0-9a-fA-F]+);)/g;

/** `esc_url` for display: a cleaned URL (empty when its scheme is not allowed) with `&` as `&#038;`. */
export function escapeUrl(url: string): string {
  const clean = sanitizeUrl(url);
  return clean.replace(BARE_AMPERSAND, '&#038;').replaceAll('&amp;', '&#038;').replaceAll("'", '&#039;');
}

/** PHP's `absint`: the integer value (as `(int)` reads it), made non-negative. */
export function absint(value: unknown): number {
  return Math.abs(toInt(value));
}
