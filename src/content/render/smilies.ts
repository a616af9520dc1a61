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
 * (`:???:` before `:?`) are tried first; each code must stand between spaces or line ends.
 */
function buildSmileyPattern(): RegExp {
  const codes = Object.keys(SMILEYS).sort((a, b) => (a < b ? 1 : a > b ? -1 : 0));
  const groups: string[] = [];
  let currentFirst = '';
  let alternatives: string[] = [];
  const flush = () => {
    if (currentFirst !== '') {
      groups.push(`(?<=${TEXT_SPACES}|^)${escapeRegExp(currentFirst)}(?:${alternatives.join('|')})(?=${TEXT_SPACES}|$)`);
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
const TAG_SPLITTER = /(<[^\n]*?>)/;
const IGNORED_ELEMENT_START = /^<(code|pre|style|script|textarea)[^>]*>/;

export interface SmileyOptions {
  /** Base URL (ending in `/`) for image smileys; without it they stay as text. */
  smileyImageBaseUrl?: string | undefined;
}

export function convertSmilies(text: string, options: SmileyOptions = {}): string {
  const pieces = text.split(TAG_SPLITTER);
  let ignoredElement = '';
  for (let index = 0; index < pieces.length; index++) {
    const piece = pieces[index] ?? '';
    if (ignoredElement === '') {
      const opened = IGNORED_ELEMENT_START.exec(piece);
      if (opened) ignoredElement = opened[1] ?? '';
    }
    if (ignoredElement === '' && piece.length > 0 && !piece.startsWith('<')) {
      pieces[index] = piece.replace(SMILEY_PATTERN, (code) => smileyOutput(code, options));
    }
    if (ignoredElement !== '' && piece === `</${ignoredElement}>`) ignoredElement = '';
  }
  return pieces.join('');
}

function smileyOutput(code: string, options: SmileyOptions): string {
  const replacement = SMILEYS[code] ?? code;
  if (!IMAGE_FILE.test(replacement)) return replacement;
  if (options.smileyImageBaseUrl === undefined) return code;
  const source = `${options.smileyImageBaseUrl}${replacement}`.replaceAll('"', '%22');
  return `<img src="${source}" alt="${code}" class="wp-smiley" style="height: 1em; max-height: 1em;" />`;
}
