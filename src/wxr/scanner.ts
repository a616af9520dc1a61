/**
 * Splits a WXR document, as it streams in, into the children of `<rss><channel>` (`<item>`, `<wp:author>`,
 * `<wp:category>`, `<title>`, ...), each as its own piece of XML with the line it starts on. Only one child is
 * held at a time, so memory follows the largest item, not the file. The scanner knows just enough XML to find
 * those boundaries (tags, quoted attribute values, comments, CDATA sections, processing instructions) and
 * checks the envelope: one `<rss>` root holding `<channel>`, tags closed in order, no document type
 * declaration (so no entity can be defined, let alone expanded), a depth limit. Each child is then parsed and
 * validated on its own by fast-xml-parser (xml-tree.ts).
 */
import { WxrError } from './errors.js';

export interface Fragment {
  /** The element's name as written (`item`, `wp:author`). */
  name: string;
  xml: string;
  /** The line of the file its start tag is on. */
  line: number;
}

export interface ScanLimits {
  /** Largest child of the channel (an item with its comments), in characters. */
  maxFragmentLength: number;
  /** Deepest element nesting, the root counting as 1. */
  maxDepth: number;
}

interface Open {
  name: string;
  line: number;
}

/** A construct whose end has not arrived yet: where to resume looking, and the quote a tag is inside. */
interface Pending {
  from: number;
  quote: string | null;
}

const TERMINATORS: readonly (readonly [opening: string, closing: string])[] = [['<!--', '-->'], ['<![CDATA[', ']]>'], ['<?', '?>']];
const BANG = 0x21;
const QUESTION = 0x3f;
const SLASH = 0x2f;
/** What ends a tag's name: white space, `/`, `>`. */
const NAME_END: ReadonlySet<number> = new Set([0x20, 0x09, 0x0a, 0x0d, SLASH, 0x3e]);

export class ChannelScanner {
  private buffer = '';
  private pos = 0;
  private line = 1;
  private readonly stack: Open[] = [];
  private fragment: { start: number; line: number; name: string } | null = null;
  private pending: Pending | null = null;
  private rootClosed = false;
  private started = false;

  constructor(private readonly limits: ScanLimits) {}

  /** Takes the next chunk of text and returns the children it completed. */
  push(chunk: string): Fragment[] {
    const keep = this.fragment ? this.fragment.start : this.pos;
    if (keep > 0) {
      this.buffer = this.buffer.slice(keep);
      this.pos -= keep;
      if (this.fragment) this.fragment.start -= keep;
      if (this.pending) this.pending.from -= keep;
    }
    if (!this.started) {
      this.started = true;
      if (chunk.startsWith('\uFEFF')) chunk = chunk.slice(1);
    }
    this.buffer += chunk;
    const found = this.scan(false);
    this.checkHeld();
    return found;
  }

  /** The input has ended: returns the last children, or fails when the document is not complete. */
  end(): Fragment[] {
    const found = this.scan(true);
    const open = this.stack[this.stack.length - 1];
    if (open) throw new WxrError('wxr_parse_error', `the file ends inside <${open.name}> (opened on line ${open.line})`, this.line);
    if (!this.rootClosed) throw new WxrError('wxr_parse_error', 'the file holds no <rss> element: not a WordPress export', this.line);
    return found;
  }

  private checkHeld(): void {
    const { maxFragmentLength } = this.limits;
    if (this.fragment && this.buffer.length - this.fragment.start > maxFragmentLength) {
      throw new WxrError('wxr_too_large', `<${this.fragment.name}> is longer than ${maxFragmentLength} characters`, this.fragment.line);
    }
    if (this.buffer.length - this.pos > maxFragmentLength) {
      throw new WxrError('wxr_too_large', `a piece of markup is longer than ${maxFragmentLength} characters`, this.line);
    }
  }

  private advance(to: number): void {
    for (let index = this.buffer.indexOf('\n', this.pos); index !== -1 && index < to; index = this.buffer.indexOf('\n', index + 1)) this.line++;
    this.pos = to;
  }

  private fail(message: string): never {
    throw new WxrError('wxr_parse_error', message, this.line);
  }

  private scan(final: boolean): Fragment[] {
    const found: Fragment[] = [];
    const { buffer } = this;
    while (this.pos < buffer.length) {
      const start = this.pos;
      if (buffer[start] !== '<') {
        const next = buffer.indexOf('<', start);
        const end = next === -1 ? buffer.length : next;
        if (this.stack.length === 0 && buffer.slice(start, end).trim() !== '') this.fail('text outside the root element');
        this.advance(end);
        continue;
      }
      const done = this.markup(start, final, found);
      if (!done) break;
    }
    if (final && this.pos < buffer.length) this.endedInside(buffer.slice(this.pos, this.pos + 9));
    return found;
  }

  private endedInside(start: string): never {
    const kind = start.startsWith('<!--') ? 'a comment' : start.startsWith('<![CDATA[') ? 'a CDATA section' : start.startsWith('<?') ? 'a processing instruction' : 'a tag';
    const open = this.stack[this.stack.length - 1];
    this.fail(`the file ends inside ${kind}${open ? ` in <${open.name}> (opened on line ${open.line})` : ''}`);
  }

  /** Handles the markup at `start`; false when its end has not arrived yet. */
  private markup(start: number, final: boolean, found: Fragment[]): boolean {
    const { buffer } = this;
    const second = buffer.charCodeAt(start + 1);
    if (Number.isNaN(second) && !final) return false;
    if (second === BANG || second === QUESTION) {
      const terminator = second === QUESTION ? TERMINATORS[2] : buffer.startsWith('<!--', start) ? TERMINATORS[0]
        : buffer.startsWith('<![CDATA[', start) ? TERMINATORS[1] : null;
      if (terminator) return this.terminated(start, terminator);
      if (buffer.length - start < 9 && !final) return false;
      if (/^<!doctype/i.test(buffer.slice(start, start + 9))) this.fail('document type declarations are not accepted');
      this.fail('unexpected markup "<!"');
    }
    const end = this.tagEnd(start);
    if (end === -1) return false;
    const closing = second === SLASH;
    const nameStart = start + (closing ? 2 : 1);
    let nameEnd = nameStart;
    while (nameEnd < end && !NAME_END.has(buffer.charCodeAt(nameEnd))) nameEnd++;
    if (nameEnd === nameStart) this.fail('a tag without a name');
    const name = buffer.slice(nameStart, nameEnd);
    if (closing) this.close(name, buffer.slice(nameStart, end), end, found);
    else this.open(name, start, end, buffer.charCodeAt(end - 1) === SLASH, found);
    return true;
  }

  /** A comment, CDATA section or processing instruction; false when its end has not arrived yet. */
  private terminated(start: number, [opening, closing]: readonly [string, string]): boolean {
    const { buffer } = this;
    if (opening === '<![CDATA[' && this.stack.length === 0) this.fail('a CDATA section outside the root element');
    const from = Math.max(start + opening.length, this.pending?.from ?? 0);
    const end = buffer.indexOf(closing, from);
    if (end === -1) {
      this.pending = { from: Math.max(from, buffer.length - closing.length + 1), quote: null };
      return false;
    }
    this.pending = null;
    if (opening === '<?') this.instruction(buffer.slice(start + 2, end));
    this.advance(end + closing.length);
    return true;
  }

  /** The index of the `>` ending the tag at `start` (quotes respected), or -1 when it has not arrived. */
  private tagEnd(start: number): number {
    const { buffer } = this;
    let quote = this.pending?.quote ?? null;
    let index = this.pending ? this.pending.from : start + 1;
    for (; index < buffer.length; index++) {
      const char = buffer[index];
      if (quote !== null) {
        if (char === quote) quote = null;
      } else if (char === '"' || char === "'") {
        quote = char;
      } else if (char === '>') {
        this.pending = null;
        return index;
      } else if (char === '<') {
        this.fail('"<" inside a tag');
      }
    }
    this.pending = { from: index, quote };
    return -1;
  }

  private instruction(text: string): void {
    if (!/^xml\s/.test(text)) return;
    if (this.stack.length > 0 || this.rootClosed) this.fail('an XML declaration after the start of the document');
    const encoding = /\sencoding\s*=\s*["']([^"']*)["']/.exec(text)?.[1];
    if (encoding !== undefined && !/^utf-?8$/i.test(encoding)) this.fail(`the file declares the encoding "${encoding}"; only UTF-8 is read`);
  }

  private open(name: string, start: number, end: number, selfClosing: boolean, found: Fragment[]): void {
    const depth = this.stack.length;
    if (depth === 0) {
      if (this.rootClosed) this.fail(`<${name}> after the end of the root element`);
      if (name !== 'rss') this.fail(`the root element is <${name}>, not <rss>: not a WordPress export`);
    }
    const isChild = depth === 2 && this.stack[1]!.name === 'channel';
    if (isChild) this.fragment = { start, line: this.line, name };
    this.advance(end + 1);
    if (selfClosing) {
      if (isChild) this.emit(found);
      if (depth === 0) this.rootClosed = true;
      return;
    }
    if (depth + 1 > this.limits.maxDepth) {
      throw new WxrError('wxr_too_large', `elements are nested deeper than ${this.limits.maxDepth} levels`, this.line);
    }
    this.stack.push({ name, line: this.line });
  }

  private close(name: string, body: string, end: number, found: Fragment[]): void {
    if (body.trim() !== name) this.fail(`a malformed closing tag </${body.trim()}>`);
    const open = this.stack[this.stack.length - 1];
    if (!open) this.fail(`</${name}> closes nothing`);
    if (open.name !== name) this.fail(`</${name}> does not close <${open.name}> (opened on line ${open.line})`);
    this.advance(end + 1);
    this.stack.pop();
    if (this.stack.length === 2 && this.fragment) this.emit(found);
    if (this.stack.length === 0) this.rootClosed = true;
  }

  private emit(found: Fragment[]): void {
    const fragment = this.fragment!;
    const { maxFragmentLength } = this.limits;
    if (this.pos - fragment.start > maxFragmentLength) {
      throw new WxrError('wxr_too_large', `<${fragment.name}> is longer than ${maxFragmentLength} characters`, fragment.line);
    }
    found.push({ name: fragment.name, xml: this.buffer.slice(fragment.start, this.pos), line: fragment.line });
    this.fragment = null;
  }
}
