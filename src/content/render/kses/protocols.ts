/**
 * Removing URL schemes that are not on the allowed list from the front of a URL, the way the reference
 * cleans URL attributes: `javascript:alert(1)` becomes `alert(1)`, a harmless relative URL. The scheme is
 * compared after decoding numeric entities, dropping whitespace and lowercasing, so obfuscated schemes are
 * caught too.
 */
import { trimCharacters } from '../patterns.js';
import { ALLOWED_PROTOCOLS } from './allowed-html.js';

const PROTOCOL_SEPARATOR = /:|&#0*58;|&#x0*3a;/i;

/**
 * Removes protocols that are not allowed from the front of a URL, repeatedly; returns `''` if the value
 * keeps changing. An unchanged result means the URL is acceptable.
 */
export function stripDisallowedProtocols(url: string): string {
  let current = url;
  for (let iteration = 0; iteration < 6; iteration++) {
    const next = stripProtocolOnce(current);
    if (next === current) return current;
    current = next;
  }
  return '';
}

function stripProtocolOnce(url: string): string {
  const separator = PROTOCOL_SEPARATOR.exec(url);
  if (!separator) return url;
  const before = url.slice(0, separator.index);
  // A "/?" before the colon means it belongs to a path or query, not a scheme.
  if (before.includes('/?')) return url;
  const rest = trimCharacters(url.slice(separator.index + separator[0].length));
  const scheme = decodeNumericEntities(before).replace(/[\t\n\v\f\r \0]/g, '').toLowerCase();
  return (ALLOWED_PROTOCOLS.includes(scheme) ? `${scheme}:` : '') + rest;
}

function decodeNumericEntities(text: string): string {
  return text
    .replace(/&#0*([0-9]+);/g, (_, decimal: string) => String.fromCodePoint(Math.min(Number(decimal), 0x10ffff)))
    .replace(/&#[Xx]0*([0-9A-Fa-f]+);/g, (_, hex: string) => String.fromCodePoint(Math.min(Number.parseInt(hex, 16), 0x10ffff)));
}
