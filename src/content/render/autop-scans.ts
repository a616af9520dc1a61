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
