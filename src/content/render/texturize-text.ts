/**
 * Smart punctuation within one run of text (no markup): curly quotes, apostrophes, primes, dashes, ellipses
 * and the multiplication sign, written as numeric entities. Each pattern starts with the character it
 * replaces, with what must precede it checked afterwards, so the engine can skip quickly to candidates.
 */
import { markDimensions } from './dimensions.js';
import { TEXT_SPACES, replaceEach } from './patterns.js';

const OPEN_DOUBLE = '&#8220;';
const CLOSE_DOUBLE = '&#8221;';
const APOSTROPHE = '&#8217;';
const OPEN_SINGLE = '&#8216;';
const CLOSE_SINGLE = '&#8217;';
const PRIME = '&#8242;';
const DOUBLE_PRIME = '&#8243;';
const EN_DASH = '&#8211;';
const EM_DASH = '&#8212;';

// Placeholders for decisions made early and written out after primes are resolved.
const OPEN_DOUBLE_MARK = '<!--oq-->';
const OPEN_SINGLE_MARK = '<!--osq-->';
const APOSTROPHE_MARK = '<!--apos-->';

const ELIDED_WORDS = ["'tain't", "'twere", "'twas", "'tis", "'twill", "'til", "'bout", "'nuff", "'round", "'cause", "'em"];

const LITERAL_REPLACEMENTS: ReadonlyArray<readonly [string, string]> = [
  ['...', '&#8230;'],
  ['``', OPEN_DOUBLE],
  ["''", CLOSE_DOUBLE],
  [' (tm)', ' &#8482;'],
  ...ELIDED_WORDS.map((word) => [word, word.replaceAll("'", APOSTROPHE)] as const),
];

const S = TEXT_SPACES;
// What may follow a closing quote: the end, closing punctuation, an escaped ">", or a space.
const AFTER_CLOSING = `(?=\\n?$|[.,:;!?)}\\-\\]]|&gt;|${S})`;

type Rule = readonly [RegExp, string];
const rule = (source: string, replacement: string): Rule => [new RegExp(source, 'g'), replacement];

const APOSTROPHE_RULES: readonly Rule[] = [
  // '99' and '99" at the end of a quotation: an abbreviated year.
  rule(`'(\\d\\d)'${AFTER_CLOSING}`, `${APOSTROPHE_MARK}$1${CLOSE_SINGLE}`),
  rule(`'(\\d\\d)"${AFTER_CLOSING}`, `${APOSTROPHE_MARK}$1${CLOSE_DOUBLE}`),
  // '99, '99s: an apostrophe, but never '9, '99%, '999 or '99.0.
  rule(`'(?=\\d\\d(?:(?=\\n?$)|(?![%\\d]|[.,]\\d)))`, APOSTROPHE_MARK),
  // A quoted number such as '0.42', at the start or after a space.
  rule(`'(?<=(?:^|${S})')(\\d[.,\\d]*)'`, `${OPEN_SINGLE_MARK}$1${CLOSE_SINGLE}`),
  // At the start, or after an opening bracket, a double quote, a dash, an escaped "<" or a space.
  rule(`'(?<=(?:^|[([{"\\-]|&lt;|${S})')`, OPEN_SINGLE_MARK),
  // Inside a word.
  rule(`'(?<!(?:${S})')(?!\\n?$|[.,:;!?"'(){}[\\]\\-]|&[lg]t;|${S})`, APOSTROPHE_MARK),
];

const DOUBLE_QUOTE_RULES: readonly Rule[] = [
  rule(`"(?<=(?:^|${S})")(\\d[.,\\d]*)"`, `${OPEN_DOUBLE_MARK}$1${CLOSE_DOUBLE}`),
  rule(`"(?<=(?:^|[([{\\-]|&lt;|${S})")(?!${S})`, OPEN_DOUBLE_MARK),
];

const DASH_RULES: readonly Rule[] = [
  rule('---', EM_DASH),
  rule(`--(?<=(?:^|${S})--)(?=\\n?$|${S})`, EM_DASH),
  rule('--(?<!xn--)', EN_DASH),
  rule(`-(?<=(?:^|${S})-)(?=\\n?$|${S})`, EN_DASH),
];

const DIGIT_BEFORE_X = /(?<=\d)x\d/;
export const BARE_AMPERSAND = /&(?!#(?:\d+|x[a-f0-9]+);|[a-z1-4]{1,8};)/gi;

/** Finds where texturizing could change anything: without a match a run of text stays as it is. */
export const MAY_TEXTURIZE = /\.\.\.|``|['"&-]| \(tm\)|\dx\d/g;

/** Whether any of the literal replacements applies. */
const LITERAL = /\.\.\.|``|''| \(tm\)|'(?:tain't|twere|twas|tis|twill|til|bout|nuff|round|cause|em)/;

export function texturizeText(input: string): string {
  let text = LITERAL.test(input) ? replaceEach(input, LITERAL_REPLACEMENTS) : input;
  if (text.includes("'")) {
    text = applyRules(text, APOSTROPHE_RULES);
    text = resolvePrimes(text, "'", PRIME, CLOSE_SINGLE, [OPEN_SINGLE_MARK, OPEN_SINGLE], [APOSTROPHE_MARK, APOSTROPHE]);
  }
  if (text.includes('"')) {
    text = applyRules(text, DOUBLE_QUOTE_RULES);
    text = resolvePrimes(text, '"', DOUBLE_PRIME, CLOSE_DOUBLE, [OPEN_DOUBLE_MARK, OPEN_DOUBLE]);
  }
  if (text.includes('-')) text = applyRules(text, DASH_RULES);
  if (DIGIT_BEFORE_X.test(text)) text = markDimensions(text);
  return text.includes('&') ? text.replace(BARE_AMPERSAND, '&#038;') : text;
}

function applyRules(text: string, rules: readonly Rule[]): string {
  let result = text;
  for (const [pattern, replacement] of rules) result = result.replace(pattern, replacement);
  return result;
}

const isDigit = (code: number) => code >= 48 && code <= 57;
const CLOSING_PUNCTUATION = '.,:;!?)}-]';

/** AFTER_CLOSING at `next` in a sentence ending at `end` (a sentence ends at a mark's "<" or the text's end). */
function closesAt(text: string, next: number, end: number): boolean {
  if (next === end) return true;
  const code = text.charCodeAt(next);
  if (code === 32 || code === 9 || code === 10 || code === 13 || code === 0xa0) return true;
  if (CLOSING_PUNCTUATION.includes(text[next]!)) return true;
  return code === 38 && (text.startsWith('&gt;', next) || text.startsWith('&nbsp;', next));
}

/**
 * Decides, within each quotation opened by `openMark` (a "sentence"), whether a remaining quote character
 * closes the quotation or is a prime (7' = seven feet, 7" = seven inches). The first sentence, and one that
 * already holds a closing quote, has its quotes after digits made primes and those followed by a closing
 * context made closing quotes. In another sentence the quotes followed by a closing context are candidates:
 * one candidate closes; of several, those not after a digit close and the rest are primes (when all follow
 * digits, the last one before a period, else the last one, closes). Other quotes after digits are primes, and
 * a leftover double quote always closes. The opening marks (and `otherMark`) are written out in the same pass.
 */
function resolvePrimes(
  text: string, quote: string, prime: string, close: string,
  [openMark, open]: readonly [string, string], [otherMark, other]: readonly [string, string] = ['', ''],
): string {
  let output = '';
  let copied = 0;
  let nextQuote = text.indexOf(quote);
  let nextOther = otherMark === '' ? -1 : text.indexOf(otherMark);
  let nextClose = -2;
  const sentence: Sentence = { start: 0, end: 0, positions: [], decisions: [], count: 0 };
  for (let index = 0; ; index++) {
    const mark = text.indexOf(openMark, sentence.start);
    const end = mark === -1 ? text.length : mark;
    sentence.end = end;
    sentence.count = 0;
    while (nextQuote !== -1 && nextQuote < end) {
      sentence.positions[sentence.count++] = nextQuote;
      nextQuote = text.indexOf(quote, nextQuote + 1);
    }
    if (sentence.count > 0) {
      if (nextClose !== -1 && nextClose < sentence.start) nextClose = text.indexOf(close, sentence.start);
      decide(text, sentence, index === 0 || (nextClose !== -1 && nextClose < end), quote, prime, close);
    }
    let at = 0;
    while (at < sentence.count || (nextOther !== -1 && nextOther < end)) {
      if (nextOther !== -1 && nextOther < end && (at === sentence.count || nextOther < sentence.positions[at]!)) {
        output += text.slice(copied, nextOther) + other;
        copied = nextOther + otherMark.length;
        nextOther = text.indexOf(otherMark, copied);
        continue;
      }
      let decision = sentence.decisions[at]!;
      if (decision === quote && quote === '"') decision = close;
      if (decision !== quote) {
        output += text.slice(copied, sentence.positions[at]) + decision;
        copied = sentence.positions[at]! + 1;
      }
      at++;
    }
    if (mark === -1) break;
    output += text.slice(copied, mark) + open;
    copied = sentence.start = mark + openMark.length;
  }
  return copied === 0 ? text : output + text.slice(copied);
}

/** One quotation: its bounds, the positions of its quote characters (the first `count`) and their outcomes. */
interface Sentence {
  start: number;
  end: number;
  positions: number[];
  decisions: string[];
  count: number;
}

function afterDigit(text: string, start: number, at: number): boolean {
  return at > start && isDigit(text.charCodeAt(at - 1));
}

// Marks a quote that could close the quotation; such decisions are settled once all quotes are seen.
const CANDIDATE = '';

function decide(text: string, sentence: Sentence, simple: boolean, quote: string, prime: string, close: string): void {
  const { start, end, positions, decisions, count } = sentence;
  let candidates = 0;
  let notAfterDigit = 0;
  let lastCandidate = -1;
  let lastBeforePeriod = -1;
  for (let index = 0; index < count; index++) {
    const at = positions[index]!;
    const digit = afterDigit(text, start, at);
    const closes = closesAt(text, at + 1, end);
    if (simple) {
      decisions[index] = digit ? prime : closes ? close : quote;
    } else if (closes) {
      decisions[index] = CANDIDATE;
      candidates++;
      if (!digit) notAfterDigit++;
      lastCandidate = index;
      if (at + 1 < end && text.charCodeAt(at + 1) === 46 /* . */) lastBeforePeriod = index;
    } else {
      decisions[index] = digit ? prime : quote;
    }
  }
  if (candidates === 0) return;
  const chosen = lastBeforePeriod !== -1 ? lastBeforePeriod : lastCandidate;
  for (let index = 0; index < count; index++) {
    if (decisions[index] !== CANDIDATE) continue;
    if (candidates === 1) decisions[index] = close;
    else if (notAfterDigit > 0) decisions[index] = afterDigit(text, start, positions[index]!) ? prime : close;
    else decisions[index] = index === chosen ? close : prime;
  }
}
