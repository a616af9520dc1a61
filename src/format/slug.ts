import { stripTags } from './strip-tags.js';

/**
 * Slugs as the reference's `sanitize_title` makes them in the save context: accents removed, tags stripped,
 * lower-cased, non-ASCII characters percent-encoded (at most 200 encoded bytes), dashes for spaces, slashes,
 * dots and wide spaces, and everything but `a-z 0-9 _ - %xx` dropped.
 */
export function sanitizeTitle(title: string, fallback = ''): string {
  const slug = slugWithDashes(removeAccents(title));
  return slug === '' ? fallback : slug;
}

/** Latin letters whose accents are simply dropped (their canonical decomposition minus combining marks). */
const DECOMPOSABLE = new Set(
  'ÀÁÂÃÄÅÇÈÉÊËÌÍÎÏÑÒÓÔÕÖÙÚÛÜÝàáâãäåçèéêëìíîïñòóôõöùúûüýÿĀāĂăĄąĆćĈĉĊċČčĎďĒēĔĕĖėĘęĚěĜĝĞğĠġĢģĤĥĨĩĪīĬĭĮįİĴĵĶķĹĺĻļĽľ' +
  'ŃńŅņŇňŌōŎŏŐőŔŕŖŗŘřŚśŜŝŞşŠšŢţŤťŨũŪūŬŭŮůŰűŲųŴŵŶŷŸŹźŻżŽžȘșȚțƠơƯưẦầẰằỀềỒồỜờỪừỲỳẢảẨẩẲẳẺẻỂểỈỉỎỏỔổỞởỦủỬửỶỷẪẫẴẵẼẽỄễ' +
  'ỖỗỠỡỮữỸỹẤấẮắẾếỐốỚớỨứẠạẬậẶặẸẹỆệỊịỌọỘộỢợỤụỰựỴỵǕǖǗǘǍǎǏǐǑǒǓǔǙǚǛǜ',
);

/** Letters without a decomposition, and two symbols, with their ASCII stand-ins. */
const REPLACEMENTS: Readonly<Record<string, string>> = {
  'ª': 'a', 'º': 'o', 'Æ': 'AE', 'æ': 'ae', 'Ð': 'D', 'ð': 'd', 'Þ': 'TH', 'þ': 'th', 'ß': 's', 'Ø': 'O', 'ø': 'o',
  'Đ': 'D', 'đ': 'd', 'Ħ': 'H', 'ħ': 'h', 'ı': 'i', 'Ĳ': 'IJ', 'ĳ': 'ij', 'ĸ': 'k', 'Ŀ': 'L', 'ŀ': 'l', 'Ł': 'L',
  'ł': 'l', 'ŉ': 'n', 'Ŋ': 'N', 'ŋ': 'n', 'Œ': 'OE', 'œ': 'oe', 'Ŧ': 'T', 'ŧ': 't', 'ſ': 's', '€': 'E', '£': '',
  'ɑ': 'a',
};

export function removeAccents(text: string): string {
  if (!/[^\x00-\x7f]/.test(text)) return text;
  let out = '';
  for (const char of text.normalize('NFC')) {
    const replacement = REPLACEMENTS[char];
    if (replacement !== undefined) out += replacement;
    else if (DECOMPOSABLE.has(char)) out += char.normalize('NFD').replace(/\p{M}/gu, '');
    else out += char;
  }
  return out;
}

const MAX_ENCODED_LENGTH = 200;

/** Percent-encodes non-ASCII characters (lower-case hex), stopping before the encoded text would pass `limit`. */
function encodeNonAscii(text: string, limit: number): string {
  let out = '';
  for (const char of text) {
    const piece = char.charCodeAt(0) < 0x80
      ? char
      : [...new TextEncoder().encode(char)].map((byte) => `%${byte.toString(16)}`).join('');
    if (out.length + piece.length > limit) break;
    out += piece;
  }
  return out;
}

/** Removed outright: soft hyphen, inverted marks, angle and curly quotes, bullet, symbols, stray accents, invisible characters. */
const DROPPED_OCTETS = [
  '%c2%ad', '%c2%a1', '%c2%bf', '%c2%ab', '%c2%bb', '%e2%80%b9', '%e2%80%ba', '%e2%80%98', '%e2%80%99', '%e2%80%9c',
  '%e2%80%9d', '%e2%80%9a', '%e2%80%9b', '%e2%80%9e', '%e2%80%9f', '%e2%80%a2', '%c2%a9', '%c2%ae', '%c2%b0',
  '%e2%80%a6', '%e2%84%a2', '%c2%b4', '%cb%8a', '%cc%81', '%cd%81', '%cc%80', '%cc%84', '%cc%8c', '%e2%80%8b',
  '%e2%80%8c', '%e2%80%8d', '%e2%80%8e', '%e2%80%8f', '%e2%80%aa', '%e2%80%ab', '%e2%80%ac', '%e2%80%ad',
  '%e2%80%ae', '%ef%bb%bf', '%ef%bf%bc',
];

/** Spaces with a width, which become dashes. */
const DASHED_OCTETS = [
  '%e2%80%80', '%e2%80%81', '%e2%80%82', '%e2%80%83', '%e2%80%84', '%e2%80%85', '%e2%80%86', '%e2%80%87',
  '%e2%80%88', '%e2%80%89', '%e2%80%8a', '%e2%80%a8', '%e2%80%a9', '%e2%80%af',
];

function replaceAll(text: string, needles: readonly string[], replacement: string): string {
  let out = text;
  for (const needle of needles) out = out.replaceAll(needle, replacement);
  return out;
}

function slugWithDashes(input: string): string {
  let title = stripTags(input);
  // Keep escaped octets, drop other percent signs.
  title = title.replace(/%([a-fA-F0-9]{2})/g, '---$1---').replaceAll('%', '').replace(/---([a-fA-F0-9]{2})---/g, '%$1');
  title = encodeNonAscii(title.toLowerCase(), MAX_ENCODED_LENGTH);

  // No-break space, en dash and em dash, as octets or entities, and slashes become dashes.
  title = replaceAll(title, ['%c2%a0', '%e2%80%93', '%e2%80%94'], '-');
  title = replaceAll(title, ['&nbsp;', '&#160;', '&ndash;', '&#8211;', '&mdash;', '&#8212;'], '-');
  title = title.replaceAll('/', '-');
  title = replaceAll(title, DROPPED_OCTETS, '');
  title = replaceAll(title, DASHED_OCTETS, '-');
  title = title.replaceAll('%c3%97', 'x');

  title = title.replace(/&.+?;/g, '');
  title = title.replaceAll('.', '-');
  title = title.replace(/[^%a-z0-9 _-]/g, '');
  title = title.replace(/\s+/g, '-');
  title = title.replace(/-+/g, '-');
  return title.replace(/^-+|-+$/g, '');
}
