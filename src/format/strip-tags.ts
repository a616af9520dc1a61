/**
 * Tag stripping with the reference's semantics (PHP `strip_tags` without an allow list): a small state machine
 * that drops markup, PHP blocks, `<!…>` declarations and comments, honouring quotes inside tags. A `<` followed
 * by white space is text. Unterminated markup swallows the rest of the input.
 */

import { phpTrim } from './php.js';

const enum State {
  Text,
  Tag,
  Php,
  Declaration,
  Comment,
}

const C_SPACE = new Set([' ', '\t', '\n', '\v', '\f', '\r']);

export function stripTags(input: string): string {
  // Text is copied in runs from one tag to the next; only markup is walked character by character. A NUL
  // anywhere means the careful walk over every character.
  const runs = !input.includes('\0');
  let runStart = 0;
  let out = '';
  let state = State.Text;
  let depth = 0;
  let quote = '';
  let last = '';
  let brackets = 0;
  let isXml = false;
  for (let index = 0; index < input.length; index++) {
    if (runs && state === State.Text) {
      index = input.indexOf('<', index);
      while (index !== -1 && C_SPACE.has(input[index + 1] ?? '')) index = input.indexOf('<', index + 1);
      if (index === -1) break;
      out += input.slice(runStart, index);
      state = State.Tag;
      last = '<';
      continue;
    }
    const char = input[index]!;
    const previous = index > 0 ? input[index - 1]! : '';
    if (char === '\0') continue;
    switch (state) {
      case State.Text:
        if (char === '<') {
          if (C_SPACE.has(input[index + 1] ?? '')) {
            out += char;
          } else {
            state = State.Tag;
            last = '<';
          }
        } else {
          out += char;
        }
        break;

      case State.Tag:
        if (char === '<') {
          if (!quote && !C_SPACE.has(input[index + 1] ?? '')) depth++;
        } else if (char === '>') {
          if (depth) {
            depth--;
          } else if (!quote && !(isXml && previous === '-')) {
            last = '>';
            state = State.Text;
            quote = '';
            isXml = false;
          }
        } else if (char === '"' || char === "'") {
          if (index > 0 && (!quote || char === quote)) quote = quote ? '' : char;
        } else if (char === '!' && previous === '<') {
          state = State.Declaration;
          last = char;
        } else if (char === '?' && previous === '<') {
          state = State.Php;
          brackets = 0;
        }
        break;

      case State.Php:
        if (char === '(' || char === ')') {
          if (last !== '"' && last !== "'") {
            last = char;
            brackets += char === '(' ? 1 : -1;
          }
        } else if (char === '>') {
          if (depth) {
            depth--;
          } else if (!quote && !brackets && last !== '"' && previous === '?') {
            state = State.Text;
            quote = '';
          }
        } else if (char === '"' || char === "'") {
          if (previous !== '\\') {
            if (last === char) last = '';
            else if (last !== '\\') last = char;
          }
          if (index > 0 && previous !== '\\' && (!quote || char === quote)) quote = quote ? '' : char;
        } else if ((char === 'l' || char === 'L') && index > 4 && /^<\?xm$/i.test(input.slice(index - 4, index))) {
          state = State.Tag;
          isXml = true;
        }
        break;

      case State.Declaration:
        if (char === '>') {
          if (depth) {
            depth--;
          } else if (!quote) {
            state = State.Text;
            quote = '';
          }
        } else if (char === '"' || char === "'") {
          if (index > 0 && previous !== '\\' && (!quote || char === quote)) quote = quote ? '' : char;
        } else if (char === '-' && previous === '-' && input[index - 2] === '!') {
          state = State.Comment;
        } else if ((char === 'e' || char === 'E') && index >= 6 && /^doctyp$/i.test(input.slice(index - 6, index))) {
          state = State.Tag;
        }
        break;

      case State.Comment:
        if (char === '>' && previous === '-' && input[index - 2] === '-') {
          state = State.Text;
          quote = '';
        }
        break;
    }
    if (state === State.Text) runStart = index + 1;
  }
  return runs && state === State.Text ? out + input.slice(runStart) : out;
}

/** `wp_strip_all_tags`: strips tags, dropping `<script>` and `<style>` elements with their contents. */
export function stripAllTags(text: string, removeBreaks = false): string {
  let stripped = stripTags(removeScriptsAndStyles(text));
  if (removeBreaks) stripped = stripped.replace(/[\r\n\t ]+/g, ' ');
  return phpTrim(stripped);
}

const SCRIPT_OR_STYLE = /<(script|style)/gi;
const CLOSERS: Readonly<Record<string, RegExp>> = { script: /<\/script>/gi, style: /<\/style>/gi };

/**
 * Removes each `<script …>…</script>` and `<style …>…</style>` (names in any case, the closer the first after
 * the opener). The next `>` and the next closer of each name are remembered, so an opener without a closer
 * costs no search of the rest of the text.
 */
function removeScriptsAndStyles(text: string): string {
  SCRIPT_OR_STYLE.lastIndex = 0;
  if (!SCRIPT_OR_STYLE.test(text)) return text;
  SCRIPT_OR_STYLE.lastIndex = 0;
  const nextCloser: Record<string, number> = { script: -2, style: -2 };
  let nextGreater = -2;
  let output = '';
  let copied = 0;
  for (let match = SCRIPT_OR_STYLE.exec(text); match !== null; match = SCRIPT_OR_STYLE.exec(text)) {
    const name = match[1]!.toLowerCase();
    const nameEnd = match.index + match[0].length;
    if (nextGreater < nameEnd) nextGreater = text.indexOf('>', nameEnd);
    if (nextGreater === -1) break;
    let closer = nextCloser[name]!;
    if (closer !== -1 && closer <= nextGreater) {
      const pattern = CLOSERS[name]!;
      pattern.lastIndex = nextGreater + 1;
      closer = pattern.exec(text)?.index ?? -1;
      nextCloser[name] = closer;
    }
    if (closer === -1) continue;
    output += text.slice(copied, match.index);
    copied = closer + name.length + 3;
    SCRIPT_OR_STYLE.lastIndex = copied;
  }
  return copied === 0 ? text : output + text.slice(copied);
}
