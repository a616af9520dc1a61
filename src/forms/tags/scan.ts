/**
 * Scanning form templates for form-tags: `[type* name option "value" 'value']`, optionally enclosing content up to
 * `[/type]`, with `[[type ...]]` as an escape. The plugin does this with one regular expression; this scanner
 * walks the text once instead (finding the next `]` and `[` with cursors that only move forward), so a hostile
 * template cannot make it backtrack.
 */
import { phpTrim, splitWhitespace, stripWhitespaces, WHITESPACE } from '../text.js';
import { FormTag } from './form-tag.js';
import { Pipes } from './pipes.js';
import { isName, isTagType, supports } from './types.js';

/** Where a tag was found: `[start, end)` of the whole match, including escape brackets. */
export interface TagMatch {
  start: number;
  end: number;
  /** The text of the match. */
  text: string;
  /** A `[[tag]]` escape: not a tag, printed without the outer brackets. */
  escaped: boolean;
  /** `[` or `]` kept around the replacement (a lone doubled bracket on one side). */
  before: string;
  after: string;
  type: string;
  /** The attribute text, or null when the tag has none. */
  attr: string | null;
  content: string | null;
}

const WHITESPACE_CHAR = new RegExp(`[${WHITESPACE}]`, 'u');
const TRAILING_SLASH = new RegExp(`[${WHITESPACE}]+/$`, 'u');
const OPTIONS_TEXT = new RegExp(`^[-+*=0-9a-zA-Z:.!?#$&@_/|%${WHITESPACE}]*$`, 'u');

/** Finds the first occurrence of a character at or after a position, remembering its last answer. */
function forwardFinder(text: string, character: string): (from: number) => number {
  let last = -2;
  return (from) => {
    if (last === -1 || (last >= from)) return last;
    last = text.indexOf(character, from);
    return last;
  };
}

/** Every tag match in the text, in order (the first `limit` of them). */
export function findTags(text: string, limit = Infinity): TagMatch[] {
  const matches: TagMatch[] = [];
  const nextClose = forwardFinder(text, ']');
  const nextOpen = forwardFinder(text, '[');
  let position = 0;
  while (position < text.length) {
    const open = text.indexOf('[', position);
    if (open === -1) break;
    const found = (text[open + 1] === '[' ? matchAt(text, open + 1, '[', nextClose, nextOpen) : null)
      ?? matchAt(text, open, '', nextClose, nextOpen);
    if (!found) {
      position = open + 1;
      continue;
    }
    if (matches.push(found) >= limit) break;
    position = found.end;
  }
  return matches;
}

function matchAt(
  text: string, bracket: number, before: string, nextClose: (from: number) => number, nextOpen: (from: number) => number,
): TagMatch | null {
  let cursor = bracket + 1;
  while (cursor < text.length && /[A-Za-z0-9_*]/.test(text[cursor]!)) cursor++;
  const type = text.slice(bracket + 1, cursor);
  if (!isTagType(type)) return null;
  const following = text[cursor];
  if (following === undefined || (following !== ']' && !WHITESPACE_CHAR.test(following))) return null;
  const close = nextClose(cursor);
  if (close === -1) return null;
  let attr: string | null = null;
  if (close > cursor) {
    const inside = text.slice(cursor, close);
    let start = 0;
    while (start < inside.length && WHITESPACE_CHAR.test(inside[start]!)) start++;
    attr = inside.slice(start).replace(TRAILING_SLASH, '');
  }
  let end = close + 1;
  let content: string | null = null;
  const contentEnd = nextOpen(end);
  const closing = `[/${type}]`;
  if (contentEnd !== -1 && text.startsWith(closing, contentEnd)) {
    content = text.slice(end, contentEnd);
    end = contentEnd + closing.length;
  }
  const after = text[end] === ']' ? ']' : '';
  if (after) end += 1;
  const start = bracket - before.length;
  return { start, end, text: text.slice(start, end), escaped: before === '[' && after === ']', before, after, type, attr, content };
}

export interface ParsedAttributes {
  options: string[];
  values: string[];
}

/**
 * Splits the attribute text into bare options (which come first) and quoted values (which come last). Null when
 * the text does not have that shape: options made of `[-+*=0-9a-zA-Z:.!?#$&@_/|%]` and white space, then only
 * `"..."` or `'...'` strings.
 */
export function parseAttributes(raw: string): ParsedAttributes | null {
  const text = stripWhitespaces(raw.replace(/[\u00a0\u200b]+/g, ' '));
  let quote = text.length;
  for (let index = 0; index < text.length; index++) {
    if (text[index] === '"' || text[index] === "'") {
      quote = index;
      break;
    }
  }
  const head = text.slice(0, quote);
  if (!OPTIONS_TEXT.test(head)) return null;
  const values: string[] = [];
  let index = quote;
  while (index < text.length) {
    while (index < text.length && WHITESPACE_CHAR.test(text[index]!)) index++;
    if (index >= text.length) break;
    const mark = text[index]!;
    if (mark !== '"' && mark !== "'") return null;
    const closing = text.indexOf(mark, index + 1);
    if (closing === -1) return null;
    values.push(text.slice(index + 1, closing));
    index = closing + 1;
  }
  const options = stripWhitespaces(head);
  return { options: options === '' ? [] : splitWhitespace(options), values };
}

/** The tag a match stands for, or null when it is not a valid tag (bad name, bad attributes, repeated singular). */
export function tagOf(found: TagMatch, scanned: readonly FormTag[]): FormTag | null {
  const { type } = found;
  const basetype = type.replace(/^\*+|\*+$/g, '');
  if (supports(type, 'singular') && scanned.some((tag) => tag.basetype === basetype)) return null;
  const attributes = parseAttributes(found.attr ?? '');
  let rawName = '';
  let options: string[] = [];
  let rawValues: string[] = [];
  if (supports(type, 'name-attr')) {
    if (!attributes) return null;
    rawName = attributes.options.shift() ?? '';
    if (!isName(rawName)) return null;
  }
  let pipes: Pipes | null = null;
  let values: string[] = [];
  if (attributes) {
    options = attributes.options;
    rawValues = attributes.values;
    pipes = new Pipes(rawValues);
    values = pipes.befores();
  }
  values = values.map(phpTrim);
  const content = phpTrim(found.content ?? '').replace(/<br[\r\n\t ]*\/?>$/gm, '');
  return new FormTag(type, basetype, rawName, rawName.replace(/\./g, '_'), options, rawValues, values, [...values], pipes, content);
}

/** The form-tags of a template, in order. */
/**
 * The most form-tags (escaped ones included) a template written through the interface may hold: every read, schema,
 * render and submission of a form goes through all of its tags on the main thread, about 2 to 5 µs each.
 */
export const MAX_FORM_TAGS = 1000;

/** Whether the template holds more than `MAX_FORM_TAGS` tags; the scan stops at the first one past the limit. */
export function hasTooManyTags(text: string): boolean {
  return findTags(text, MAX_FORM_TAGS + 1).length > MAX_FORM_TAGS;
}

export function scanTags(text: string): FormTag[] {
  const tags: FormTag[] = [];
  for (const found of findTags(text)) {
    if (found.escaped) continue;
    const tag = tagOf(found, tags);
    if (tag) tags.push(tag);
  }
  return tags;
}
