/**
 * Decoding a large JSON body (up to the parsed-body limit, 8 MiB by default) without holding the event loop: one
 * scan, in turns, finds the large values (strings and containers of `GROUP_CHARS` or more); every large container is
 * then parsed group by group (runs of its members of about `GROUP_CHARS`, or one large member alone), every large
 * string slice by slice, each piece with `JSON.parse`, taking a turn of the loop whenever the work has held it for
 * `TURN_MS`. The value is the one `JSON.parse` gives for the whole text (made safe as `decodeJson` makes it), and
 * the errors are the same codes; a text whose shape the pieces cannot follow (nesting past the limit, a value
 * that is not one large container or string) goes the one-call way.
 */
import type { CmsError } from './errors.js';
import { CONTROL_ERROR, decodeJson, errorBeforeDepthLimit, hasLoneSurrogateEscape, MAX_JSON_DEPTH, SURROGATE_ERROR, SYNTAX_ERROR } from './json-body.js';
import { turnTaker } from './turn.js';
import { isUnsafeKey, toSafeTree } from './safe-object.js';

/** Bodies this long or longer are decoded in pieces. */
export const LARGE_BODY_CHARS = 256 * 1024;
/** About the longest text parsed at once: a few milliseconds of `JSON.parse`. */
const GROUP_CHARS = 64 * 1024;

/** A run of a large container's members, from `start` to `end` (the separators or brackets around it). */
interface Group { start: number; end: number; child: number }
/** A large value: its end, and for a container its groups (`child` is the start of a group's one large member, or -1). */
interface Large { end: number; groups: Group[] | null }
interface Frame { open: number; closer: number; groupStart: number; lastSeparator: number; child: number; groups: Group[] }

type Decoded = { ok: true; value: unknown } | { ok: false; error: CmsError };

class Malformed extends Error {
  constructor(readonly error: CmsError) {
    super(error.message);
  }
}

const isSpace = (code: number) => code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09;

/**
 * A text held as the consecutive strings it was decoded into, read without joining them: a string made by
 * appending slices is flattened into one copy by the first read of a character, which for a 16 MiB body held
 * the event loop for tens of milliseconds in one go. Reads here copy only the characters they ask for.
 */
class PiecedText {
  readonly length: number;
  /** Where each piece starts in the whole text. */
  private readonly starts: number[] = [];

  constructor(readonly pieces: readonly string[]) {
    let length = 0;
    for (const piece of pieces) {
      this.starts.push(length);
      length += piece.length;
    }
    this.length = length;
  }

  charCodeAt(index: number): number {
    const at = this.#pieceAt(index);
    return this.pieces[at]!.charCodeAt(index - this.starts[at]!);
  }

  slice(start: number, end: number): string {
    if (end <= start) return '';
    let at = this.#pieceAt(start);
    let text = '';
    for (let from = start; from < end; at += 1) {
      const pieceStart = this.starts[at]!;
      const piece = this.pieces[at]!;
      text += piece.slice(from - pieceStart, Math.min(piece.length, end - pieceStart));
      from = pieceStart + piece.length;
    }
    return text;
  }

  /** The index of the piece holding `index` (the last piece when `index` is past the end). */
  #pieceAt(index: number): number {
    let low = 0;
    let high = this.starts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (this.starts[middle]! <= index) low = middle;
      else high = middle - 1;
    }
    return low;
  }
}

/**
 * `decodeJson`, in turns for a large text, given whole or as the consecutive strings it was decoded into (read
 * as they are, never joined).
 */
export async function decodeJsonInTurns(source: string | readonly string[]): Promise<Decoded> {
  const pieces = typeof source === 'string' ? [source] : source;
  const text = new PiecedText(pieces);
  if (text.length < LARGE_BODY_CHARS) return decodeJson(pieces.join(''));
  const turn = turnTaker();
  const scanned = await scan(text, turn);
  if (scanned === null) return decodeJson(pieces.join(''));
  if (typeof scanned === 'number') return { ok: false, error: errorBeforeDepthLimit(text.slice(0, scanned)) };
  let start = 0;
  let end = text.length;
  while (start < end && isSpace(text.charCodeAt(start))) start += 1;
  while (end > start && isSpace(text.charCodeAt(end - 1))) end -= 1;
  if (scanned.get(start)?.end !== end) return decodeJson(pieces.join(''));
  const reader = new Reader(text, scanned, turn);
  try {
    const value = await reader.value(start);
    if (reader.loneSurrogate) return { ok: false, error: SURROGATE_ERROR() };
    return { ok: true, value };
  } catch (error) {
    if (error instanceof Malformed) return { ok: false, error: error.error };
    throw error;
  }
}

/**
 * The large values by their start; the position just past the bracket that opens level `MAX_JSON_DEPTH` (as
 * `decodeJson` counts); or null when the brackets do not pair up (the one-call way then finds the error).
 */
async function scan(text: PiecedText, turn: () => Promise<void>): Promise<Map<number, Large> | number | null> {
  const scanner = new Scanner();
  let base = 0;
  for (const piece of text.pieces) {
    for (let from = 0; from < piece.length; from += SCAN_SLICE_CHARS) {
      const found = scanner.scan(piece, base, from, Math.min(piece.length, from + SCAN_SLICE_CHARS));
      if (found !== undefined) return found;
      await turn();
    }
    base += piece.length;
  }
  return scanner.stack.length === 0 && scanner.stringStart === -1 ? scanner.large : null;
}

/** The characters scanned between two checks of the turn. */
const SCAN_SLICE_CHARS = 0x10000;

/** The state of `scan` between slices. */
class Scanner {
  readonly large = new Map<number, Large>();
  readonly stack: Frame[] = [];
  depth = 0;
  stringStart = -1;
  /** The last character scanned was a backslash in a string: the next one is escaped. */
  private escaped = false;

  /**
   * Scans `piece` from `from` to `end` (`base` is where the piece starts in the whole text); answers what `scan`
   * answers when the text decides it early.
   */
  scan(piece: string, base: number, from: number, end: number): number | null | undefined {
    const stack = this.stack;
    let escaped = this.escaped;
    for (let local = from; local < end; local += 1) {
      const code = piece.charCodeAt(local);
      const index = base + local;
      if (this.stringStart !== -1) {
        if (escaped) escaped = false;
        else if (code === 0x5c) escaped = true;
        else if (code === 0x22) {
          if (index + 1 - this.stringStart >= GROUP_CHARS) this.#largeChild(this.stringStart, index + 1, null);
          this.stringStart = -1;
        }
      } else if (code === 0x22) this.stringStart = index;
      else if (code === 0x5b || code === 0x7b) {
        if (++this.depth >= MAX_JSON_DEPTH) return index + 1;
        stack.push({ open: index, closer: code + 2, groupStart: index + 1, lastSeparator: -1, child: -1, groups: [] });
      } else if (code === 0x2c) {
        const frame = stack[stack.length - 1];
        if (!frame) return null;
        if (frame.child !== -1 || index - frame.groupStart >= GROUP_CHARS) {
          frame.groups.push({ start: frame.groupStart, end: index, child: frame.child });
          frame.groupStart = index + 1;
          frame.child = -1;
        }
        frame.lastSeparator = index;
      } else if (code === 0x5d || code === 0x7d) {
        this.depth -= 1;
        const frame = stack.pop();
        if (!frame || frame.closer !== code) return null;
        if (index + 1 - frame.open >= GROUP_CHARS) {
          frame.groups.push({ start: frame.groupStart, end: index, child: frame.child });
          this.#largeChild(frame.open, index + 1, frame.groups);
        }
      }
    }
    this.escaped = escaped;
    return undefined;
  }

  #largeChild(childStart: number, end: number, groups: Group[] | null): void {
    this.large.set(childStart, { end, groups });
    const parent = this.stack[this.stack.length - 1];
    if (!parent) return;
    // The large member gets a group of its own: the members before it close theirs.
    if (parent.lastSeparator >= parent.groupStart) {
      parent.groups.push({ start: parent.groupStart, end: parent.lastSeparator, child: -1 });
      parent.groupStart = parent.lastSeparator + 1;
    }
    parent.child = childStart;
  }
}

class Reader {
  loneSurrogate = false;

  constructor(readonly text: PiecedText, readonly large: Map<number, Large>, readonly turn: () => Promise<void>) {}

  /** The large value starting at `start`. */
  async value(start: number): Promise<unknown> {
    const found = this.large.get(start)!;
    if (!found.groups) return this.string(start + 1, found.end - 1);
    const isArray = this.text.charCodeAt(start) === 0x5b;
    const target: unknown[] | Record<string, unknown> = isArray ? [] : Object.create(null) as Record<string, unknown>;
    for (const group of found.groups) {
      if (group.child === -1) this.#small(group, isArray, target);
      else await this.#largeMember(group, isArray, target);
      await this.turn();
    }
    return target;
  }

  /** A run of small members, parsed at once inside the container's brackets. */
  #small(group: Group, isArray: boolean, target: unknown[] | Record<string, unknown>): void {
    const inner = this.text.slice(group.start, group.end);
    // An empty run is a stray comma (`[1,,2]`, `[1,]`), which the brackets alone would hide.
    if (inner.trim() === '') throw new Malformed(SYNTAX_ERROR());
    const parsed = this.#parse(isArray ? `[${inner}]` : `{${inner}}`);
    if (isArray) for (const element of parsed as unknown[]) (target as unknown[]).push(element);
    else for (const key of Object.keys(parsed as object)) (target as Record<string, unknown>)[key] = (parsed as Record<string, unknown>)[key];
  }

  /**
   * A group of one large member: for an object, its key is parsed from the text before the value (or the large
   * string is the key itself, and the value after it is small).
   */
  async #largeMember(group: Group, isArray: boolean, target: unknown[] | Record<string, unknown>): Promise<void> {
    const childEnd = this.large.get(group.child)!.end;
    const after = this.text.slice(childEnd, group.end).trim();
    if (!isArray && after.startsWith(':') && this.text.slice(group.start, group.child).trim() === '') {
      const key = await this.string(group.child + 1, childEnd - 1);
      const [value] = Object.values(this.#parse(`{"":${after.slice(1)}}`) as object) as unknown[];
      if (value === undefined) throw new Malformed(SYNTAX_ERROR());
      if (!isUnsafeKey(key)) (target as Record<string, unknown>)[key] = value;
      return;
    }
    if (after !== '') throw new Malformed(SYNTAX_ERROR());
    const before = this.text.slice(group.start, group.child);
    if (isArray) {
      if (before.trim() !== '') throw new Malformed(SYNTAX_ERROR());
      (target as unknown[]).push(await this.value(group.child));
      return;
    }
    const [key] = Object.keys(this.#parse(`{${before}null}`) as object);
    if (key === undefined) throw new Malformed(SYNTAX_ERROR());
    const value = await this.value(group.child);
    if (!isUnsafeKey(key)) (target as Record<string, unknown>)[key] = value;
  }

  /** The text between a large string's quotes, decoded slice by slice. */
  async string(start: number, end: number): Promise<string> {
    let decoded = '';
    let from = start;
    while (from < end) {
      const to = end - from <= GROUP_CHARS ? end : this.#cut(from + GROUP_CHARS);
      decoded += this.#parse(`"${this.text.slice(from, to)}"`) as string;
      from = to;
      await this.turn();
    }
    return decoded;
  }

  /** A place at or before `at` that splits no escape and no escaped surrogate pair. */
  #cut(at: number): number {
    const text = this.text;
    const escapes = (position: number) => {
      let count = 0;
      while (text.charCodeAt(position - 1 - count) === 0x5c) count += 1;
      return count % 2 === 1;
    };
    let cut = at;
    for (let back = 1; back <= 5; back += 1) {
      if (text.charCodeAt(cut - back) === 0x75 && escapes(cut - back)) {
        cut -= back + 1;
        break;
      }
    }
    if (escapes(cut)) cut -= 1;
    if (/^\\u[dD][89abAB][0-9a-fA-F]{2}$/.test(text.slice(cut - 6, cut)) && escapes(cut - 5)) cut -= 6;
    return cut;
  }

  #parse(piece: string): unknown {
    let value: unknown;
    try {
      value = JSON.parse(piece);
    } catch (error) {
      throw new Malformed(/control character/i.test((error as Error).message) ? CONTROL_ERROR() : SYNTAX_ERROR());
    }
    if (!this.loneSurrogate && hasLoneSurrogateEscape(piece)) this.loneSurrogate = true;
    return toSafeTree(value);
  }
}
