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
  let out = '';
  let state = State.Text;
  let depth = 0;
  let quote = '';
  let last = '';
  let brackets = 0;
  let isXml = false;
  for (let index = 0; index < input.length; index++) {
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
  }
  return out;
}

/** `wp_strip_all_tags`: strips tags, dropping `<script>` and `<style>` elements with their contents. */
export function stripAllTags(text: string, removeBreaks = false): string {
  let stripped = stripTags(text.replace(/<(script|style)[^>]*?>[\s\S]*?<\/\1>/gi, ''));
  if (removeBreaks) stripped = stripped.replace(/[\r\n\t ]+/g, ' ');
  return phpTrim(stripped);
}
