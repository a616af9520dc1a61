/**
 * Text smileys such as `:)` or `;-)` standing between spaces become emoji characters; `:mrgreen:` becomes an
 * image when a base URL for smiley images is known. Text inside `<code>`, `<pre>`, `<style>`, `<script>` and
 * `<textarea>` is left alone.
 */
import { TEXT_SPACES, escapeRegExp } from './patterns.js';

const SMILEYS: Readonly<Record<string, string>> = {
  ':mrgreen:': 'mrgreen.png',
  ':neutral:': '\u{1F610}',
  ':twisted:': '\u{1F608}',
  ':arrow:': '\u27A1',
  ':shock:': '\u{1F62F}',
  ':smile:': '\u{1F642}',
  ':???:': '\u{1F615}',
  ':cool:': '\u{1F60E}',
  ':evil:': '\u{1F47F}',
  ':grin:': '\u{1F600}',
  ':idea:': '\u{1F4A1}',
  ':oops:': '\u{1F633}',
  ':razz:': '\u{1F61B}',
  ':roll:': '\u{1F644}',
  ':wink:': '\u{1F609}',
  ':cry:': '\u{1F625}',
  ':eek:': '\u{1F62E}',
  ':lol:': '\u{1F606}',
  ':mad:': '\u{1F621}',
  ':sad:': '\u{1F641}',
  '8-)': '\u{1F60E}',
  '8-O': '\u{1F62F}',
  ':-(': '\u{1F641}',
  ':-)': '\u{1F642}',
  ':-?': '\u{1F615}',
  ':-D': '\u{1F600}',
  ':-P': '\u{1F61B}',
  ':-o': '\u{1F62E}',
  ':-x': '\u{1F621}',
  ':-|': '\u{1F610}',
  ';-)': '\u{1F609}',
  '8O': '\u{1F62F}',
  ':(': '\u{1F641}',
  ':)': '\u{1F642}',
  ':?': '\u{1F615}',
  ':D': '\u{1F600}',
  ':P': '\u{1F61B}',
  ':o': '\u{1F62E}',
  ':x': '\u{1F621}',
  ':|': '\u{1F610}',
  ';)': '\u{1F609}',
  ':!:': '\u2757',
  ':?:': '\u2753',
};

const IMAGE_FILE = /\.(?:jpe?g|jpe|gif|png|webp)$/i;

/**
 * One alternation per first character, codes sorted in descending order so that longer codes sharing a prefix
 * (`:???:` before `:?`) are tried first; each code must stand between spaces or line ends. Each alternative
 * starts with its literal first character and checks what precedes it afterwards, so the engine can skip
 * quickly to candidate characters.
 */
function buildSmileyPattern(): RegExp {
  const codes = Object.keys(SMILEYS).sort((a, b) => (a < b ? 1 : a > b ? -1 : 0));
  const groups: string[] = [];
  let currentFirst = '';
  let alternatives: string[] = [];
  const flush = () => {
    if (currentFirst !== '') {
      const first = escapeRegExp(currentFirst);
      groups.push(`${first}(?<=(?:${TEXT_SPACES}|^)${first})(?:${alternatives.join('|')})(?=${TEXT_SPACES}|$)`);
    }
  };
  for (const code of codes) {
    const first = code.charAt(0);
    if (first !== currentFirst) {
      flush();
      currentFirst = first;
      alternatives = [];
    }
    alternatives.push(escapeRegExp(code.slice(1)));
  }
  flush();
  return new RegExp(groups.join('|'), 'gm');
}

const SMILEY_PATTERN = buildSmileyPattern();
/**
 * What every smiley needs: its first character at a line start or after a space. Text dense in `;` and `8`
 * (numeric entities) has candidates everywhere but none after a space, and this test skips it in one scan.
 */
const SMILEY_AFTER_SPACE = /(?:^|[\r\n\t \u00a0]|&nbsp;)[:;8]/m;
/** Every smiley starts with one of these characters. */
const SMILEY_START = /[:;8]/g;
const IGNORED_ELEMENT_START = /^<(code|pre|style|script|textarea)[^>]*>/;

export interface SmileyOptions {
  /** Base URL (ending in `/`) for image smileys; without it they stay as text. */
  smileyImageBaseUrl?: string | undefined;
}

/**
 * The text is seen as runs of text and tags, a tag being `<` up to the first `>` with no line break between.
 * Smileys are replaced in text runs outside ignored elements, each run on its own (a run's start and end count
 * as line ends). The scan keeps the next `>`, line break and smiley character it has found, so every search
 * covers new ground and the work stays linear.
 */
export function convertSmilies(text: string, options: SmileyOptions = {}): string {
  SMILEY_START.lastIndex = 0;
  if (!SMILEY_START.test(text)) return text;

  const outputs = new Map<string, string>();
  const replacer = (code: string) => {
    let replacement = outputs.get(code);
    if (replacement === undefined) outputs.set(code, (replacement = smileyOutput(code, options)));
    return replacement;
  };
  const length = text.length;
  let output = '';
  let copied = 0;
  let ignoredElement = '';
  let nextClose = -2;
  let nextNewline = -2;
  let nextSmiley = -2;
  const smileyFrom = (from: number): number => {
    if (nextSmiley !== -1 && nextSmiley < from) {
      SMILEY_START.lastIndex = from;
      nextSmiley = SMILEY_START.exec(text)?.index ?? -1;
    }
    return nextSmiley;
  };
  const textRun = (start: number, end: number) => {
    if (start === end) return;
    if (ignoredElement === '' && text.charCodeAt(start) === 60 /* < */) {
      const piece = text.slice(start, end);
      const opened = IGNORED_ELEMENT_START.exec(piece);
      if (opened) ignoredElement = opened[1] ?? '';
      else return;
    }
    if (ignoredElement === '') {
      const smiley = smileyFrom(start);
      if (smiley === -1 || smiley >= end) return;
      const piece = text.slice(start, end);
      if (!SMILEY_AFTER_SPACE.test(piece)) return;
      const replaced = piece.replace(SMILEY_PATTERN, replacer);
      if (replaced !== piece) {
        output += text.slice(copied, start) + replaced;
        copied = end;
      }
    } else if (end - start === ignoredElement.length + 3 && text.startsWith(`</${ignoredElement}>`, start)) {
      ignoredElement = '';
    }
  };

  let position = 0;
  let search = 0;
  while (search < length) {
    const open = text.indexOf('<', search);
    if (open === -1) break;
    if (nextClose !== -1 && nextClose < open) nextClose = text.indexOf('>', open);
    if (nextClose === -1) break;
    if (nextNewline !== -1 && nextNewline < open) nextNewline = text.indexOf('\n', open);
    if (nextNewline !== -1 && nextNewline < nextClose) {
      // No tag can start before this line break: every "<" before it meets the break before a ">".
      search = nextNewline + 1;
      continue;
    }
    const end = nextClose + 1;
    textRun(position, open);
    tagRun(open, end);
    position = end;
    search = end;
  }
  textRun(position, length);
  return copied === 0 ? text : output + text.slice(copied);

  function tagRun(start: number, end: number): void {
    if (ignoredElement === '') {
      const second = text.charCodeAt(start + 1);
      // c, p, s, t: the first letters of the ignored elements.
      if (second === 99 || second === 112 || second === 115 || second === 116) {
        const opened = IGNORED_ELEMENT_START.exec(text.slice(start, end));
        if (opened) ignoredElement = opened[1] ?? '';
      }
    } else if (end - start === ignoredElement.length + 3 && text.startsWith(`</${ignoredElement}>`, start)) {
      ignoredElement = '';
    }
  }
}

function smileyOutput(code: string, options: SmileyOptions): string {
  const replacement = SMILEYS[code] ?? code;
  if (!IMAGE_FILE.test(replacement)) return replacement;
  if (options.smileyImageBaseUrl === undefined) return code;
  const source = `${options.smileyImageBaseUrl}${replacement}`.replaceAll('"', '%22');
  return `<img src="${source}" alt="${code}" class="wp-smiley" style="height: 1em; max-height: 1em;" />`;
}
