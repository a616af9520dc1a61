/**
 * The block grammar: `<!-- wp:name {json} -->…<!-- /wp:name -->` and void `<!-- wp:name /-->` comments
 * delimit blocks; text between top-level blocks becomes freeform blocks (name `null`). The tolerant recovery
 * rules (unclosed blocks, stray closers) follow the reference parser so the same content yields the same tree.
 */

export interface ParsedBlock {
  blockName: string | null;
  attrs: Record<string, unknown> | null;
  innerBlocks: ParsedBlock[];
  innerHTML: string;
  /** Strings of HTML, with `null` wherever the next inner block goes. */
  innerContent: Array<string | null>;
}

const SPACE = '[\\t\\n\\v\\f\\r ]';
// The attribute object is consumed atomically (lookahead + backreference) so a malformed comment cannot cause
// runaway backtracking.
const DELIMITER = new RegExp(
  `<!--${SPACE}+(\\/)?wp:([a-z][a-z0-9_-]*\\/)?([a-z][a-z0-9_-]*)${SPACE}+` +
    `(\\{(?:(?=((?:[^}]+|\\}+(?=\\})|(?!\\}${SPACE}+\\/?-->)[\\s\\S])*))\\5)?\\}${SPACE}+)?(\\/)?-->`,
  'g',
);

type Token =
  | { kind: 'end' }
  | { kind: 'void' | 'opener' | 'closer'; name: string; attrs: Record<string, unknown> | null; start: number; length: number };

interface Frame {
  block: ParsedBlock;
  tokenStart: number;
  tokenLength: number;
  previousOffset: number;
  leadingHtmlStart: number | null;
}

function newBlock(name: string | null, attrs: Record<string, unknown> | null): ParsedBlock {
  return { blockName: name, attrs, innerBlocks: [], innerHTML: '', innerContent: [] };
}

function freeform(html: string): ParsedBlock {
  return { blockName: null, attrs: {}, innerBlocks: [], innerHTML: html, innerContent: [html] };
}

// PHP's empty(): the string "0" counts as empty too.
function isEmptyHtml(html: string): boolean {
  return html === '' || html === '0';
}

function parseAttributes(json: string | undefined): Record<string, unknown> | null {
  if (json === undefined) return {};
  try {
    const value: unknown = JSON.parse(json);
    return value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

export function parseBlocks(document: string): ParsedBlock[] {
  const output: ParsedBlock[] = [];
  const stack: Frame[] = [];
  let offset = 0;

  const nextToken = (): Token => {
    DELIMITER.lastIndex = offset;
    const match = DELIMITER.exec(document);
    if (!match) return { kind: 'end' };
    const name = (match[2] ?? 'core/') + (match[3] ?? '');
    const start = match.index;
    const length = match[0].length;
    if (match[6] !== undefined) return { kind: 'void', name, attrs: parseAttributes(match[4]), start, length };
    if (match[1] !== undefined) return { kind: 'closer', name, attrs: null, start, length };
    return { kind: 'opener', name, attrs: parseAttributes(match[4]), start, length };
  };

  const addFreeform = () => {
    if (document.length - offset > 0) output.push(freeform(document.slice(offset)));
  };

  const addInnerBlock = (block: ParsedBlock, tokenStart: number, tokenLength: number, lastOffset?: number) => {
    const parent = stack[stack.length - 1];
    if (!parent) return;
    parent.block.innerBlocks.push(block);
    const html = document.slice(parent.previousOffset, tokenStart);
    if (!isEmptyHtml(html)) {
      parent.block.innerHTML += html;
      parent.block.innerContent.push(html);
    }
    parent.block.innerContent.push(null);
    parent.previousOffset = lastOffset ?? tokenStart + tokenLength;
  };

  const addBlockFromStack = (endOffset?: number) => {
    const top = stack.pop();
    if (!top) return;
    const html = endOffset === undefined ? document.slice(top.previousOffset) : document.slice(top.previousOffset, endOffset);
    if (!isEmptyHtml(html)) {
      top.block.innerHTML += html;
      top.block.innerContent.push(html);
    }
    if (top.leadingHtmlStart !== null) {
      output.push(freeform(document.slice(top.leadingHtmlStart, top.tokenStart)));
    }
    output.push(top.block);
  };

  for (;;) {
    const token = nextToken();
    const depth = stack.length;

    if (token.kind === 'end') {
      if (depth === 0) {
        addFreeform();
      } else {
        // Unclosed blocks are closed implicitly at the end of the document.
        while (stack.length > 0) addBlockFromStack();
      }
      return output;
    }

    const leadingHtmlStart = token.start > offset ? offset : null;

    if (token.kind === 'void') {
      const block = newBlock(token.name, token.attrs);
      if (depth === 0) {
        if (leadingHtmlStart !== null) output.push(freeform(document.slice(leadingHtmlStart, token.start)));
        output.push(block);
      } else {
        addInnerBlock(block, token.start, token.length);
      }
      offset = token.start + token.length;
      continue;
    }

    if (token.kind === 'opener') {
      stack.push({
        block: newBlock(token.name, token.attrs),
        tokenStart: token.start,
        tokenLength: token.length,
        previousOffset: token.start + token.length,
        leadingHtmlStart,
      });
      offset = token.start + token.length;
      continue;
    }

    // A closer without an open block: everything from here on is freeform.
    if (depth === 0) {
      addFreeform();
      return output;
    }
    if (depth === 1) {
      addBlockFromStack(token.start);
      offset = token.start + token.length;
      continue;
    }
    const top = stack.pop() as Frame;
    const html = document.slice(top.previousOffset, token.start);
    top.block.innerHTML += html;
    top.block.innerContent.push(html);
    top.previousOffset = token.start + token.length;
    addInnerBlock(top.block, top.tokenStart, top.tokenLength, token.start + token.length);
    offset = token.start + token.length;
  }
}
