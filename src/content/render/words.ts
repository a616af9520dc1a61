/** Word trimming as used for generated excerpts: tags stripped, words joined by single spaces. */
import { stripAllTags } from '../../format/strip-tags.js';

const WORD_SEPARATOR = /[\n\r\t ]+/g;

/**
 * Keeps the first `wordCount` words of the text (tags stripped, words joined by single spaces) and appends
 * `more` when words were cut.
 */
export function trimWords(text: string, wordCount: number, more = '&hellip;'): string {
  const count = Math.trunc(wordCount);
  const words = splitWords(stripAllTags(text), count + 1);
  if (words.length > count) {
    words.pop();
    return words.join(' ') + more;
  }
  return words.join(' ');
}

/** Splits on whitespace into at most `limit` non-empty pieces, the last holding the unsplit rest. */
function splitWords(text: string, limit: number): string[] {
  const effectiveLimit = limit === 0 ? -1 : limit;
  if (effectiveLimit !== -1 && effectiveLimit <= 1) return text === '' ? [] : [text];
  const pieces: string[] = [];
  let rest = 0;
  for (const separator of text.matchAll(WORD_SEPARATOR)) {
    const piece = text.slice(rest, separator.index);
    rest = separator.index + separator[0].length;
    if (piece !== '') {
      pieces.push(piece);
      if (effectiveLimit !== -1 && pieces.length === effectiveLimit - 1) break;
    }
  }
  const remainder = text.slice(rest);
  if (remainder !== '') pieces.push(remainder);
  return pieces;
}
