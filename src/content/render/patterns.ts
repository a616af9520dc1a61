/**
 * Building blocks for regular expressions that must behave like the reference's PCRE patterns, which run on
 * bytes: `\s` there is ASCII whitespace only (JavaScript's also matches no-break and Unicode spaces), and a
 * plain `$` also matches before one final newline.
 */

/** PCRE `\s` without Unicode mode. */
export const ASCII_SPACE = '[\\t\\n\\v\\f\\r ]';

/** The reference's "common whitespace" alternation: ASCII spaces, the no-break space and `&nbsp;`. */
export const TEXT_SPACES = '[\\r\\n\\t ]|\\u00a0|&nbsp;';

/** PCRE `$` (and `\Z`) outside multiline mode: the end of the text, or just before a final newline. */
export const TEXT_END = '(?=\\n?$)';

const PHP_TRIM_CHARACTERS = ' \t\n\r\0\x0B';

/** Trims only the given characters (by default the set PHP's `trim` removes), never other Unicode spaces. */
export function trimCharacters(text: string, characters: string = PHP_TRIM_CHARACTERS): string {
  let start = 0;
  let end = text.length;
  while (start < end && characters.includes(text.charAt(start))) start++;
  while (end > start && characters.includes(text.charAt(end - 1))) end--;
  return start === 0 && end === text.length ? text : text.slice(start, end);
}

/** Replaces each pair in turn over the whole text, every occurrence, like a list-form `str_replace`. */
export function replaceEach(text: string, pairs: ReadonlyArray<readonly [string, string]>): string {
  let result = text;
  for (const [search, replacement] of pairs) {
    if (search !== '' && result.includes(search)) result = result.split(search).join(replacement);
  }
  return result;
}

export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
}
