/**
 * Splitting text into alternating runs of text and HTML elements (tags, comments, CDATA sections), the way the
 * reference's formatting filters see markup. Odd indexes of the result are elements, even indexes text.
 */

import { escapeRegExp } from './patterns.js';

// After "<!": dashes not followed by "->", then the closing "-->" (or the rest of the input if never closed).
const COMMENT_BODY = '!(?:-(?!->)[^-]*)*(?:-->)?';
const CDATA_BODY = '!\\[CDATA\\[[^\\]]*(?:\\](?!\\]>)[^\\]]*)*(?:\\]\\]>)?';

const ELEMENT =
  '<(?:(?=!--|!\\[CDATA\\[)(?:(?=!-)' + COMMENT_BODY + '|(?!!-)' + CDATA_BODY + ')|(?!!--|!\\[CDATA\\[)[^>]*>?)';

const ELEMENT_SPLITTER = new RegExp('(' + ELEMENT + ')');

export function splitHtml(text: string): string[] {
  return text.split(ELEMENT_SPLITTER);
}

/**
 * Calls `visit` with the start and end of each element, in order, as `splitHtml` finds them: a comment runs to
 * the first `-->`, a CDATA section to the first `]]>`, anything else from `<` to the first `>`, each to the end
 * of the text when unclosed. One pass, no pieces made.
 */
export function scanElements(text: string, visit: (start: number, end: number) => void): void {
  let search = 0;
  for (;;) {
    const start = text.indexOf('<', search);
    if (start === -1) return;
    let close: number;
    let closeLength = 3;
    if (text.startsWith('!--', start + 1)) {
      close = text.indexOf('-->', start + 2);
    } else if (text.startsWith('![CDATA[', start + 1)) {
      close = text.indexOf(']]>', start + 9);
    } else {
      close = text.indexOf('>', start);
      closeLength = 1;
    }
    const end = close === -1 ? text.length : close + closeLength;
    visit(start, end);
    search = end;
  }
}

/**
 * Rewrites the elements that contain one of `keys` with `rewrite`, leaving the text between them alone. The next
 * occurrence of each key is remembered, so no element is searched on its own.
 */
export function rewriteElementsContaining(text: string, keys: readonly string[], rewrite: (element: string) => string): string {
  const next = keys.map(() => -2);
  let output = '';
  let copied = 0;
  scanElements(text, (start, end) => {
    let contains = false;
    for (let index = 0; index < keys.length && !contains; index++) {
      const key = keys[index]!;
      if (next[index] !== -1 && next[index]! < start) next[index] = text.indexOf(key, start);
      contains = next[index] !== -1 && next[index]! + key.length <= end;
    }
    if (!contains) return;
    output += text.slice(copied, start) + rewrite(text.slice(start, end));
    copied = end;
  });
  return copied === 0 ? text : output + text.slice(copied);
}

/** Applies the replacements inside elements only, leaving the text between them alone. */
export function replaceInHtmlTags(text: string, replacements: ReadonlyMap<string, string>): string {
  const keys = [...replacements.keys()].filter((key) => key !== '');
  return rewriteElementsContaining(text, keys, (element) => replaceSimultaneously(element, replacements));
}

/** One left-to-right pass that replaces the longest matching key at each position (PHP's `strtr` with pairs). */
export function replaceSimultaneously(text: string, replacements: ReadonlyMap<string, string>): string {
  const keys = [...replacements.keys()].filter((key) => key !== '').sort((a, b) => b.length - a.length);
  if (keys.length === 0) return text;
  const matcher = new RegExp(keys.map(escapeRegExp).join('|'), 'g');
  return text.replace(matcher, (found) => replacements.get(found) ?? found);
}
