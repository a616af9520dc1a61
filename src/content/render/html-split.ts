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

/** Applies the replacements inside elements only, leaving the text between them alone. */
export function replaceInHtmlTags(text: string, replacements: ReadonlyMap<string, string>): string {
  const parts = splitHtml(text);
  let changed = false;
  for (let index = 1; index < parts.length; index += 2) {
    const element = parts[index] ?? '';
    for (const search of replacements.keys()) {
      if (element.includes(search)) {
        parts[index] = replaceSimultaneously(element, replacements);
        changed = true;
        break;
      }
    }
  }
  return changed ? parts.join('') : text;
}

/** One left-to-right pass that replaces the longest matching key at each position (PHP's `strtr` with pairs). */
export function replaceSimultaneously(text: string, replacements: ReadonlyMap<string, string>): string {
  const keys = [...replacements.keys()].filter((key) => key !== '').sort((a, b) => b.length - a.length);
  if (keys.length === 0) return text;
  const matcher = new RegExp(keys.map(escapeRegExp).join('|'), 'g');
  return text.replace(matcher, (found) => replacements.get(found) ?? found);
}
