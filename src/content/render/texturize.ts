/**
 * Smart punctuation for display (see texturize-text.ts) over a document: text inside `<pre>`, `<code>`,
 * `<kbd>`, `<style>`, `<script>`, `<tt>`, inside a `[code]` shortcode, inside HTML comments and inside registered
 * shortcode tags is left as it is; bare ampersands inside other tags are escaped.
 */
import { DEFAULT_SHORTCODE_TAGS, registeredNamesIn } from './shortcodes.js';
import { ASCII_SPACE, escapeRegExp } from './patterns.js';
import { BARE_AMPERSAND, MAY_TEXTURIZE, texturizeText } from './texturize-text.js';

const NO_TEXTURIZE_TAGS = ['pre', 'code', 'kbd', 'style', 'script', 'tt'];
const NO_TEXTURIZE_SHORTCODES = ['code'];

function shortcodeTagPattern(names: readonly string[]): string {
  const alternatives = names.map(escapeRegExp).join('|');
  // A shortcode tag with attributes; HTML tags may appear inside, nested shortcodes may not.
  return `\\[[\\/\\[]?(?:${alternatives})(?=${ASCII_SPACE}|[\\]\\/])(?:[^\\[\\]<>]|<[^\\[\\]>]*>)*\\]\\]?`;
}

/**
 * The document is scanned once as runs of text between elements (a comment up to `-->`, or `<` up to the first
 * `>`, either running to the end when unclosed) and registered shortcode tags. Output is built from slices of
 * the input where something changes; the next `<`, `[`, `&` and texturizable spot found are remembered, so
 * every search covers new ground.
 */
export function texturize(text: string, registeredShortcodes: readonly string[] = DEFAULT_SHORTCODE_TAGS): string {
  if (text === '' || text === '0') return text;

  const shortcodeNames = registeredNamesIn(text, registeredShortcodes, true);
  const shortcodeTag = shortcodeNames.length > 0 ? new RegExp(shortcodeTagPattern(shortcodeNames), 'y') : null;
  const openTags: string[] = [];
  const openShortcodes: string[] = [];
  const length = text.length;
  let output = '';
  let copied = 0;
  const emit = (start: number, end: number, replacement: string) => {
    output += text.slice(copied, start) + replacement;
    copied = end;
  };

  let nextAmpersand = -2;
  let nextChange = -2;
  const textRun = (start: number, end: number) => {
    if (start === end || openTags.length > 0 || openShortcodes.length > 0) return;
    if (nextChange !== -1 && nextChange < start) {
      MAY_TEXTURIZE.lastIndex = start;
      nextChange = MAY_TEXTURIZE.exec(text)?.index ?? -1;
    }
    if (nextChange === -1 || nextChange >= end) return;
    const piece = text.slice(start, end);
    const texturized = texturizeText(piece);
    if (texturized !== piece) emit(start, end, texturized);
  };
  const elementRun = (start: number, end: number) => {
    if (text.startsWith('<!--', start)) return;
    if (nextAmpersand !== -1 && nextAmpersand < start) nextAmpersand = text.indexOf('&', start);
    if (nextAmpersand !== -1 && nextAmpersand < end) {
      const element = text.slice(start, end);
      const escaped = element.replace(BARE_AMPERSAND, '&#038;');
      if (escaped !== element) emit(start, end, escaped);
      trackDisabledElement(escaped, 0, escaped.length, openTags, NO_TEXTURIZE_TAGS);
    } else {
      trackDisabledElement(text, start, end, openTags, NO_TEXTURIZE_TAGS);
    }
  };

  let position = 0;
  let search = 0;
  let nextTag = -2;
  let nextBracket = shortcodeTag === null ? -1 : -2;
  for (;;) {
    if (nextTag !== -1 && nextTag < search) nextTag = text.indexOf('<', search);
    if (nextBracket !== -1 && nextBracket < search) nextBracket = text.indexOf('[', search);
    if (nextTag === -1 && nextBracket === -1) break;
    if (nextBracket === -1 || (nextTag !== -1 && nextTag < nextBracket)) {
      const start = nextTag;
      let end: number;
      if (text.startsWith('<!--', start)) {
        const close = text.indexOf('-->', start + 2);
        end = close === -1 ? length : close + 3;
      } else {
        const close = text.indexOf('>', start);
        end = close === -1 ? length : close + 1;
      }
      textRun(position, start);
      elementRun(start, end);
      position = search = end;
      continue;
    }
    const start = nextBracket;
    shortcodeTag!.lastIndex = start;
    const match = shortcodeTag!.exec(text);
    if (match === null) {
      search = start + 1;
      continue;
    }
    const end = start + match[0].length;
    textRun(position, start);
    if (!text.startsWith('[[', start) && !text.startsWith(']]', end - 2)) {
      trackDisabledElement(text, start, end, openShortcodes, NO_TEXTURIZE_SHORTCODES);
    }
    position = search = end;
  }
  textRun(position, length);
  return copied === 0 ? text : output + text.slice(copied);
}

/**
 * Keeps a stack of open elements (or shortcodes) whose content must not be texturized. The tag is
 * `text.slice(start, end)`; its name runs to the first space, or to its last character excluded.
 */
function trackDisabledElement(text: string, start: number, end: number, stack: string[], disabled: readonly string[]): void {
  let opening: boolean;
  let nameStart: number;
  if (end - start > 1 && text[start + 1] !== '/') {
    opening = true;
    nameStart = start + 1;
  } else if (stack.length === 0) {
    return;
  } else {
    opening = false;
    nameStart = start + 2;
  }
  const name = disabled.find((candidate) => {
    const after = nameStart + candidate.length;
    return after < end && text.startsWith(candidate, nameStart) && (text[after] === ' ' || after === end - 1);
  });
  if (name === undefined) return;
  if (opening) stack.push(name);
  else if (stack[stack.length - 1] === name) stack.pop();
}
