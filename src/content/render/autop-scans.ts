/**
 * Two steps of paragraph making written as scans, because as patterns they search to the end of a line (or of
 * the text) again from every candidate: with many candidates and no end in sight that is quadratic.
 */

/** `<p>(<li[^\n]+?)</p>` → the list item: a paragraph around an item that ends on the item's line. */
export function unwrapListItems(text: string): string {
  let output = '';
  let copied = 0;
  let close = -2;
  let newline = -2;
  for (let start = text.indexOf('<p><li'); start !== -1; ) {
    const from = start + 6;
    if (close !== -1 && close < from + 1) close = text.indexOf('</p>', from + 1);
    if (close === -1) break;
    if (newline !== -1 && newline < from) newline = text.indexOf('\n', from);
    if (newline !== -1 && newline < close) {
      start = text.indexOf('<p><li', start + 1);
      continue;
    }
    output += text.slice(copied, start) + text.slice(start + 3, close);
    copied = close + 4;
    start = text.indexOf('<p><li', copied);
  }
  return copied === 0 ? text : output + text.slice(copied);
}

const SENSITIVE_OPENER = /<(script|style|svg)/g;

/**
 * `<(script|style|svg)[\s\S]*?</\1>` elements rewritten by `rewrite`: each opener up to the first closer of its
 * name after it. The next closer of each name is remembered, so an opener without one costs no search.
 */
export function rewriteNewlineSensitive(text: string, rewrite: (element: string) => string): string {
  if (!text.includes('<s')) return text;
  const nextCloser = new Map<string, number>();
  let output = '';
  let copied = 0;
  SENSITIVE_OPENER.lastIndex = 0;
  for (let match = SENSITIVE_OPENER.exec(text); match !== null; match = SENSITIVE_OPENER.exec(text)) {
    const name = match[1]!;
    const closer = `</${name}>`;
    const from = match.index + match[0].length;
    let at = nextCloser.get(name) ?? -2;
    if (at !== -1 && at < from) nextCloser.set(name, (at = text.indexOf(closer, from)));
    if (at === -1) continue;
    const end = at + closer.length;
    output += text.slice(copied, match.index) + rewrite(text.slice(match.index, end));
    copied = end;
    SENSITIVE_OPENER.lastIndex = end;
  }
  return copied === 0 ? text : output + text.slice(copied);
}

// PCRE `\s`: tab, line feed, vertical tab, form feed, carriage return, space.
const isAsciiSpace = (code: number) => (code >= 9 && code <= 13) || code === 32;

/**
 * `(?<!<br />)\s*\n` → `<br />\n`: in each run of white space holding a line break, from its start (or one
 * character later when a `<br />` comes just before) to its last line break. As a pattern it is tried at every
 * position of the text, since it may begin with white space or not.
 */
export function breakBareNewlines(text: string): string {
  let output = '';
  let copied = 0;
  for (let newline = text.indexOf('\n'); newline !== -1; ) {
    let start = newline;
    while (start > copied && isAsciiSpace(text.charCodeAt(start - 1))) start--;
    let end = newline + 1;
    let last = newline;
    while (end < text.length && isAsciiSpace(text.charCodeAt(end))) {
      if (text.charCodeAt(end) === 10) last = end;
      end++;
    }
    if (start >= 6 && text.startsWith('<br />', start - 6)) start++;
    if (start <= last) {
      output += `${text.slice(copied, start)}<br />\n`;
      copied = last + 1;
    }
    newline = text.indexOf('\n', end);
  }
  return copied === 0 ? text : output + text.slice(copied);
}

const PARAGRAPH_BREAKS = /\n[\t\n\v\f\r ]*\n/g;
const BREAK_AT_START = /^\n[\t\n\v\f\r ]*\n/;
const TRAILING_SPACE = /[\t\n\v\f\r ]*$/;

/**
 * The pieces of the text between breaks (`\n\s*\n`), each but empty ones as `<p>…</p>\n` with line feeds
 * trimmed from its ends: one replace of the breaks, not an array of millions of pieces. A break takes the whole
 * run of white space up to its last line feed, so only the first piece can start with a line feed, only the
 * last can end with one, and only they can be empty (a break at the start or the end of the text).
 */
export function paragraphsBetweenBreaks(text: string): string {
  if (text === '') return '';
  const closeOpen = '</p>\n<p>';
  let body = text.replace(PARAGRAPH_BREAKS, closeOpen);
  if (body === text) return `<p>${trimLineFeeds(text)}</p>\n`;
  if (BREAK_AT_START.test(text)) body = body.slice(closeOpen.length);
  // The text ends with a break when its trailing white space holds two line feeds and ends with one.
  const trailing = TRAILING_SPACE.exec(text)![0];
  if (trailing.endsWith('\n') && trailing.indexOf('\n') !== trailing.length - 1) body = body.slice(0, -closeOpen.length);
  return body === '' ? '' : `<p>${trimLineFeeds(body)}</p>\n`;
}

function trimLineFeeds(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && text.charCodeAt(start) === 10) start++;
  while (end > start && text.charCodeAt(end - 1) === 10) end--;
  return start === 0 && end === text.length ? text : text.slice(start, end);
}
