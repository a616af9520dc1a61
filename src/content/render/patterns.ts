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

/** Replaces each pair in turn over the whole text, every occurrence, like a list-form `str_replace`. */
export function replaceEach(text: string, pairs: ReadonlyArray<readonly [string, string]>): string {
  let result = text;
  for (const [search, replacement] of pairs) {
    if (search === '' || !result.includes(search)) continue;
    // A replacement without "$" is inserted literally by replaceAll, which builds no array of pieces.
    result = replacement.includes('$') ? result.split(search).join(replacement) : result.replaceAll(search, replacement);
  }
  return result;
}

export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
}
