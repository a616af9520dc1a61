/**
 * Text helpers with the plugin's rules: Unicode white space trimming, flattening of posted values, joining for
 * mail, canonical forms for quiz answers and pipes, and the HTML entities its templates use.
 */
import { phpTrim as trimDefault } from '../format/php.js';

/** The Unicode white space characters the plugin trims and splits on (as a character-class body). */
export const WHITESPACE = '\\x09-\\x0D\\x20\\x85\\xA0\\u1680\\u2000-\\u200A\\u2028\\u2029\\u202F\\u205F\\u3000';

const STRIPPED = new RegExp(`[${WHITESPACE}\\uFEFF]`);
const RUN = new RegExp(`[${WHITESPACE}]+`, 'u');

let strippedTable: Uint8Array | undefined;

/** `STRIPPED` as a table of code units (all it matches is in the BMP): testing it a character at a time was slow. */
function strippedUnits(): Uint8Array {
  if (!strippedTable) {
    strippedTable = new Uint8Array(0x10000);
    for (let unit = 0; unit < 0x10000; unit++) if (STRIPPED.test(String.fromCharCode(unit))) strippedTable[unit] = 1;
  }
  return strippedTable;
}

/**
 * The text without leading and trailing Unicode white space. Scanned from both ends: an end-anchored pattern
 * would try every position of a long text.
 */
export function stripWhitespaces(text: string): string {
  const stripped = strippedUnits();
  let start = 0;
  let end = text.length;
  while (start < end && stripped[text.charCodeAt(start)] === 1) start++;
  while (end > start && stripped[text.charCodeAt(end - 1)] === 1) end--;
  return start === 0 && end === text.length ? text : text.slice(start, end);
}

/** Splits on runs of Unicode white space (the text is expected to be stripped already). */
export function splitWhitespace(text: string): string[] {
  return text.split(RUN);
}

export function isWhitespace(character: string): boolean {
  return RUN.test(character);
}

/** PHP's `trim` with its default characters (one argument, so that it can be handed to `map`). */
export function phpTrim(text: string): string {
  return trimDefault(text);
}

/** A posted value as a flat list: scalars become one item, lists and maps give their leaves in order. */
export function flatten(value: unknown): unknown[] {
  if (value === null || typeof value !== 'object') return [value];
  const output: unknown[] = [];
  const stack: unknown[] = [value];
  // Depth is bounded by the body parsers; an explicit stack keeps deep values off the call stack anyway.
  while (stack.length > 0) {
    const current = stack.pop();
    if (current !== null && typeof current === 'object') {
      const children = Object.values(current as Record<string, unknown>);
      for (let index = children.length - 1; index >= 0; index--) stack.push(children[index]);
    } else {
      output.push(current);
    }
  }
  return output;
}

/** A scalar as PHP's string cast prints it. */
export function phpString(value: unknown): string {
  if (value === true) return '1';
  if (value === false || value === null || value === undefined) return '';
  return String(value);
}

/** The flattened items of a value as trimmed strings, without empty ones: what every SWV rule reads. */
export function inputItems(value: unknown): string[] {
  return flatten(value)
    .filter((item) => item !== null && item !== undefined && typeof item !== 'object')
    .map((item) => stripWhitespaces(phpString(item)))
    .filter((item) => item !== '');
}

/** Joins the scalar leaves of a value, each trimmed (the plugin's `wpcf7_flat_join`). */
export function flatJoin(value: unknown, separator = ', '): string {
  return flatten(value)
    .filter((item) => item !== null && item !== undefined && typeof item !== 'object')
    .map((item) => phpTrim(phpString(item)))
    .join(separator);
}

/** Length in UTF-16 code units, a CRLF counting as one: the HTML `maxlength` measure. */
export function countCodeUnits(text: string): number {
  return text.replace(/\r\n/g, '\n').length;
}

const NAMED_ENTITIES: Readonly<Record<string, string>> = {
  amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0', ndash: '\u2013', mdash: '\u2014',
  hellip: '\u2026', lsquo: '\u2018', rsquo: '\u2019', ldquo: '\u201c', rdquo: '\u201d', laquo: '\u00ab',
  raquo: '\u00bb', copy: '\u00a9', reg: '\u00ae', trade: '\u2122', euro: '\u20ac', pound: '\u00a3', yen: '\u00a5',
  cent: '\u00a2', sect: '\u00a7', deg: '\u00b0', middot: '\u00b7', bull: '\u2022', times: '\u00d7', divide: '\u00f7',
  iexcl: '\u00a1', iquest: '\u00bf', shy: '\u00ad', ensp: '\u2002', emsp: '\u2003', thinsp: '\u2009',
};

/** Decodes numeric references and the common named entities (`html_entity_decode` for template text). */
export function decodeEntities(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&(#[xX][0-9a-fA-F]{1,6}|#[0-9]{1,7}|[A-Za-z][A-Za-z0-9]{1,31});/g, (whole, body: string) => {
    if (body.startsWith('#')) {
      const code = body[1] === 'x' || body[1] === 'X' ? Number.parseInt(body.slice(2), 16) : Number.parseInt(body.slice(1), 10);
      const valid = code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff);
      return valid ? String.fromCodePoint(code) : whole;
    }
    return NAMED_ENTITIES[body] ?? whole;
  });
}

export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#039;');
}

/** Full-width ASCII and the ideographic space to their half-width forms, half-width kana to full-width. */
function foldWidths(text: string): string {
  return text
    .replace(/[\uff01-\uff5e]/g, (character) => String.fromCharCode(character.charCodeAt(0) - 0xfee0))
    .replace(/\u3000/g, ' ')
    .replace(/[\uff61-\uff9f]+/g, (run) => run.normalize('NFKC'));
}

export interface CanonicalOptions {
  /** `lower` (default) or `as-is`. */
  case?: 'lower' | 'as-is';
  /** Remove spaces, tabs and newlines instead of collapsing them. */
  stripSeparators?: boolean;
}

/** The plugin's canonical form: entities decoded, widths folded, separators collapsed (or removed), case folded. */
export function canonicalize(text: string, options: CanonicalOptions = {}): string {
  let output = foldWidths(decodeEntities(text));
  output = output.replace(/[\r\n\t ]+/g, options.stripSeparators ? '' : ' ');
  if ((options.case ?? 'lower') === 'lower') output = output.toLowerCase();
  return stripWhitespaces(output);
}

/** CRLF and CR to LF. */
export function normalizeNewlines(text: string): string {
  return text.replace(/\r\n|\r/g, '\n');
}
