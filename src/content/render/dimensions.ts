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

export function markDimensions(text: string): string {
  const length = text.length;
  const wordAt = (at: number) => at < length && isWordCode(text.charCodeAt(at));
  // The end of the run of [\d.,] starting at `from`, remembered for the run last measured.
  let runFrom = 0;
  let runEnd = -1;
  const runEndFrom = (from: number): number => {
    if (from >= runFrom && from <= runEnd) return runEnd;
    let end = from;
    while (end < length && isNumberCode(text.charCodeAt(end))) end++;
    runFrom = from;
    runEnd = end;
    return end;
  };
  // Where the match ends for the "x" at `x`, or -1: the longest `\d[\d.,]*` after it that a word boundary ends.
  let lastX = -1;
  let lastEnd = -1;
  const endAfter = (x: number): number => {
    if (x === lastX) return lastEnd;
    lastX = x;
    lastEnd = -1;
    if (x + 1 >= length || !isDigit(text.charCodeAt(x + 1))) return -1;
    let end = x + 2;
    while (end < length && isNumberCode(text.charCodeAt(end))) end++;
    for (; end >= x + 2; end--) {
      if (isWordCode(text.charCodeAt(end - 1)) !== wordAt(end)) return (lastEnd = end);
    }
    return -1;
  };

  let output = '';
  let copied = 0;
  for (let start = 0; start < length; start++) {
    const code = text.charCodeAt(start);
    if (!isDigit(code) || (start > 0 && isWordCode(text.charCodeAt(start - 1)))) continue;
    const x = runEndFrom(start + 1);
    if (x >= length || text.charCodeAt(x) !== X || (code === 48 && x === start + 1)) continue;
    const end = endAfter(x);
    if (end === -1) continue;
    output += `${text.slice(copied, x)}&#215;`;
    copied = x + 1;
    start = end - 1;
  }
  return copied === 0 ? text : output + text.slice(copied);
}
