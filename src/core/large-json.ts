/**
 * Encoding a large JSON answer (a post of several mebibytes, rendered) without holding the event loop: the text is
 * built piece by piece (long strings in slices), each piece is encoded to UTF-8 and hashed for the `ETag` as it
 * comes, and the loop takes a turn whenever the work has held it for `TURN_MS`. The bytes are exactly those of
 * `JSON.stringify`: pieces are cut only between array elements, object members, or whole UTF-16 code points.
 * Small values (almost all) are left to the one-call path: `largeJson` tells them apart with a walk that stops
 * once the value is known to be large.
 */
import { createHash } from 'node:crypto';
import { entityTagOf } from './cache/conditional.js';
import { ChunkedText } from './chunked-text.js';
import { EncodedJson } from './encode.js';
import { turnTaker } from './turn.js';

/** Values whose JSON text is about this long or longer are encoded in turns. */
export const LARGE_JSON_CHARS = 256 * 1024;
/** The longest piece of text encoded at once (a few milliseconds of work). */
const PIECE_CHARS = 64 * 1024;

const encoder = new TextEncoder();

/** Whether a value is plain data the pieces can walk (anything else is stringified whole, as JSON.stringify would). */
function isWalkable(value: object): boolean {
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return false;
  if (Array.isArray(value)) return true;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/**
 * Whether the JSON text of `value` is at least `LARGE_JSON_CHARS` long, by a lower estimate (string lengths and a
 * character or two a value); the walk stops as soon as that is certain. It runs on every answer built afresh, so
 * it allocates nothing.
 */
export function isLargeJson(value: unknown): boolean {
  if (typeof value === 'string' || value instanceof ChunkedText) return value.length >= LARGE_JSON_CHARS;
  if (value === null || typeof value !== 'object' || !isWalkable(value)) return false;
  return estimateLeft(value, LARGE_JSON_CHARS) <= 0;
}

/** `left` less the estimated length of `node`'s JSON text; stops once nothing is left. */
function estimateLeft(node: object, left: number): number {
  if (Array.isArray(node)) {
    left -= 2 + node.length;
    for (let index = 0; index < node.length && left > 0; index += 1) left = childLeft(node[index], left);
    return left;
  }
  left -= 2;
  for (const key in node) {
    left = childLeft((node as Record<string, unknown>)[key], left - key.length - 4);
    if (left <= 0) break;
  }
  return left;
}

function childLeft(child: unknown, left: number): number {
  if (typeof child === 'string' || child instanceof ChunkedText) return left - child.length;
  if (child === null || typeof child !== 'object') return left - 1;
  // Bytes and values with their own JSON form (an answer already encoded) are not walked.
  if (ArrayBuffer.isView(child) || typeof (child as { toJSON?: unknown }).toJSON === 'function') return left - 1;
  return estimateLeft(child, left);
}

/** The JSON text of `value` in pieces, in order; their concatenation is `JSON.stringify(value)`. */
function* pieces(value: unknown): Generator<string> {
  if (typeof value === 'string' && value.length > PIECE_CHARS) {
    yield '"';
    yield* stringPieces(value);
    yield '"';
    return;
  }
  if (value instanceof ChunkedText) {
    yield '"';
    for (const chunk of value.chunks) yield* stringPieces(chunk);
    yield '"';
    return;
  }
  if (value === null || typeof value !== 'object' || !isWalkable(value) || !isLargeJson(value)) {
    yield JSON.stringify(value) ?? 'null';
    return;
  }
  if (Array.isArray(value)) {
    yield '[';
    for (let index = 0; index < value.length; index += 1) {
      if (index > 0) yield ',';
      const element: unknown = value[index];
      // As JSON.stringify: what has no JSON form is `null` in an array.
      if (element === undefined || typeof element === 'function' || typeof element === 'symbol') yield 'null';
      else yield* pieces(element);
    }
    yield ']';
    return;
  }
  yield '{';
  let first = true;
  for (const key of Object.keys(value)) {
    const member: unknown = (value as Record<string, unknown>)[key];
    // As JSON.stringify: a member without a JSON form is left out.
    if (member === undefined || typeof member === 'function' || typeof member === 'symbol') continue;
    yield `${first ? '' : ','}${JSON.stringify(key)}:`;
    first = false;
    yield* pieces(member);
  }
  yield '}';
}

/**
 * A long string's JSON text without its quotes, in slices, never cutting a surrogate pair (each half alone would
 * be escaped).
 */
function* stringPieces(text: string): Generator<string> {
  let start = 0;
  while (start < text.length) {
    let end = Math.min(text.length, start + PIECE_CHARS);
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end -= 1;
    yield JSON.stringify(text.slice(start, end)).slice(1, -1);
    start = end;
  }
}

/**
 * The JSON text of `value` as UTF-8 bytes, given to `take` piece by piece in order, with turns of the event loop
 * between pieces.
 */
async function eachEncodedPiece(value: unknown, take: (bytes: Uint8Array) => void): Promise<void> {
  const turn = turnTaker();
  let pending = '';
  for (const piece of pieces(value)) {
    pending += piece;
    if (pending.length >= PIECE_CHARS) {
      take(encoder.encode(pending));
      pending = '';
      await turn();
    }
  }
  take(encoder.encode(pending));
}

/**
 * `value` as JSON bytes with their entity tag, built in turns when it is large; `null` when it is small (the caller
 * encodes it in one call, as before).
 */
export async function encodeLargeJson(value: unknown): Promise<EncodedJson | null> {
  if (!isLargeJson(value)) return null;
  const hash = createHash('sha1');
  const chunks: Uint8Array[] = [];
  await eachEncodedPiece(value, (bytes) => {
    hash.update(bytes);
    chunks.push(bytes);
  });
  const encoded = new EncodedJson(await joinedInTurns(chunks, turnTaker()));
  encoded.etag = entityTagOf(hash);
  return encoded;
}

/**
 * The base64 digest (`algorithm`, a `node:crypto` hash) of the UTF-8 bytes of `JSON.stringify(value)`, hashed in
 * pieces with turns when the value is large: the digest is the one hashing the whole text at once gives.
 */
export async function jsonDigestInTurns(value: unknown, algorithm: string): Promise<string> {
  const hash = createHash(algorithm);
  if (isLargeJson(value)) await eachEncodedPiece(value, (bytes) => hash.update(bytes));
  else hash.update(JSON.stringify(value) ?? 'null');
  return hash.digest('base64');
}

/** The entity tag of bytes that may be large: hashed in slices, with turns, when they are. */
export async function entityTagInTurns(bytes: Uint8Array): Promise<string> {
  const turn = turnTaker();
  const hash = createHash('sha1');
  const slice = 4 * PIECE_CHARS;
  for (let offset = 0; offset < bytes.byteLength; offset += slice) {
    hash.update(bytes.subarray(offset, offset + slice));
    await turn();
  }
  return entityTagOf(hash);
}

/** `body` as bytes built in turns when it is a large JSON value, else as it is. */
export async function encodedIfLarge(body: unknown): Promise<unknown> {
  if (body === null || typeof body !== 'object' || body instanceof EncodedJson) return body;
  return await encodeLargeJson(body) ?? body;
}

/** The parts one after the other in one array, copied in slices with turns of the event loop between them. */
export async function joinedInTurns(parts: readonly Uint8Array[], turn: () => Promise<void>): Promise<Uint8Array> {
  let length = 0;
  for (const part of parts) length += part.byteLength;
  // Every byte is written below: no need to clear them first.
  const bytes = new Uint8Array(Buffer.allocUnsafeSlow(length).buffer, 0, length);
  let offset = 0;
  for (const part of parts) {
    for (let start = 0; start < part.byteLength; start += 2 * PIECE_CHARS) {
      const slice = part.subarray(start, start + 2 * PIECE_CHARS);
      bytes.set(slice, offset);
      offset += slice.byteLength;
      await turn();
    }
  }
  return bytes;
}
