/**
 * The JSON text of a large value in pieces, exactly as `JSON.stringify` writes it: pieces are cut only between
 * array elements, object members, or whole UTF-16 code points, so a caller can encode, hash or send each piece
 * and take turns of the event loop between them. Small values (almost all) are left to one `JSON.stringify`:
 * `isLongJson` tells them apart with a walk that stops once the value is known to be long.
 */

/** A long text held as consecutive strings, written as one JSON string. */
export interface TextInChunks { readonly length: number; readonly chunks: readonly string[] }

/** How a walk tells values held as `TextInChunks` (none, unless the caller has such a class). */
export type ChunkedTextTest = (value: unknown) => value is TextInChunks;

const noChunkedText: ChunkedTextTest = (_value): _value is TextInChunks => false;

/** Whether a value is plain data the pieces can walk (anything else is stringified whole, as JSON.stringify would). */
function isWalkable(value: object): boolean {
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return false;
  if (Array.isArray(value)) return true;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/**
 * Whether the JSON text of `value` is at least `chars` long, by a lower estimate (string lengths and a character
 * or two a value); the walk stops as soon as that is certain. It allocates nothing.
 */
export function isLongJson(value: unknown, chars: number, isChunked: ChunkedTextTest = noChunkedText): boolean {
  if (typeof value === 'string' || isChunked(value)) return value.length >= chars;
  if (value === null || typeof value !== 'object' || !isWalkable(value)) return false;
  return estimateLeft(value, chars, isChunked) <= 0;
}

/** `left` less the estimated length of `node`'s JSON text; stops once nothing is left. */
function estimateLeft(node: object, left: number, isChunked: ChunkedTextTest): number {
  if (Array.isArray(node)) {
    left -= 2 + node.length;
    for (let index = 0; index < node.length && left > 0; index += 1) left = childLeft(node[index], left, isChunked);
    return left;
  }
  left -= 2;
  for (const key in node) {
    left = childLeft((node as Record<string, unknown>)[key], left - key.length - 4, isChunked);
    if (left <= 0) break;
  }
  return left;
}

function childLeft(child: unknown, left: number, isChunked: ChunkedTextTest): number {
  if (typeof child === 'string' || isChunked(child)) return left - child.length;
  if (child === null || typeof child !== 'object') return left - 1;
  // Bytes and values with their own JSON form (an answer already encoded) are not walked.
  if (ArrayBuffer.isView(child) || typeof (child as { toJSON?: unknown }).toJSON === 'function') return left - 1;
  return estimateLeft(child, left, isChunked);
}

/** Where a walk cuts: values shorter than `longChars` are stringified whole, strings in slices of `pieceChars`. */
export interface JsonPieceSizes { longChars: number; pieceChars: number }

/** The JSON text of `value` in pieces, in order; their concatenation is `JSON.stringify(value)`. */
export function* jsonTextPieces(value: unknown, sizes: JsonPieceSizes, isChunked: ChunkedTextTest = noChunkedText): Generator<string> {
  if (typeof value === 'string' && value.length > sizes.pieceChars) {
    yield '"';
    yield* stringPieces(value, sizes.pieceChars);
    yield '"';
    return;
  }
  if (isChunked(value)) {
    yield '"';
    for (const chunk of value.chunks) yield* stringPieces(chunk, sizes.pieceChars);
    yield '"';
    return;
  }
  if (value === null || typeof value !== 'object' || !isWalkable(value) || !isLongJson(value, sizes.longChars, isChunked)) {
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
      else yield* jsonTextPieces(element, sizes, isChunked);
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
    yield* jsonTextPieces(member, sizes, isChunked);
  }
  yield '}';
}

/**
 * A long string's JSON text without its quotes, in slices, never cutting a surrogate pair (each half alone would
 * be escaped).
 */
function* stringPieces(text: string, pieceChars: number): Generator<string> {
  let start = 0;
  while (start < text.length) {
    let end = Math.min(text.length, start + pieceChars);
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end -= 1;
    yield JSON.stringify(text.slice(start, end)).slice(1, -1);
    start = end;
  }
}
