/**
 * Smart punctuation for display: curly quotes, apostrophes, primes, dashes, ellipses and the multiplication
 * sign, written as numeric entities. Text inside `<pre>`, `<code>`, `<kbd>`, `<style>`, `<script>`, `<tt>`,
 * inside a `[code]` shortcode, inside HTML comments and inside registered shortcode tags is left as it is.
 */
import { DEFAULT_SHORTCODE_TAGS, registeredNamesIn } from './shortcodes.js';
import { ASCII_SPACE, TEXT_SPACES, escapeRegExp, replaceEach } from './patterns.js';
import { phpTrim } from '../../format/php.js';

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
const PRIME_OR_QUOTE_MARK = '<!--wp-prime-or-quote-->';

const NO_TEXTURIZE_TAGS = ['pre', 'code', 'kbd', 'style', 'script', 'tt'];
const NO_TEXTURIZE_SHORTCODES = ['code'];

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
  // A quoted number such as '0.42'.
  rule(`(?<=^|${S})'(\\d[.,\\d]*)'`, `${OPEN_SINGLE_MARK}$1${CLOSE_SINGLE}`),
  // At the start, or after an opening bracket, a double quote, a dash, an escaped "<" or a space.
  rule(`(?<=^|[([{"\\-]|&lt;|${S})'`, OPEN_SINGLE_MARK),
  // Inside a word.
  rule(`(?<!${S})'(?!\\n?$|[.,:;!?"'(){}[\\]\\-]|&[lg]t;|${S})`, APOSTROPHE_MARK),
];

const DOUBLE_QUOTE_RULES: readonly Rule[] = [
  rule(`(?<=^|${S})"(\\d[.,\\d]*)"`, `${OPEN_DOUBLE_MARK}$1${CLOSE_DOUBLE}`),
  rule(`(?<=^|[([{\\-]|&lt;|${S})"(?!${S})`, OPEN_DOUBLE_MARK),
];

const DASH_RULES: readonly Rule[] = [
  rule('---', EM_DASH),
  rule(`(?<=^|${S})--(?=\\n?$|${S})`, EM_DASH),
  rule('(?<!xn)--', EN_DASH),
  rule(`(?<=^|${S})-(?=\\n?$|${S})`, EN_DASH),
];

const DIGIT_BEFORE_X = /(?<=\d)x\d/;
// 9x9 becomes 9×9, but 0x9999 (a hex number) stays.
const DIMENSIONS = /\b(\d(?:(?<=0)[\d.,]+|(?<!0)[\d.,]*))x(\d[\d.,]*)\b/g;
const BARE_AMPERSAND = /&(?!#(?:\d+|x[a-f0-9]+);|[a-z1-4]{1,8};)/gi;

const COMMENT_BODY = '!(?:-(?!->)[^-]*)*(?:-->)?';
const ELEMENT = `<(?:(?=!--)${COMMENT_BODY}|(?!!--)[^>]*>?)`;
const ELEMENT_SPLITTER = new RegExp(`(${ELEMENT})`);

function shortcodeTagPattern(names: readonly string[]): string {
  const alternatives = names.map(escapeRegExp).join('|');
  // A shortcode tag with attributes; HTML tags may appear inside, nested shortcodes may not.
  return `\\[[\\/\\[]?(?:${alternatives})(?=${ASCII_SPACE}|[\\]\\/])(?:[^\\[\\]<>]|<[^\\[\\]>]*>)*\\]\\]?`;
}

export function texturize(text: string, registeredShortcodes: readonly string[] = DEFAULT_SHORTCODE_TAGS): string {
  if (text === '' || text === '0') return text;

  const shortcodeNames = registeredNamesIn(text.replaceAll('[/', '['), registeredShortcodes);
  const shortcodeTag = shortcodeNames.length > 0 ? shortcodeTagPattern(shortcodeNames) : '';
  const splitter = shortcodeTag === '' ? ELEMENT_SPLITTER : new RegExp(`(${ELEMENT}|${shortcodeTag})`);
  const wholeShortcode = shortcodeTag === '' ? null : new RegExp(`^${shortcodeTag}$`);

  const pieces = text.split(splitter).filter((piece) => piece !== '');
  const openTags: string[] = [];
  const openShortcodes: string[] = [];

  for (let index = 0; index < pieces.length; index++) {
    const piece = pieces[index] ?? '';
    if (piece.startsWith('<')) {
      if (piece.startsWith('<!--')) continue;
      const element = piece.replace(BARE_AMPERSAND, '&#038;');
      pieces[index] = element;
      trackDisabledElement(element, openTags, NO_TEXTURIZE_TAGS);
    } else if (phpTrim(piece) === '') {
      continue;
    } else if (piece.startsWith('[') && wholeShortcode !== null && wholeShortcode.test(piece)) {
      if (!piece.startsWith('[[') && !piece.endsWith(']]')) {
        trackDisabledElement(piece, openShortcodes, NO_TEXTURIZE_SHORTCODES);
      }
    } else if (openTags.length === 0 && openShortcodes.length === 0) {
      pieces[index] = texturizeText(piece);
    }
  }
  return pieces.join('');
}

function texturizeText(input: string): string {
  let text = replaceEach(input, LITERAL_REPLACEMENTS);
  if (text.includes("'")) {
    text = applyRules(text, APOSTROPHE_RULES);
    text = resolvePrimes(text, "'", PRIME, OPEN_SINGLE_MARK, CLOSE_SINGLE);
    text = text.replaceAll(APOSTROPHE_MARK, APOSTROPHE).replaceAll(OPEN_SINGLE_MARK, OPEN_SINGLE);
  }
  if (text.includes('"')) {
    text = applyRules(text, DOUBLE_QUOTE_RULES);
    text = resolvePrimes(text, '"', DOUBLE_PRIME, OPEN_DOUBLE_MARK, CLOSE_DOUBLE);
    text = text.replaceAll(OPEN_DOUBLE_MARK, OPEN_DOUBLE);
  }
  if (text.includes('-')) text = applyRules(text, DASH_RULES);
  if (DIGIT_BEFORE_X.test(text)) text = text.replace(DIMENSIONS, '$1&#215;$2');
  return text.replace(BARE_AMPERSAND, '&#038;');
}

function applyRules(text: string, rules: readonly Rule[]): string {
  let result = text;
  for (const [pattern, replacement] of rules) result = result.replace(pattern, replacement);
  return result;
}

/**
 * Decides, within each quotation opened by `openMark`, whether a remaining quote character closes the
 * quotation or is a prime (7' = seven feet, 7" = seven inches).
 */
function resolvePrimes(text: string, quote: string, prime: string, openMark: string, close: string): string {
  const closingCandidate = new RegExp(`${escapeRegExp(quote)}${AFTER_CLOSING}`, 'g');
  const afterDigit = new RegExp(`(?<=\\d)${escapeRegExp(quote)}`, 'g');
  const markAfterDigit = new RegExp(`(?<=\\d)${escapeRegExp(PRIME_OR_QUOTE_MARK)}`, 'g');
  const markNotAfterDigit = new RegExp(`(?<!\\d)${escapeRegExp(PRIME_OR_QUOTE_MARK)}`, 'g');

  const sentences = text.split(openMark);
  for (let index = 0; index < sentences.length; index++) {
    let sentence = sentences[index] ?? '';
    if (!sentence.includes(quote)) continue;

    if (index !== 0 && !sentence.includes(close)) {
      let candidates = 0;
      sentence = sentence.replace(closingCandidate, () => {
        candidates++;
        return PRIME_OR_QUOTE_MARK;
      });
      if (candidates > 1) {
        // Several possible closing quotes: one not after a digit wins; otherwise the last one before a
        // period, otherwise the last one.
        let closedNotAfterDigit = 0;
        sentence = sentence.replace(markNotAfterDigit, () => {
          closedNotAfterDigit++;
          return close;
        });
        if (closedNotAfterDigit === 0) {
          const beforePeriod = sentence.lastIndexOf(`${PRIME_OR_QUOTE_MARK}.`);
          const position = beforePeriod !== -1 ? beforePeriod : sentence.lastIndexOf(PRIME_OR_QUOTE_MARK);
          sentence = sentence.slice(0, position) + close + sentence.slice(position + PRIME_OR_QUOTE_MARK.length);
        }
        sentence = sentence.replace(afterDigit, prime).replace(markAfterDigit, prime);
        sentence = sentence.replaceAll(PRIME_OR_QUOTE_MARK, close);
      } else if (candidates === 1) {
        sentence = sentence.replaceAll(PRIME_OR_QUOTE_MARK, close).replace(afterDigit, prime);
      } else {
        sentence = sentence.replace(afterDigit, prime);
      }
    } else {
      sentence = sentence.replace(afterDigit, prime).replace(closingCandidate, close);
    }

    if (quote === '"' && sentence.includes('"')) sentence = sentence.replaceAll('"', close);
    sentences[index] = sentence;
  }
  return sentences.join(openMark);
}

/** Keeps a stack of open elements (or shortcodes) whose content must not be texturized. */
function trackDisabledElement(tag: string, stack: string[], disabled: readonly string[]): void {
  let opening: boolean;
  let nameStart: number;
  if (tag.length > 1 && tag[1] !== '/') {
    opening = true;
    nameStart = 1;
  } else if (stack.length === 0) {
    return;
  } else {
    opening = false;
    nameStart = 2;
  }
  const space = tag.indexOf(' ');
  const name = space === -1 ? tag.slice(nameStart, -1) : tag.slice(nameStart, space);
  if (!disabled.includes(name)) return;
  if (opening) stack.push(name);
  else if (stack[stack.length - 1] === name) stack.pop();
}
