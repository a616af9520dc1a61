/**
 * 9x9 becomes 9&#215;9, but 0x9999 (a hex number) stays: the pattern
 * `\b(\d(?:(?<=0)[\d.,]+|(?<!0)[\d.,]*))x(\d[\d.,]*)\b`, replaced left to right, written as a scan. As a
 * pattern it searches a run of digits, periods and commas again from every digit in it (and again after every
 * "x" that run ends at), which grows with the square of the run; here each run is measured once.
 */

const isDigit = (code: number) => code >= 48 && code <= 57;
// PCRE `\w` without Unicode mode.
const isWordCode = (code: number) =>
  (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95;
// `[\d.,]`
const isNumberCode = (code: number) => isDigit(code) || code === 46 || code === 44;
const X = 120;

function numberRunEnd(text: string, from: number): number {
  let end = from;
  while (end < text.length && isNumberCode(text.charCodeAt(end))) end++;
  return end;
}

/** Where the match ends for the "x" at `x`, or -1: the longest `\d[\d.,]*` after it that a word boundary ends. */
function endAfter(text: string, x: number): number {
  if (x + 1 >= text.length || !isDigit(text.charCodeAt(x + 1))) return -1;
  for (let end = numberRunEnd(text, x + 2); end >= x + 2; end--) {
    const wordAfter = end < text.length && isWordCode(text.charCodeAt(end));
    if (isWordCode(text.charCodeAt(end - 1)) !== wordAfter) return end;
  }
  return -1;
}

export function markDimensions(text: string): string {
  const length = text.length;
  // The run of [\d.,] last measured (every start inside it ends where it ends), and the last "x" tried.
  let runFrom = 0;
  let runEnd = -1;
  let lastX = -1;
  let lastEnd = -1;
  let output = '';
  let copied = 0;
  for (let start = 0; start < length; start++) {
    const code = text.charCodeAt(start);
    if (!isDigit(code) || (start > 0 && isWordCode(text.charCodeAt(start - 1)))) continue;
    if (start + 1 < runFrom || start + 1 > runEnd) {
      runFrom = start + 1;
      runEnd = numberRunEnd(text, runFrom);
    }
    const x = runEnd;
    if (x >= length || text.charCodeAt(x) !== X || (code === 48 && x === start + 1)) continue;
    if (x !== lastX) {
      lastX = x;
      lastEnd = endAfter(text, x);
    }
    if (lastEnd === -1) continue;
    output += `${text.slice(copied, x)}&#215;`;
    copied = x + 1;
    start = lastEnd - 1;
  }
  return copied === 0 ? text : output + text.slice(copied);
}
