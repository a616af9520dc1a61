/**
 * The quote and dash rules of smart punctuation, each a left-to-right scan over character codes (see
 * punctuation-codes.ts) that replaces as the reference's pattern would: leftmost matches first, none
 * overlapping, lookarounds judged on the rule's input. A rule's replacements are tokens or hyphens gone, and
 * no lookbehind of the same rule looks for either, so a scan may check what lies behind on what it has written.
 */
import * as Codes from './punctuation-codes.js';

// Read once: the scans below use these in every step.
const {
  AMPERSAND, APOSTROPHE, APOSTROPHE_MARK, CLOSE_DOUBLE, DOUBLE_QUOTE, EM_DASH, EN_DASH, HYPHEN, OPEN_DOUBLE_MARK,
  OPEN_SINGLE_MARK, QUOTE, charSet, codesAt, endAt, isDigitCode, spaceAt, spaceBefore,
} = Codes;

const isCloser = charSet('.,:;!?)}-]');
const isOpener = charSet('([{"-');
const isDoubleOpener = charSet('([{-');
const isNotBeforeApostrophe = charSet('.,:;!?"\'(){}[]-');
const isNumberCode = (code: number) => isDigitCode(code) || code === 46 || code === 44;

/** What may follow a closing quote: the end, closing punctuation, an escaped ">", or a space. */
function afterClosing(codes: Int32Array, length: number, at: number): boolean {
  return endAt(length, codes, at) || (at < length && isCloser(codes[at]!)) || codesAt(codes, length, at, '&gt;')
    || spaceAt(codes, length, at);
}

const startOrSpaceBefore = (codes: Int32Array, length: number, at: number) => at === 0 || spaceBefore(codes, length, at);

/**
 * The apostrophe rules, in order: each sees what the ones before it made. `quotes` holds where the text had a
 * single quote, in order; the rules only ever replace those.
 */
export function applyApostropheRules(codes: Int32Array, length: number, quotes: Int32Array): void {
  // '99' and '99" at the end of a quotation: an abbreviated year.
  for (const [closer, close] of [[QUOTE, APOSTROPHE], [DOUBLE_QUOTE, CLOSE_DOUBLE]] as const) {
    let free = 0;
    for (let spot = 0; spot < quotes.length; spot++) {
      const at = quotes[spot]!;
      if (at < free || at + 3 >= length || codes[at] !== QUOTE) continue;
      if (!isDigitCode(codes[at + 1]!) || !isDigitCode(codes[at + 2]!) || codes[at + 3] !== closer) continue;
      if (!afterClosing(codes, length, at + 4)) continue;
      codes[at] = APOSTROPHE_MARK;
      codes[at + 3] = close;
      free = at + 4;
    }
  }
  // '99, '99s: an apostrophe, but never '9, '99%, '999 or '99.0.
  for (let spot = 0; spot < quotes.length; spot++) {
    const at = quotes[spot]!;
    if (codes[at] !== QUOTE || at + 2 >= length || !isDigitCode(codes[at + 1]!) || !isDigitCode(codes[at + 2]!)) continue;
    const next = at + 3;
    if (!endAt(length, codes, next)) {
      const code = next < length ? codes[next]! : -100;
      if (code === 37 || isDigitCode(code)) continue;
      if ((code === 46 || code === 44) && next + 1 < length && isDigitCode(codes[next + 1]!)) continue;
    }
    codes[at] = APOSTROPHE_MARK;
  }
  // A quoted number such as '0.42', at the start or after a space.
  quotedNumbers(codes, length, quotes, QUOTE, OPEN_SINGLE_MARK, APOSTROPHE);
  // At the start, or after an opening bracket, a double quote, a dash, an escaped "<" or a space.
  for (let spot = 0; spot < quotes.length; spot++) {
    const at = quotes[spot]!;
    if (codes[at] !== QUOTE) continue;
    if (at === 0 || isOpener(codes[at - 1]!) || codesAt(codes, length, at - 4, '&lt;') || spaceBefore(codes, length, at)) {
      codes[at] = OPEN_SINGLE_MARK;
    }
  }
  // Inside a word.
  for (let spot = 0; spot < quotes.length; spot++) {
    const at = quotes[spot]!;
    if (codes[at] !== QUOTE || spaceBefore(codes, length, at)) continue;
    const next = at + 1;
    if (endAt(length, codes, next) || isNotBeforeApostrophe(codes[next]!) || spaceAt(codes, length, next)) continue;
    if (codes[next] === 38 && (codesAt(codes, length, next, '&lt;') || codesAt(codes, length, next, '&gt;'))) continue;
    codes[at] = APOSTROPHE_MARK;
  }
}

/** `q(?<=(?:^|S)q)(\d[.,\d]*)q` → an opening mark, the number, a closing quote. */
function quotedNumbers(codes: Int32Array, length: number, spots: Int32Array, quote: number, openMark: number, close: number): void {
  let free = 0;
  for (let spot = 0; spot < spots.length; spot++) {
    const at = spots[spot]!;
    if (at < free || at + 2 >= length || codes[at] !== quote) continue;
    if (!isDigitCode(codes[at + 1]!) || !startOrSpaceBefore(codes, length, at)) continue;
    let end = at + 2;
    while (end < length && isNumberCode(codes[end]!)) end++;
    if (end === length || codes[end] !== quote) continue;
    codes[at] = openMark;
    codes[end] = close;
    free = end + 1;
  }
}

/** The double quote rules; `quotes` holds where the text had a double quote, in order. */
export function applyDoubleQuoteRules(codes: Int32Array, length: number, quotes: Int32Array): void {
  quotedNumbers(codes, length, quotes, DOUBLE_QUOTE, OPEN_DOUBLE_MARK, CLOSE_DOUBLE);
  for (let spot = 0; spot < quotes.length; spot++) {
    const at = quotes[spot]!;
    if (codes[at] !== DOUBLE_QUOTE || spaceAt(codes, length, at + 1)) continue;
    if (at === 0 || isDoubleOpener(codes[at - 1]!) || codesAt(codes, length, at - 4, '&lt;') || spaceBefore(codes, length, at)) {
      codes[at] = OPEN_DOUBLE_MARK;
    }
  }
}

const spaceOrEndAt = (codes: Int32Array, length: number, at: number) => endAt(length, codes, at) || spaceAt(codes, length, at);

const TRIPLE = 0;
const DOUBLE_SPACED = 1;
const DOUBLE_ANYWHERE = 2;
const SINGLE_SPACED = 3;

/**
 * The dash rules, in order; each shortens the text in place (a replaced run of hyphens becomes one token).
 * Returns the new length.
 */
export function applyDashRules(codes: Int32Array, length: number): number {
  let size = replaceHyphens(codes, length, TRIPLE);
  size = replaceHyphens(codes, size, DOUBLE_SPACED);
  size = replaceHyphens(codes, size, DOUBLE_ANYWHERE);
  return replaceHyphens(codes, size, SINGLE_SPACED);
}

/**
 * The token for the hyphens read at `read` under `rule`, or 0 to keep them; what lies before `written` is the
 * output so far, what lies from `read` on is the rule's input.
 */
function dashAt(codes: Int32Array, length: number, rule: number, read: number, written: number): number {
  switch (rule) {
    case TRIPLE:
      return EM_DASH;
    case DOUBLE_SPACED:
      return startOrSpaceBefore(codes, written, written) && spaceOrEndAt(codes, length, read + 2) ? EM_DASH : 0;
    case DOUBLE_ANYWHERE:
      // Not in "xn--" (punycode).
      return codesAt(codes, written, written - 2, 'xn') ? 0 : EN_DASH;
    default:
      return startOrSpaceBefore(codes, written, written) && spaceOrEndAt(codes, length, read + 1) ? EN_DASH : 0;
  }
}

/** Replaces runs of hyphens (three, two, two or one, by rule), left to right, by the token `dashAt` gives. */
function replaceHyphens(codes: Int32Array, length: number, rule: number): number {
  const count = rule === TRIPLE ? 3 : rule === SINGLE_SPACED ? 1 : 2;
  let written = 0;
  let read = 0;
  for (let hyphen = nextHyphen(codes, length, 0); hyphen + count <= length; hyphen = nextHyphen(codes, length, hyphen + 1)) {
    if ((count >= 2 && codes[hyphen + 1] !== HYPHEN) || (count >= 3 && codes[hyphen + 2] !== HYPHEN)) continue;
    // What lies between is kept as it is; `dashAt` looks behind at it where it now stands.
    if (written !== read) codes.copyWithin(written, read, hyphen);
    written += hyphen - read;
    read = hyphen;
    const token = dashAt(codes, length, rule, read, written);
    if (token === 0) continue;
    codes[written++] = token;
    read += count;
    hyphen = read - 1;
  }
  if (written !== read) codes.copyWithin(written, read, length);
  return written + (length - read);
}

function nextHyphen(codes: Int32Array, length: number, from: number): number {
  let at = from;
  while (at < length && codes[at] !== HYPHEN) at++;
  return at;
}

const isLetterOrLowDigit = (code: number) =>
  (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || (code >= 49 && code <= 52);
const isHexDigit = (code: number) => isDigitCode(code) || (code >= 97 && code <= 102) || (code >= 65 && code <= 70);

/** `&(?!#(?:\d+|x[a-f0-9]+);|[a-z1-4]{1,8};)` (case-insensitive): an ampersand that begins no entity. */
export function escapeBareAmpersands(codes: Int32Array, length: number): void {
  for (let at = 0; at < length; at++) {
    if (codes[at] !== 38 || beginsEntity(codes, length, at + 1)) continue;
    codes[at] = AMPERSAND;
  }
}

function beginsEntity(codes: Int32Array, length: number, from: number): boolean {
  let at = from;
  if (at < length && codes[at] === 35 /* # */) {
    at++;
    const digits = at;
    while (at < length && isDigitCode(codes[at]!)) at++;
    if (at > digits && at < length && codes[at] === 59) return true;
    at = from + 1;
    if (at < length && (codes[at] === 120 || codes[at] === 88) /* x */) {
      at++;
      const hex = at;
      while (at < length && isHexDigit(codes[at]!)) at++;
      if (at > hex && at < length && codes[at] === 59) return true;
    }
    return false;
  }
  while (at < length && at - from < 9 && isLetterOrLowDigit(codes[at]!)) at++;
  return at > from && at - from <= 8 && at < length && codes[at] === 59;
}
