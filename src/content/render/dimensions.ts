/**
 * 9x9 becomes 9&#215;9, but 0x9999 (a hex number) stays: the pattern
 * `\b(\d(?:(?<=0)[\d.,]+|(?<!0)[\d.,]*))x(\d[\d.,]*)\b`, replaced left to right, written as a scan over
 * character codes (see punctuation-codes.ts; a token is neither a digit nor a word character, as its text
 * begins with `&` and ends with `;`). As a pattern it searches a run of digits, periods and commas again from
 * every digit in it (and again after every "x" that run ends at), which grows with the square of the run; here
 * each run is measured once.
 */
import * as Codes from './punctuation-codes.js';

// Read once: the scan below uses it at every match.
const { TIMES } = Codes;

const isDigit = (code: number) => code >= 48 && code <= 57;
// PCRE `\w` without Unicode mode.
const isWordCode = (code: number) =>
  (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95;
// `[\d.,]`
const isNumberCode = (code: number) => isDigit(code) || code === 46 || code === 44;
const X = 120;

function numberRunEnd(codes: Int32Array, length: number, from: number): number {
  let end = from;
  while (end < length && isNumberCode(codes[end]!)) end++;
  return end;
}

/** Where the match ends for the "x" at `x`, or -1: the longest `\d[\d.,]*` after it that a word boundary ends. */
function endAfter(codes: Int32Array, length: number, x: number): number {
  if (x + 1 >= length || !isDigit(codes[x + 1]!)) return -1;
  for (let end = numberRunEnd(codes, length, x + 2); end >= x + 2; end--) {
    const wordAfter = end < length && isWordCode(codes[end]!);
    if (isWordCode(codes[end - 1]!) !== wordAfter) return end;
  }
  return -1;
}

export function markDimensions(codes: Int32Array, length: number): void {
  // The run of [\d.,] last measured (every start inside it ends where it ends), and the last "x" tried.
  let runFrom = 0;
  let runEnd = -1;
  let lastX = -1;
  let lastEnd = -1;
  for (let start = 0; start < length; start++) {
    const code = codes[start]!;
    if (!isDigit(code) || (start > 0 && isWordCode(codes[start - 1]!))) continue;
    if (start + 1 < runFrom || start + 1 > runEnd) {
      runFrom = start + 1;
      runEnd = numberRunEnd(codes, length, runFrom);
    }
    const x = runEnd;
    if (x >= length || codes[x] !== X || (code === 48 && x === start + 1)) continue;
    if (x !== lastX) {
      lastX = x;
      lastEnd = endAfter(codes, length, x);
    }
    if (lastEnd === -1) continue;
    codes[x] = TIMES;
    start = lastEnd - 1;
  }
}
