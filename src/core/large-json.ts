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
import { isLongJson, jsonTextPieces } from '../format/json-text.js';
import { turnTaker } from '../format/turn.js';

/** Values whose JSON text is about this long or longer are encoded in turns. */
export const LARGE_JSON_CHARS = 256 * 1024;
/** The longest piece of text encoded at once (a few milliseconds of work). */
const PIECE_CHARS = 64 * 1024;

const encoder = new TextEncoder();

const isChunkedText = (value: unknown): value is ChunkedText => value instanceof ChunkedText;
const SIZES = { longChars: LARGE_JSON_CHARS, pieceChars: PIECE_CHARS };

/**
 * Whether the JSON text of `value` is at least `LARGE_JSON_CHARS` long, by a lower estimate; it runs on every
 * answer built afresh, so it allocates nothing.
 */
export function isLargeJson(value: unknown): boolean {
  return isLongJson(value, LARGE_JSON_CHARS, isChunkedText);
}

/** The JSON text of `value` in pieces, in order; their concatenation is `JSON.stringify(value)`. */
const pieces = (value: unknown) => jsonTextPieces(value, SIZES, isChunkedText);

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
