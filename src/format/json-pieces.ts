/**
 * Parsing a large JSON text without holding the event loop: one scan, in turns, finds the large values (strings
 * and containers of `GROUP_CHARS` or more); every large container is then parsed group by group (runs of its
 * members of about `GROUP_CHARS`, or one large member alone), every large string slice by slice, each piece with
 * `JSON.parse`, taking a turn of the loop between pieces. What a piece becomes (a plain value, or one made safe
 * for client input) and the containers the members go into are the caller's rules; `parseJsonInTurns` gives what
 * `JSON.parse` gives for the whole text.
 */

/** About the longest text parsed at once: a few milliseconds of `JSON.parse`. */
const GROUP_CHARS = 64 * 1024;

/** A run of a large container's members, from `start` to `end` (the separators or brackets around it). */
interface Group { start: number; end: number; child: number }
/** A large value: its end, and for a container its groups (`child` is the start of a group's one large member, or -1). */
export interface LargeValue { end: number; groups: Group[] | null }
interface Frame { open: number; closer: number; groupStart: number; lastSeparator: number; child: number; groups: Group[] }

/** A text the pieces cannot make a value of; `control`: a raw control character in a string. */
export class MalformedJson extends Error {
  constructor(readonly control = false) {
    super(control ? 'Control character in a JSON string.' : 'JSON syntax error.');
  }
}

/** What a reader makes of the text: each piece parsed, the containers and how members go in. */
export interface PieceRules {
  /** One piece's value (`JSON.parse` and what the caller makes of it); throws `MalformedJson` when it is not JSON. */
  parse(piece: string): unknown;
  container(isArray: boolean): unknown[] | Record<string, unknown>;
  setMember(target: Record<string, unknown>, key: string, value: unknown): void;
}

export const isSpace = (code: number) => code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09;

/**
 * A text held as the consecutive strings it was decoded into, read without joining them: a string made by
 * appending slices is flattened into one copy by the first read of a character, which for a 16 MiB body held
 * the event loop for tens of milliseconds in one go. Reads here copy only the characters they ask for.
 */
export class PiecedText {
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
 * The large values by their start; the position just past the bracket that opens level `maxDepth` (as
 * `decodeJson` counts); or null when the brackets do not pair up (the one-call way then finds the error).
 */
export async function scanLarge(text: PiecedText, turn: () => Promise<void>, maxDepth: number): Promise<Map<number, LargeValue> | number | null> {
  const scanner = new Scanner(maxDepth);
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
  readonly large = new Map<number, LargeValue>();
  readonly stack: Frame[] = [];
  depth = 0;
  stringStart = -1;
  /** The last character scanned was a backslash in a string: the next one is escaped. */
  private escaped = false;

  constructor(private readonly maxDepth: number) {}

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
        if (++this.depth >= this.maxDepth) return index + 1;
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

/** Reads the large values `scanLarge` found, piece by piece, by the caller's rules. */
export class PiecedReader {
  constructor(
    readonly text: PiecedText, readonly large: Map<number, LargeValue>, readonly turn: () => Promise<void>, readonly rules: PieceRules,
  ) {}

  /** The large value starting at `start`. */
  async value(start: number): Promise<unknown> {
    const found = this.large.get(start)!;
    if (!found.groups) return this.string(start + 1, found.end - 1);
    const isArray = this.text.charCodeAt(start) === 0x5b;
    const target = this.rules.container(isArray);
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
    if (inner.trim() === '') throw new MalformedJson();
    const parsed = this.#parse(isArray ? `[${inner}]` : `{${inner}}`);
    if (isArray) for (const element of parsed as unknown[]) (target as unknown[]).push(element);
    else for (const key of Object.keys(parsed as object)) this.rules.setMember(target as Record<string, unknown>, key, (parsed as Record<string, unknown>)[key]);
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
      if (value === undefined) throw new MalformedJson();
      this.rules.setMember(target as Record<string, unknown>, key, value);
      return;
    }
    if (after !== '') throw new MalformedJson();
    const before = this.text.slice(group.start, group.child);
    if (isArray) {
      if (before.trim() !== '') throw new MalformedJson();
      (target as unknown[]).push(await this.value(group.child));
      return;
    }
    const [key] = Object.keys(this.#parse(`{${before}null}`) as object);
    if (key === undefined) throw new MalformedJson();
    const value = await this.value(group.child);
    this.rules.setMember(target as Record<string, unknown>, key, value);
  }

  /** The text between a large string's quotes, decoded slice by slice. */
  async string(start: number, end: number): Promise<string> {
    let decoded = '';
    let from = start;
    while (from < end) {
      const to = end - from <= GROUP_CHARS ? end : this.#cut(from + GROUP_CHARS, from);
      decoded += this.#parse(`"${this.text.slice(from, to)}"`) as string;
      from = to;
      await this.turn();
    }
    return decoded;
  }

  /**
   * A place at or before `at` that splits no escape and no escaped surrogate pair. `from` splits none either, so
   * backslashes are counted back to it, not through a run of them from the string's start (quadratic).
   */
  #cut(at: number, from: number): number {
    const text = this.text;
    const escapes = (position: number) => {
      let count = 0;
      while (position - 1 - count >= from && text.charCodeAt(position - 1 - count) === 0x5c) count += 1;
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
    return this.rules.parse(piece);
  }
}

/** Assigns without triggering the `__proto__` setter, as `JSON.parse` makes members. */
function plainMember(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

const PLAIN_RULES: PieceRules = {
  parse(piece) {
    try {
      return JSON.parse(piece);
    } catch (error) {
      throw new MalformedJson(/control character/i.test((error as Error).message));
    }
  },
  container: (isArray) => (isArray ? [] : {}),
  setMember: plainMember,
};

/** Nesting deeper than this is parsed in one call. */
const MAX_PIECED_DEPTH = 512;

/**
 * `JSON.parse` of the text the pieces make, in turns when it is long (plain objects, a `__proto__` member an
 * ordinary one); a text whose shape the pieces cannot follow is parsed in one call. Throws what `JSON.parse`
 * throws for text that is not JSON.
 */
export async function parseJsonInTurns(pieces: readonly string[], turn: () => Promise<void>): Promise<unknown> {
  const text = new PiecedText(pieces);
  if (text.length < 4 * GROUP_CHARS) return JSON.parse(pieces.join(''));
  const scanned = await scanLarge(text, turn, MAX_PIECED_DEPTH);
  let start = 0;
  let end = text.length;
  while (start < end && isSpace(text.charCodeAt(start))) start += 1;
  while (end > start && isSpace(text.charCodeAt(end - 1))) end -= 1;
  if (scanned === null || typeof scanned === 'number' || scanned.get(start)?.end !== end) return JSON.parse(pieces.join(''));
  try {
    return await new PiecedReader(text, scanned, turn, PLAIN_RULES).value(start);
  } catch (error) {
    if (error instanceof MalformedJson) return JSON.parse(pieces.join(''));
    throw error;
  }
}
