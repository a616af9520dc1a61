/**
 * A bound on how deeply elements nest before HTML reaches the sanitiser. The parser inside sanitize-html keeps
 * its open elements in an array it grows at the front, so each start tag costs as much as the current depth:
 * 200,000 unclosed `<b>` (600 KB) blocked the event loop for 40 s. Start tags that would open an element deeper
 * than the limit are removed (their text stays), which leaves any document that nests less untouched. Browsers
 * cap their element depth at 512; content of the reference nests a few dozen levels at most.
 */
import { htmlparser2 } from '../lazy-modules.js';

export const MAX_NESTING_DEPTH = 256;

// The parser's own tables (htmlparser2 10): what a start tag closes implicitly, what never has content, and
// where a self-closing tag really closes (inside svg and math, but not inside their HTML integration points).
const P = ['p'];
const FORM = ['input', 'option', 'optgroup', 'select', 'button', 'datalist', 'textarea'];
const IMPLIES_CLOSE = new Map<string, ReadonlySet<string>>(([
  ['tr', ['tr', 'th', 'td']], ['th', ['th']], ['td', ['thead', 'th', 'td']], ['body', ['head', 'link', 'script']],
  ['li', ['li']], ['option', ['option']], ['optgroup', ['optgroup', 'option']], ['dd', ['dd', 'dt']], ['dt', ['dd', 'dt']],
  ['rt', ['rt', 'rp']], ['rp', ['rt', 'rp']], ['tbody', ['thead', 'tbody']], ['tfoot', ['thead', 'tbody']],
  ...['select', 'input', 'output', 'button', 'datalist', 'textarea'].map((tag) => [tag, FORM]),
  ...['p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'address', 'article', 'aside', 'blockquote', 'details', 'div', 'dl',
    'fieldset', 'figcaption', 'figure', 'footer', 'form', 'header', 'hr', 'main', 'nav', 'ol', 'pre', 'section',
    'table', 'ul'].map((tag) => [tag, P]),
] as [string, string[]][]).map(([tag, closes]) => [tag, new Set(closes)]));
const VOID = new Set(['area', 'base', 'basefont', 'br', 'col', 'command', 'embed', 'frame', 'hr', 'img', 'input',
  'isindex', 'keygen', 'link', 'meta', 'param', 'source', 'track', 'wbr']);
const FOREIGN = new Set(['math', 'svg']);
const INTEGRATION = new Set(['mi', 'mo', 'mn', 'ms', 'mtext', 'annotation-xml', 'foreignobject', 'desc', 'title']);
/** Elements whose content the tokeniser reads as text: removing their start tag would change what follows. */
const RAW_TEXT = new Set(['script', 'style', 'title', 'textarea', 'xmp']);

/**
 * The HTML with every start tag removed that would open an element more than `maxDepth` levels deep, as the
 * sanitiser's parser would nest it. Linear in the length of the HTML.
 */
export function limitNesting(html: string, maxDepth = MAX_NESTING_DEPTH): string {
  if (countOf(html, '<') <= maxDepth) return html;
  const open: string[] = [];
  const openCount = new Map<string, number>();
  const foreign: boolean[] = [];
  const cuts: [number, number][] = [];
  let tag: { name: string; start: number; dropped: boolean } | null = null;

  const push = (name: string) => {
    open.push(name);
    openCount.set(name, (openCount.get(name) ?? 0) + 1);
  };
  const pop = () => {
    const name = open.pop()!;
    openCount.set(name, openCount.get(name)! - 1);
    return name;
  };
  const nameAt = (start: number, end: number) => html.slice(start, end).toLowerCase();
  const noop = () => {};

  const tokenizer = new (htmlparser2().Tokenizer)({ decodeEntities: false }, {
    onopentagname(start, end) {
      const name = nameAt(start, end);
      const dropped = open.length >= maxDepth && !VOID.has(name) && !RAW_TEXT.has(name);
      tag = { name, start: start - 1, dropped };
      if (dropped) return;
      const closes = IMPLIES_CLOSE.get(name);
      if (closes) while (open.length > 0 && closes.has(open[open.length - 1]!)) pop();
      if (VOID.has(name)) return;
      push(name);
      if (FOREIGN.has(name)) foreign.push(true);
      else if (INTEGRATION.has(name)) foreign.push(false);
    },
    onopentagend(end) {
      if (tag?.dropped) cuts.push([tag.start, end + 1]);
      tag = null;
    },
    onselfclosingtag(end) {
      if (tag?.dropped) cuts.push([tag.start, end + 1]);
      else if (tag && foreign[foreign.length - 1] && open[open.length - 1] === tag.name) pop();
      tag = null;
    },
    onclosetag(start, end) {
      const name = nameAt(start, end);
      if (FOREIGN.has(name) || INTEGRATION.has(name)) foreign.pop();
      if (VOID.has(name) || !openCount.get(name)) return;
      while (pop() !== name);
    },
    onattribdata: noop, onattribentity: noop, onattribend: noop, onattribname: noop, oncdata: noop, oncomment: noop,
    ondeclaration: noop, onend: noop, onprocessinginstruction: noop, ontext: noop, ontextentity: noop,
  });
  tokenizer.write(html);
  tokenizer.end();
  if (cuts.length === 0) return html;

  const kept: string[] = [];
  let from = 0;
  for (const [start, end] of cuts) {
    kept.push(html.slice(from, start));
    from = end;
  }
  kept.push(html.slice(from));
  return kept.join('');
}

function countOf(text: string, character: string): number {
  let count = 0;
  for (let at = text.indexOf(character); at !== -1; at = text.indexOf(character, at + 1)) count++;
  return count;
}
