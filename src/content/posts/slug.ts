/**
 * Slugs as the reference makes them (`sanitize_title` in its save context): accents transliterated, tags
 * stripped, lower-cased, other non-ASCII percent-encoded, punctuation dropped and white space turned into `-`.
 */
import { stripTags } from '../../core/args/strip-tags.js';

/** Code points the transliteration covers: Latin-1, Latin Extended-A, parts of Extended-B, Vietnamese, the euro. */
const TRANSLITERATED_RANGES: readonly [number, number][] = [
  [0xa3, 0xa3], [0xaa, 0xaa], [0xba, 0xba], [0xc0, 0xd6], [0xd8, 0xf6], [0xf8, 0x17f], [0x1a0, 0x1a1],
  [0x1af, 0x1b0], [0x1cd, 0x1dc], [0x218, 0x21b], [0x251, 0x251], [0x1ea0, 0x1ef9], [0x20ac, 0x20ac],
];

/** Letters in those ranges that do not decompose into a base letter plus marks. */
const LETTER_REPLACEMENTS: Readonly<Record<string, string>> = {
  'ª': 'a', 'º': 'o', 'Æ': 'AE', 'æ': 'ae', 'Ð': 'D', 'ð': 'd', 'Þ': 'TH', 'þ': 'th', 'ß': 's', 'Ø': 'O',
  'ø': 'o', 'Đ': 'D', 'đ': 'd', 'Ħ': 'H', 'ħ': 'h', 'ı': 'i', 'Ĳ': 'IJ', 'ĳ': 'ij', 'ĸ': 'k', 'Ŀ': 'L',
  'ŀ': 'l', 'Ł': 'L', 'ł': 'l', 'ŉ': 'n', 'Ŋ': 'N', 'ŋ': 'n', 'Œ': 'OE', 'œ': 'oe', 'Ŧ': 'T', 'ŧ': 't',
  'ſ': 's', '€': 'E', '£': '', 'ɑ': 'a',
};

function isTransliterated(codePoint: number): boolean {
  return TRANSLITERATED_RANGES.some(([first, last]) => codePoint >= first && codePoint <= last);
}

/** The reference's `remove_accents` for the default locale. */
export function removeAccents(text: string): string {
  if (!/[^\x00-\x7f]/.test(text)) return text;
  let output = '';
  for (const char of text.normalize('NFC')) {
    const codePoint = char.codePointAt(0)!;
    if (!isTransliterated(codePoint)) {
      output += char;
      continue;
    }
    output += LETTER_REPLACEMENTS[char] ?? char.normalize('NFD').replace(/\p{M}/gu, '');
  }
  return output;
}

const encoder = new TextEncoder();

/**
 * Percent-encodes non-ASCII characters (lower-case hex), optionally ASCII ones too, stopping before the result
 * would grow beyond `length` characters (0 = no limit).
 */
export function utf8UriEncode(text: string, length = 0, encodeAscii = false): string {
  let output = '';
  for (const char of text) {
    const code = char.codePointAt(0)!;
    let encoded: string;
    if (code < 128) {
      encoded = encodeAscii ? encodeURIComponent(char).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`) : char;
    } else {
      encoded = [...encoder.encode(char)].map((byte) => `%${byte.toString(16)}`).join('');
    }
    if (length && output.length + encoded.length > length) break;
    output += encoded;
  }
  return output;
}

const HYPHEN_OCTETS = ['%c2%a0', '%e2%80%93', '%e2%80%94'];
const HYPHEN_ENTITIES = ['&nbsp;', '&#160;', '&ndash;', '&#8211;', '&mdash;', '&#8212;'];
/** Soft hyphen, inverted marks, angle and curly quotes, bullet, ©®°…™, stray accents, zero-width characters. */
const DROPPED_OCTETS = [
  '%c2%ad', '%c2%a1', '%c2%bf', '%c2%ab', '%c2%bb', '%e2%80%b9', '%e2%80%ba', '%e2%80%98', '%e2%80%99',
  '%e2%80%9c', '%e2%80%9d', '%e2%80%9a', '%e2%80%9b', '%e2%80%9e', '%e2%80%9f', '%e2%80%a2', '%c2%a9',
  '%c2%ae', '%c2%b0', '%e2%80%a6', '%e2%84%a2', '%c2%b4', '%cb%8a', '%cc%81', '%cd%81', '%cc%80', '%cc%84',
  '%cc%8c', '%e2%80%8b', '%e2%80%8c', '%e2%80%8d', '%e2%80%8e', '%e2%80%8f', '%e2%80%aa', '%e2%80%ab',
  '%e2%80%ac', '%e2%80%ad', '%e2%80%ae', '%ef%bb%bf', '%ef%bf%bc',
];
/** Spaces of some width and line/paragraph separators. */
const SPACE_OCTETS = [
  '%e2%80%80', '%e2%80%81', '%e2%80%82', '%e2%80%83', '%e2%80%84', '%e2%80%85', '%e2%80%86', '%e2%80%87',
  '%e2%80%88', '%e2%80%89', '%e2%80%8a', '%e2%80%a8', '%e2%80%a9', '%e2%80%af',
];

function replaceAll(text: string, searches: readonly string[], replacement: string): string {
  return searches.reduce((current, search) => current.replaceAll(search, replacement), text);
}

/** `sanitize_title_with_dashes` in the save context. */
export function slugify(title: string): string {
  let slug = stripTags(title);
  slug = slug.replace(/%([a-fA-F0-9]{2})/g, '---$1---').replaceAll('%', '').replace(/---([a-fA-F0-9]{2})---/g, '%$1');
  slug = utf8UriEncode(slug.toLowerCase(), 200).toLowerCase();
  slug = replaceAll(slug, HYPHEN_OCTETS, '-');
  slug = replaceAll(slug, HYPHEN_ENTITIES, '-');
  slug = slug.replaceAll('/', '-');
  slug = replaceAll(slug, DROPPED_OCTETS, '');
  slug = replaceAll(slug, SPACE_OCTETS, '-');
  slug = slug.replaceAll('%c3%97', 'x');
  slug = slug.replace(/&.+?;/g, '').replaceAll('.', '-');
  slug = slug.replace(/[^%a-z0-9 _-]/g, '').replace(/\s+/g, '-').replace(/-+/g, '-');
  return slug.replace(/^-+|-+$/g, '');
}

/** The reference's `sanitize_title` (save context): the slug of a title, or `fallback` when nothing is left. */
export function sanitizeTitle(title: string, fallback = ''): string {
  const slug = slugify(removeAccents(title));
  return slug === '' ? fallback : slug;
}

/** Shortens a slug to `length` bytes without cutting a percent-encoded character, then drops trailing `-`. */
export function truncateSlug(slug: string, length: number): string {
  let truncated = slug;
  if (slug.length > length) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(slug.replaceAll('+', ' '));
    } catch {
      decoded = slug;
    }
    truncated = decoded === slug ? slug.slice(0, length) : utf8UriEncode(decoded, length, true).toLowerCase();
  }
  return truncated.replace(/-+$/, '');
}
