/**
 * `_pretty` and `_jsonp` on a large answer (a post of several mebibytes), in turns of the event loop. Both are the
 * compact JSON text changed only outside its strings: JSONP wraps it, and pretty printing is `JSON.stringify(value,
 * null, 4)`, which differs from the compact text only by the white space it puts after `[`, `{`, `,` and `:` and
 * before `]` and `}`. So the compact bytes (already held, or encoded in turns) are wrapped or re-indented slice by
 * slice; structural characters are ASCII, which never occurs inside a multi-byte UTF-8 sequence.
 */
import { EncodedJson } from './encode.js';
import { knowBuiltBytes } from './cache/conditional.js';
import { encodeLargeJson, entityTagInTurns, isLargeJson, joinedInTurns, LARGE_JSON_CHARS } from './large-json.js';
import { turnTaker } from '../format/turn.js';
import type { ParamMap } from './types.js';

const SLICE_BYTES = 128 * 1024;
const INDENT = 4;
const encoder = new TextEncoder();

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const NEWLINE = 0x0a;
const SPACE = 0x20;
const isOpener = (byte: number) => byte === 0x5b || byte === 0x7b;
const isCloser = (byte: number) => byte === 0x5d || byte === 0x7d;

/**
 * The body `formatBody` would make for `_pretty` or `_jsonp`, as bytes built in turns, when `body` is large; `null`
 * otherwise (no switch, or a body small enough for one call).
 */
export async function formattedLargeBody(body: unknown, query: ParamMap): Promise<Uint8Array | null> {
  const jsonp = typeof query._jsonp === 'string' ? query._jsonp : null;
  const pretty = jsonp === null && '_pretty' in query && body !== null && body !== undefined;
  if (jsonp === null && !pretty) return null;
  const compact = await compactBytes(body);
  if (compact === null) return null;
  const turn = turnTaker();
  const formatted = jsonp !== null ? await joinedInTurns([encoder.encode(`/**/${jsonp}(`), compact, encoder.encode(')')], turn) : await reindented(compact, SLICE_BYTES);
  // Kept answers are tagged: the tag is worked out here, in turns, not by whoever keeps them in one call.
  knowBuiltBytes(formatted, await entityTagInTurns(formatted));
  return formatted;
}

async function compactBytes(body: unknown): Promise<Uint8Array | null> {
  if (body instanceof EncodedJson) return body.bytes.byteLength >= LARGE_JSON_CHARS ? body.bytes : null;
  if (!isLargeJson(body)) return null;
  return (await encodeLargeJson(body))?.bytes ?? null;
}

/** Compact JSON bytes laid out as `JSON.stringify(value, null, 4)` lays them out, `sliceBytes` at a time. */
export async function reindented(compact: Uint8Array, sliceBytes: number): Promise<Uint8Array> {
  const turn = turnTaker();
  const out = new ByteSink();
  let depth = 0;
  let inString = false;
  // An opener waits for the next byte: an empty container stays as it is.
  let openerPending = false;
  let start = 0;
  while (start < compact.byteLength) {
    const end = Math.min(compact.byteLength, start + sliceBytes);
    let copyFrom = start;
    // Searches for a string's end stop at the slice's.
    const upToEnd = compact.subarray(0, end);
    for (let index = start; index < end; index += 1) {
      const byte = compact[index]!;
      if (inString) {
        const quote = closingQuote(upToEnd, index);
        // A string running past the slice goes on in the next one.
        if (quote === -1) break;
        inString = false;
        index = quote;
        continue;
      }
      if (openerPending) {
        openerPending = false;
        // `[]` and `{}`: the closer is copied as it is.
        if (isCloser(byte)) {
          depth -= 1;
          continue;
        }
        out.lineBreak(depth);
      }
      if (byte === QUOTE) {
        inString = true;
      } else if (isOpener(byte)) {
        out.bytes(compact, copyFrom, index + 1);
        copyFrom = index + 1;
        depth += 1;
        openerPending = true;
      } else if (isCloser(byte)) {
        out.bytes(compact, copyFrom, index);
        copyFrom = index;
        depth -= 1;
        out.lineBreak(depth);
      } else if (byte === COMMA) {
        out.bytes(compact, copyFrom, index + 1);
        copyFrom = index + 1;
        out.lineBreak(depth);
      } else if (byte === COLON) {
        out.bytes(compact, copyFrom, index + 1);
        copyFrom = index + 1;
        out.byte(SPACE);
      }
    }
    out.bytes(compact, copyFrom, end);
    start = end;
    await turn();
  }
  return await joinedInTurns(out.parts(), turn);
}

/** The index of the quote closing the string that runs at `from`, when `bytes` hold it; else -1. */
function closingQuote(bytes: Uint8Array, from: number): number {
  let quote = bytes.indexOf(QUOTE, from);
  while (quote !== -1) {
    // An escaped quote follows an odd run of backslashes (each pair is one escaped backslash).
    let backslashes = 0;
    while (bytes[quote - 1 - backslashes] === BACKSLASH) backslashes += 1;
    if (backslashes % 2 === 0) return quote;
    quote = bytes.indexOf(QUOTE, quote + 1);
  }
  return -1;
}

/** Output bytes gathered in blocks, joined once at the end. */
class ByteSink {
  readonly #blocks: Uint8Array[] = [];
  #block = new Uint8Array(SLICE_BYTES);
  #used = 0;

  bytes(source: Uint8Array, from: number, to: number): void {
    while (from < to) {
      if (this.#used === this.#block.byteLength) this.#flush();
      const count = Math.min(to - from, this.#block.byteLength - this.#used);
      this.#block.set(source.subarray(from, from + count), this.#used);
      this.#used += count;
      from += count;
    }
  }

  byte(value: number): void {
    if (this.#used === this.#block.byteLength) this.#flush();
    this.#block[this.#used++] = value;
  }

  lineBreak(depth: number): void {
    this.byte(NEWLINE);
    for (let count = depth * INDENT; count > 0; count -= 1) this.byte(SPACE);
  }

  /** What was written, in one array made in turns. */
  parts(): Uint8Array[] {
    this.#flush();
    return this.#blocks;
  }

  #flush(): void {
    if (this.#used === 0) return;
    this.#blocks.push(this.#block.subarray(0, this.#used));
    this.#block = new Uint8Array(SLICE_BYTES);
    this.#used = 0;
  }
}
