/**
 * Smart punctuation within one run of text (no markup): curly quotes, apostrophes, primes, dashes, ellipses
 * and the multiplication sign, written as numeric entities. Literal replacements come first, then the quote
 * and dash rules as scans over character codes (punctuation-rules.ts, primes.ts), then dimensions and bare
 * ampersands.
 */
import { markDimensions } from './dimensions.js';
import { replaceEach } from './patterns.js';
import { resolvePrimes, type PrimeKind } from './primes.js';
import * as Codes from './punctuation-codes.js';
import { applyApostropheRules, applyDashRules, applyDoubleQuoteRules, escapeBareAmpersands } from './punctuation-rules.js';

// Read once: the loops below use them at every quote.
const {
  APOSTROPHE, APOSTROPHE_MARK, CLOSE_DOUBLE, DOUBLE_PRIME, DOUBLE_QUOTE, OPEN_DOUBLE, OPEN_DOUBLE_MARK, OPEN_SINGLE,
  OPEN_SINGLE_MARK, PRIME, QUOTE, fromCodes, quotePositions, toCodes,
} = Codes;

const ELIDED_WORDS = ["'tain't", "'twere", "'twas", "'tis", "'twill", "'til", "'bout", "'nuff", "'round", "'cause", "'em"];

const LITERAL_REPLACEMENTS: ReadonlyArray<readonly [string, string]> = [
  ['...', '&#8230;'],
  ['``', '&#8220;'],
  ["''", '&#8221;'],
  [' (tm)', ' &#8482;'],
  ...ELIDED_WORDS.map((word) => [word, word.replaceAll("'", '&#8217;')] as const),
];

/** Where a dimension may be. */
const DIGIT_X_DIGIT = /\dx\d/;
export const BARE_AMPERSAND = /&(?!#(?:\d+|x[a-f0-9]+);|[a-z1-4]{1,8};)/gi;

/** Finds where texturizing could change anything: without a match a run of text stays as it is. */
export const MAY_TEXTURIZE = /\.\.\.|``|['"&-]| \(tm\)|\dx\d/g;

/** Whether any of the literal replacements applies. */
const LITERAL = /\.\.\.|``|''| \(tm\)|'(?:tain't|twere|twas|tis|twill|til|bout|nuff|round|cause|em)/;

export function texturizeText(input: string): string {
  const text = LITERAL.test(input) ? replaceEach(input, LITERAL_REPLACEMENTS) : input;
  const quotes = text.includes("'");
  const doubleQuotes = text.includes('"');
  const hyphens = text.includes('-');
  const dimensions = DIGIT_X_DIGIT.test(text);
  const ampersands = text.includes('&');
  if (!quotes && !doubleQuotes && !hyphens && !dimensions && !ampersands) return text;
  const codes = toCodes(text);
  let length = codes.length;
  const [singleSpots, doubleSpots] = quotes || doubleQuotes ? quotePositions(codes) : [];
  if (singleSpots !== undefined && singleSpots.length > 0) {
    applyApostropheRules(codes, length, singleSpots);
    resolvePrimes(codes, length, singleSpots, text, SINGLE);
    for (let spot = 0; spot < singleSpots.length; spot++) {
      if (codes[singleSpots[spot]!] === APOSTROPHE_MARK) codes[singleSpots[spot]!] = APOSTROPHE;
    }
  }
  if (doubleSpots !== undefined && doubleSpots.length > 0) {
    applyDoubleQuoteRules(codes, length, doubleSpots);
    resolvePrimes(codes, length, doubleSpots, text, DOUBLE);
  }
  if (hyphens) length = applyDashRules(codes, length);
  // Replacing quotes and dashes never makes or breaks a digit, "x", digit sequence.
  if (dimensions) markDimensions(codes, length);
  // The entities written above are never bare: only an ampersand of the text itself may need escaping.
  if (ampersands) escapeBareAmpersands(codes, length);
  return fromCodes(codes, length);
}

const SINGLE: PrimeKind = {
  quote: QUOTE, prime: PRIME, close: APOSTROPHE, closeText: '&#8217;', openMark: OPEN_SINGLE_MARK, open: OPEN_SINGLE,
  leftoverCloses: false,
};
const DOUBLE: PrimeKind = {
  quote: DOUBLE_QUOTE, prime: DOUBLE_PRIME, close: CLOSE_DOUBLE, closeText: '&#8221;', openMark: OPEN_DOUBLE_MARK,
  open: OPEN_DOUBLE, leftoverCloses: true,
};
