/**
 * Smart punctuation works on the text as an array of character codes, where a replacement is one negative
 * code (a token) standing for its entity or placeholder: each rule is then a scan that looks at neighbouring
 * codes, with no new string per rule. No token's text starts or ends with a character any rule looks for
 * around a quote or dash (they start with `<` or `&#` and end with `>` or `;`), so a token answers every such
 * test as its text would.
 */

export const OPEN_DOUBLE_MARK = -1;
export const OPEN_SINGLE_MARK = -2;
export const APOSTROPHE_MARK = -3;
/** Also the closing single quote: both are `&#8217;`. */
export const APOSTROPHE = -4;
export const OPEN_SINGLE = -5;
export const CLOSE_DOUBLE = -6;
export const OPEN_DOUBLE = -7;
export const PRIME = -8;
export const DOUBLE_PRIME = -9;
export const EN_DASH = -10;
export const EM_DASH = -11;
export const TIMES = -12;
export const AMPERSAND = -13;

const TOKEN_TEXT = [
  '', '<!--oq-->', '<!--osq-->', '<!--apos-->', '&#8217;', '&#8216;', '&#8221;', '&#8220;', '&#8242;', '&#8243;',
  '&#8211;', '&#8212;', '&#215;', '&#038;',
];

export const QUOTE = 39;
export const DOUBLE_QUOTE = 34;
export const HYPHEN = 45;

const WIDE = /[^\x00-\xff]/;

export function toCodes(text: string): Int32Array {
  if (text.length < 2048) {
    const codes = new Int32Array(text.length);
    for (let index = 0; index < text.length; index++) codes[index] = text.charCodeAt(index);
    return codes;
  }
  // The text's code units as bytes (Latin-1) or as UTF-16 units, lone surrogates included, widened natively.
  if (!WIDE.test(text)) return new Int32Array(Buffer.from(text, 'latin1'));
  const bytes = Buffer.from(text, 'utf16le');
  const units = bytes.byteOffset % 2 === 0
    ? new Uint16Array(bytes.buffer, bytes.byteOffset, text.length)
    : new Uint16Array(Uint8Array.prototype.slice.call(bytes).buffer);
  return new Int32Array(units);
}

/** Where the single quotes and where the double quotes stand, in order. */
export function quotePositions(codes: Int32Array): [Int32Array, Int32Array] {
  let singles = 0;
  let doubles = 0;
  for (let index = 0; index < codes.length; index++) {
    const code = codes[index];
    if (code === QUOTE) singles++;
    else if (code === DOUBLE_QUOTE) doubles++;
  }
  const single = new Int32Array(singles);
  const double = new Int32Array(doubles);
  singles = 0;
  doubles = 0;
  for (let index = 0; index < codes.length; index++) {
    const code = codes[index];
    if (code === QUOTE) single[singles++] = index;
    else if (code === DOUBLE_QUOTE) double[doubles++] = index;
  }
  return [single, double];
}

const TOKEN_CODES = TOKEN_TEXT.map((text) => Array.from(text, (char) => char.charCodeAt(0)));

/** The text of the first `length` codes, tokens written out: built in a buffer of code units, then decoded. */
export function fromCodes(codes: Int32Array, length: number): string {
  let size = 0;
  let widest = 0;
  for (let index = 0; index < length; index++) {
    const code = codes[index]!;
    if (code < 0) size += TOKEN_TEXT[-code]!.length;
    else {
      size++;
      if (code > widest) widest = code;
    }
  }
  const units = widest < 256 ? Buffer.allocUnsafe(size) : new Uint16Array(size);
  let written = 0;
  for (let index = 0; index < length; index++) {
    const code = codes[index]!;
    if (code >= 0) {
      units[written++] = code;
      continue;
    }
    const token = TOKEN_CODES[-code]!;
    for (let unit = 0; unit < token.length; unit++) units[written++] = token[unit]!;
  }
  if (units instanceof Buffer) return units.toString('latin1', 0, size);
  // Code units as they are: a lone surrogate in the text stays one (a UTF-16 decoder would replace it).
  const pieces: string[] = [];
  const CHUNK = 8192;
  for (let start = 0; start < size; start += CHUNK) {
    pieces.push(String.fromCharCode.apply(null, units.subarray(start, Math.min(size, start + CHUNK)) as unknown as number[]));
  }
  return pieces.join('');
}

export const isDigitCode = (code: number) => code >= 48 && code <= 57;
/** `[\r\n\t ]|\u00a0` */
const isSpaceCode = (code: number) => code === 32 || code === 10 || code === 9 || code === 13 || code === 0xa0;

/** Whether `codes` holds the characters of `word` from `at` (never across a token). */
export function codesAt(codes: Int32Array, length: number, at: number, word: string): boolean {
  if (at < 0 || at + word.length > length) return false;
  for (let index = 0; index < word.length; index++) if (codes[at + index] !== word.charCodeAt(index)) return false;
  return true;
}

/** The reference's common whitespace (`[\r\n\t ]|\u00a0|&nbsp;`) starts at `at`. */
export function spaceAt(codes: Int32Array, length: number, at: number): boolean {
  return at < length && (isSpaceCode(codes[at]!) || codesAt(codes, length, at, '&nbsp;'));
}

/** The reference's common whitespace ends just before `at`. */
export function spaceBefore(codes: Int32Array, length: number, at: number): boolean {
  return at > 0 && (isSpaceCode(codes[at - 1]!) || codesAt(codes, length, at - 6, '&nbsp;'));
}

/** `\n?$`: the end of the text, or a final line break, at `at`. */
export function endAt(length: number, codes: Int32Array, at: number): boolean {
  return at === length || (at === length - 1 && codes[at] === 10);
}

/** A test for membership in a set of ASCII characters (a token is never a member). */
export function charSet(chars: string): (code: number) => boolean {
  const table = new Uint8Array(128);
  for (let index = 0; index < chars.length; index++) table[chars.charCodeAt(index)] = 1;
  return (code) => code >= 0 && code < 128 && table[code] === 1;
}
