/**
 * Closing quotes or primes (7' = seven feet, 7" = seven inches), decided within each quotation opened by an
 * opening mark (a "sentence"), over character codes (see punctuation-codes.ts). The first sentence, and one
 * that already holds a closing quote, has its quotes after digits made primes and those followed by a closing
 * context made closing quotes. In another sentence the quotes followed by a closing context are candidates:
 * one candidate closes; of several, those not after a digit close and the rest are primes (when all follow
 * digits, the last one before a period, else the last one, closes). Other quotes after digits are primes, and
 * a leftover double quote always closes. The opening marks are then written out.
 */
import * as Codes from './punctuation-codes.js';

// Read once: the scans below use these in every step.
const { codesAt, isDigitCode } = Codes;

export interface PrimeKind {
  quote: number;
  prime: number;
  /** The closing quote's token, and its text (which the text may also hold as plain characters). */
  close: number;
  closeText: string;
  openMark: number;
  open: number;
  /** Whether a quote that neither closes nor is a prime closes anyway (double quotes do). */
  leftoverCloses: boolean;
}

const isClosingPunctuation = (code: number) =>
  code === 46 || code === 44 || code === 58 || code === 59 || code === 33 || code === 63 || code === 41 || code === 125
  || code === 45 || code === 93;

/**
 * `spots` holds, in order, where the text had the quote character: the rules before put opening marks and
 * closing quotes only there. `text` is the text the codes were made from, for closing quotes it held as text.
 */
export function resolvePrimes(codes: Int32Array, length: number, spots: Int32Array, text: string, kind: PrimeKind): void {
  const { quote, close, openMark, open } = kind;
  const sentence: Sentence = {
    start: 0, count: 0, closed: false, first: true, plainClose: -2,
    positions: new Int32Array(spots.length), decisions: new Int32Array(spots.length),
  };
  for (let spot = 0; spot < spots.length; spot++) {
    const at = spots[spot]!;
    const code = codes[at];
    if (code === quote) sentence.positions[sentence.count++] = at;
    else if (code === close) sentence.closed = true;
    else if (code === openMark) {
      settle(codes, text, sentence, at, kind);
      codes[at] = open;
      sentence.first = false;
      sentence.start = at + 1;
      sentence.count = 0;
      sentence.closed = false;
    }
  }
  settle(codes, text, sentence, length, kind);
}

/** One quotation: where it starts, its quotes so far, and whether it holds a closing quote. */
interface Sentence {
  start: number;
  count: number;
  closed: boolean;
  first: boolean;
  /** Where the closing quote as text was last found (-1: nowhere after; -2: not looked for yet). */
  plainClose: number;
  positions: Int32Array;
  decisions: Int32Array;
}

/** Decides and writes out the quotes of the sentence ending at `end`. */
function settle(codes: Int32Array, text: string, sentence: Sentence, end: number, kind: PrimeKind): void {
  const { count, positions, decisions } = sentence;
  if (count === 0) return;
  if (!sentence.closed && sentence.plainClose !== -1) {
    if (sentence.plainClose < sentence.start) sentence.plainClose = text.indexOf(kind.closeText, sentence.start);
    sentence.closed = sentence.plainClose !== -1 && sentence.plainClose < end;
  }
  decide(codes, sentence.start, end, positions, decisions, count, sentence.first || sentence.closed, kind);
  for (let at = 0; at < count; at++) {
    let decision = decisions[at]!;
    if (decision === kind.quote && kind.leftoverCloses) decision = kind.close;
    if (decision !== kind.quote) codes[positions[at]!] = decision;
  }
}

/** Followed by the end of the sentence, a space, closing punctuation, an escaped ">" or a no-break space. */
function closesAt(codes: Int32Array, next: number, end: number): boolean {
  if (next === end) return true;
  const code = codes[next]!;
  if (code === 32 || code === 9 || code === 10 || code === 13 || code === 0xa0) return true;
  if (isClosingPunctuation(code)) return true;
  return code === 38 && (codesAt(codes, end, next, '&gt;') || codesAt(codes, end, next, '&nbsp;'));
}

const afterDigit = (codes: Int32Array, start: number, at: number) => at > start && isDigitCode(codes[at - 1]!);

// Marks a quote that could close the quotation; such decisions are settled once all quotes are seen.
const CANDIDATE = 1;

function decide(
  codes: Int32Array, start: number, end: number, positions: Int32Array, decisions: Int32Array, count: number,
  simple: boolean, { quote, prime, close }: PrimeKind,
): void {
  let candidates = 0;
  let notAfterDigit = 0;
  let lastCandidate = -1;
  let lastBeforePeriod = -1;
  for (let index = 0; index < count; index++) {
    const at = positions[index]!;
    const digit = afterDigit(codes, start, at);
    const closes = closesAt(codes, at + 1, end);
    if (simple) {
      decisions[index] = digit ? prime : closes ? close : quote;
    } else if (closes) {
      decisions[index] = CANDIDATE;
      candidates++;
      if (!digit) notAfterDigit++;
      lastCandidate = index;
      if (at + 1 < end && codes[at + 1] === 46 /* . */) lastBeforePeriod = index;
    } else {
      decisions[index] = digit ? prime : quote;
    }
  }
  if (candidates === 0) return;
  const chosen = lastBeforePeriod !== -1 ? lastBeforePeriod : lastCandidate;
  for (let index = 0; index < count; index++) {
    if (decisions[index] !== CANDIDATE) continue;
    if (candidates === 1) decisions[index] = close;
    else if (notAfterDigit > 0) decisions[index] = afterDigit(codes, start, positions[index]!) ? prime : close;
    else decisions[index] = index === chosen ? close : prime;
  }
}
