/**
 * What the reference's registered shortcodes change in plain rendering. Shortcodes are not expanded here; the
 * registered names still matter: texturizing skips them, paragraphs are not wrapped around them, and generated
 * excerpts drop them.
 */
import { rewriteElementsContaining } from './html-split.js';
import { TEXT_SPACES, escapeRegExp } from './patterns.js';

/** Shortcodes registered by a default installation (captions, galleries, playlists, media players, embeds). */
export const DEFAULT_SHORTCODE_TAGS: readonly string[] = ['wp_caption', 'caption', 'gallery', 'playlist', 'audio', 'video', 'embed'];

/**
 * The opening tag of a shortcode: `[name attrs]` or `[name /]`, optionally escaped as `[[`. Groups: 1 extra
 * opening bracket, 2 name, 3 attributes, 4 self-closing slash. A full shortcode continues, when not
 * self-closing, through the first `[/name]` after the tag if there is one, then takes one more `]` if present.
 */
function openingTagPattern(tagNames: readonly string[]): RegExp {
  const names = tagNames.map(escapeRegExp).join('|');
  return new RegExp('\\[(\\[?)(' + names + ')(?![\\w-])([^\\]\\/]*(?:\\/(?!\\])[^\\]\\/]*)*?)(?:(\\/)\\]|\\])', 'g');
}

const NAME_CHARACTERS = /^[^<>&/[\]\x00-\x20=]+$/;
const namePatterns = new Map<string, RegExp>();

/**
 * The registered names that occur in the text as `[name` (or `[/name` when `closing`), the name ending where
 * the characters a shortcode name may hold end. One search per registered name.
 */
export function registeredNamesIn(text: string, registered: readonly string[], closing = false): string[] {
  if (!text.includes('[')) return [];
  return registered.filter((name) => {
    if (!NAME_CHARACTERS.test(name)) return false;
    const key = `${closing ? '/' : ''}${name}`;
    let pattern = namePatterns.get(key);
    if (!pattern) {
      pattern = new RegExp(`\\[${closing ? '\\/?' : ''}${escapeRegExp(name)}(?![^<>&/[\\]\\x00-\\x20=])`);
      if (namePatterns.size < 1000) namePatterns.set(key, pattern);
    }
    return pattern.test(text);
  });
}

/** Removes registered shortcodes (with their enclosed content); `[[name]]` keeps as the literal `[name]`. */
export function stripShortcodes(content: string, registered: readonly string[] = DEFAULT_SHORTCODE_TAGS): string {
  if (!content.includes('[') || registered.length === 0) return content;
  const names = registeredNamesIn(content, registered);
  if (names.length === 0) return content;

  // Brackets inside HTML elements are hidden so only shortcodes in text are removed, then restored.
  const text = hideBracketsInElements(content.replaceAll('&#91;', '&#091;').replaceAll('&#93;', '&#093;'));
  // An opening tag needs a "]" after it, so the search ends at the last one; the next closer of each name is
  // remembered, so a tag without one costs no search of the rest of the text.
  const searchable = text.slice(0, text.lastIndexOf(']') + 1);
  const opening = openingTagPattern(names);
  const nextCloser = new Map<string, number>();
  let stripped = '';
  let copied = 0;
  for (let match = opening.exec(searchable); match !== null; match = opening.exec(searchable)) {
    const [, open = '', name = '', , slash] = match;
    let end = match.index + match[0].length;
    if (slash === undefined) {
      const closer = `[/${name}]`;
      let next = nextCloser.get(name) ?? -2;
      if (next !== -1 && next < end) nextCloser.set(name, (next = text.indexOf(closer, end)));
      if (next !== -1) end = next + closer.length;
    }
    const close = text[end] === ']' ? ']' : '';
    if (close !== '') end++;
    stripped += text.slice(copied, match.index) + (open === '[' && close === ']' ? text.slice(match.index + 1, end - 1) : `${open}${close}`);
    copied = end;
    opening.lastIndex = end;
  }
  stripped += text.slice(copied);
  return stripped.replaceAll('&#91;', '[').replaceAll('&#93;', ']');
}

function hideBracketsInElements(content: string): string {
  return rewriteElementsContaining(content, ['[', ']'], (element) => element.replaceAll('[', '&#91;').replaceAll(']', '&#93;'));
}

/** The whole unwrapping as one pattern, for registered names a shortcode name could not hold (group 1: the shortcode). */
function unautopPattern(registered: readonly string[]): RegExp {
  const names = registered.map(escapeRegExp).join('|');
  return new RegExp(
    '<p>(?:' + TEXT_SPACES + ')*' +
      '(\\[(' + names + ')(?![\\w-])[^\\]\\/]*(?:\\/(?!\\])[^\\]\\/]*)*?' +
      '(?:\\/\\]|\\](?:[^\\[]*(?:\\[(?!\\/\\2\\])[^\\[]*)*\\[\\/\\2\\])?))' +
      '(?:' + TEXT_SPACES + ')*<\\/p>',
    'g',
  );
}

const PARAGRAPH_THEN_BRACKET = new RegExp(`<p>(?:${TEXT_SPACES})*\\[`, 'g');
const SPACES_THEN_PARAGRAPH_END = new RegExp(`(?:${TEXT_SPACES})*<\\/p>`, 'y');
const NAME_CONTINUES = /[\w-]/;

/**
 * Unwraps paragraphs that contain nothing but a registered shortcode: `<p>`, spaces, the shortcode (a tag
 * through its first `]`, with its content through the first `[/name]` when the paragraph then ends there),
 * spaces, `</p>`. Names are tried in registered order. The next `]`, the next closer of each name and the
 * paragraph ends already looked for are remembered, so the work stays linear.
 */
export function unautopShortcodes(text: string, registered: readonly string[] = DEFAULT_SHORTCODE_TAGS): string {
  if (registered.length === 0 || !text.includes('[')) return text;
  if (!registered.every((name) => NAME_CHARACTERS.test(name))) return text.replace(unautopPattern(registered), '$1');
  const paragraphEnds = new Map<number, number>();
  const paragraphEndAt = (at: number): number => {
    let end = paragraphEnds.get(at);
    if (end === undefined) {
      SPACES_THEN_PARAGRAPH_END.lastIndex = at;
      end = SPACES_THEN_PARAGRAPH_END.test(text) ? SPACES_THEN_PARAGRAPH_END.lastIndex : -1;
      paragraphEnds.set(at, end);
    }
    return end;
  };
  const nextCloser = new Map<string, number>();
  let nextBracket = -2;
  let output = '';
  let copied = 0;
  PARAGRAPH_THEN_BRACKET.lastIndex = 0;
  for (let match = PARAGRAPH_THEN_BRACKET.exec(text); match !== null; match = PARAGRAPH_THEN_BRACKET.exec(text)) {
    const open = match.index + match[0].length - 1;
    let end = -1;
    let shortcodeEnd = -1;
    for (const name of registered) {
      const nameEnd = open + 1 + name.length;
      if (!text.startsWith(name, open + 1) || NAME_CONTINUES.test(text[nameEnd] ?? '')) continue;
      if (nextBracket !== -1 && nextBracket < nameEnd) nextBracket = text.indexOf(']', nameEnd);
      if (nextBracket === -1) break;
      if (nextBracket > nameEnd && text[nextBracket - 1] === '/') {
        shortcodeEnd = nextBracket + 1;
        end = paragraphEndAt(shortcodeEnd);
      } else {
        const closer = `[/${name}]`;
        let closerAt = nextCloser.get(name) ?? -2;
        if (closerAt !== -1 && closerAt <= nextBracket) nextCloser.set(name, (closerAt = text.indexOf(closer, nextBracket + 1)));
        if (closerAt !== -1) end = paragraphEndAt((shortcodeEnd = closerAt + closer.length));
        if (end === -1) end = paragraphEndAt((shortcodeEnd = nextBracket + 1));
      }
      if (end !== -1) break;
    }
    if (end === -1) {
      PARAGRAPH_THEN_BRACKET.lastIndex = match.index + 1;
      continue;
    }
    output += text.slice(copied, match.index) + text.slice(open, shortcodeEnd);
    copied = end;
    PARAGRAPH_THEN_BRACKET.lastIndex = end;
  }
  return copied === 0 ? text : output + text.slice(copied);
}
