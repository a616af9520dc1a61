/**
 * Tag stripping and word trimming as used for generated excerpts. Stripping follows PHP's `strip_tags`: tags
 * (including quoted `>` inside attributes), comments and processing instructions are removed, a `<` followed
 * by whitespace is kept as text, and an unterminated tag swallows the rest of the input.
 */
import { trimCharacters } from './patterns.js';

const SCRIPT_OR_STYLE = /<(script|style)[^>]*?>[\s\S]*?<\/\1>/gi;
const PHP_SPACE = ' \t\n\v\f\r';

/** Removes tags, and `<script>`/`<style>` elements with their content, then trims. */
export function stripAllTags(html: string): string {
  return trimCharacters(stripTags(html.replace(SCRIPT_OR_STYLE, '')));
}

export function stripTags(html: string): string {
  let output = '';
  let index = 0;
  const length = html.length;
  while (index < length) {
    const next = html.indexOf('<', index);
    if (next === -1) {
      output += html.slice(index);
      break;
    }
    output += html.slice(index, next);
    const following = html.charAt(next + 1);
    if (PHP_SPACE.includes(following) && following !== '') {
      output += '<';
      index = next + 1;
      continue;
    }
    index = skipMarkup(html, next);
  }
  return output;
}

/** Returns the index just past the markup that starts with `<` at `start` (or the end of the input). */
function skipMarkup(html: string, start: number): number {
  if (html.startsWith('<!--', start)) {
    const end = html.indexOf('-->', start + 4);
    return end === -1 ? html.length : end + 3;
  }
  if (html.charAt(start + 1) === '?') {
    const end = html.indexOf('?>', start + 2);
    return end === -1 ? html.length : end + 2;
  }
  let depth = 0;
  let quote = '';
  for (let index = start + 1; index < html.length; index++) {
    const character = html.charAt(index);
    if (quote !== '') {
      if (character === quote) quote = '';
    } else if (character === '"' || character === "'") {
      quote = character;
    } else if (character === '<') {
      depth++;
    } else if (character === '>') {
      if (depth === 0) return index + 1;
      depth--;
    }
  }
  return html.length;
}

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
