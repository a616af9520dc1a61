/**
 * A long text held as consecutive chunks of a few megabytes rather than one string: the rendering of a very large
 * post (tens of megabytes) arrives from a worker thread as bytes and is read into strings slice by slice, in turns,
 * and the JSON encoding of an answer (`large-json.ts`) walks the chunks one by one. Joining them into one string
 * would copy the whole text in one call and hold the event loop for as long. Anything else that serialises it
 * (`JSON.stringify`) gets the joined string, so the JSON text is the same either way. Chunks never split a
 * surrogate pair.
 */
import type { TextBytes } from '../format/text-bytes.js';
import { turnTaker } from '../format/turn.js';

export { isTextBytes, textBytes, textBytesInTurns, textOfBytes, type TextBytes } from '../format/text-bytes.js';

export class ChunkedText {
  readonly length: number;

  constructor(readonly chunks: readonly string[]) {
    let length = 0;
    for (const chunk of chunks) length += chunk.length;
    this.length = length;
  }

  toJSON(): string {
    return this.chunks.join('');
  }

  toString(): string {
    return this.toJSON();
  }
}

/** Texts about this long or shorter travel between threads as one string (copying them is a millisecond or two). */
export const WHOLE_TEXT_CHARS = 1024 * 1024;
/** The characters read into one chunk. */
const CHUNK_CHARS = 1024 * 1024;

/** The text of `TextBytes`, read a chunk at a time with turns of the event loop between. */
export async function chunkedTextOf({ encoding, bytes }: TextBytes): Promise<ChunkedText> {
  const turn = turnTaker();
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const unit = encoding === 'latin1' ? 1 : 2;
  const chunks: string[] = [];
  for (let start = 0; start < buffer.byteLength;) {
    let end = Math.min(buffer.byteLength, start + CHUNK_CHARS * unit);
    // A high surrogate at the end of a chunk would be split from its pair.
    if (unit === 2 && end < buffer.byteLength && isHighSurrogate(buffer.readUInt16LE(end - 2))) end -= 2;
    chunks.push(buffer.toString(encoding, start, end));
    start = end;
    await turn();
  }
  return new ChunkedText(chunks);
}

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;
