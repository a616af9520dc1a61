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

/** `decodeJson`, in turns for a large text. */
export async function decodeJsonInTurns(text: string): Promise<Decoded> {
  if (text.length < LARGE_BODY_CHARS) return decodeJson(text);
  const turn = turnTaker();
  const scanned = await scan(text, turn);
  if (scanned === null) return decodeJson(text);
  if (typeof scanned === 'number') return { ok: false, error: errorBeforeDepthLimit(text.slice(0, scanned)) };
  let start = 0;
  let end = text.length;
  while (start < end && isSpace(text.charCodeAt(start))) start += 1;
  while (end > start && isSpace(text.charCodeAt(end - 1))) end -= 1;
  if (scanned.get(start)?.end !== end) return decodeJson(text);
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
async function scan(text: string, turn: () => Promise<void>): Promise<Map<number, Large> | number | null> {
  const large = new Map<number, Large>();
  const stack: Frame[] = [];
  let depth = 0;
  let stringStart = -1;
  const largeChild = (childStart: number, end: number, groups: Group[] | null) => {
    large.set(childStart, { end, groups });
    const parent = stack[stack.length - 1];
    if (!parent) return;
    // The large member gets a group of its own: the members before it close theirs.
    if (parent.lastSeparator >= parent.groupStart) {
      parent.groups.push({ start: parent.groupStart, end: parent.lastSeparator, child: -1 });
      parent.groupStart = parent.lastSeparator + 1;
    }
    parent.child = childStart;
  };
  for (let index = 0; index < text.length; index += 1) {
    // Checked often enough for the first slices, which run before the loop is compiled and are several times slower.
    if ((index & 0xffff) === 0) await turn();
    const code = text.charCodeAt(index);
    if (stringStart !== -1) {
      if (code === 0x5c) index += 1;
      else if (code === 0x22) {
        if (index + 1 - stringStart >= GROUP_CHARS) largeChild(stringStart, index + 1, null);
        stringStart = -1;
      }
    } else if (code === 0x22) stringStart = index;
    else if (code === 0x5b || code === 0x7b) {
      if (++depth >= MAX_JSON_DEPTH) return index + 1;
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
      depth -= 1;
      const frame = stack.pop();
      if (!frame || frame.closer !== code) return null;
      if (index + 1 - frame.open >= GROUP_CHARS) {
        frame.groups.push({ start: frame.groupStart, end: index, child: frame.child });
        largeChild(frame.open, index + 1, frame.groups);
      }
    }
  }
  return stack.length === 0 && stringStart === -1 ? large : null;
}

class Reader {
  loneSurrogate = false;

  constructor(readonly text: string, readonly large: Map<number, Large>, readonly turn: () => Promise<void>) {}

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
