/**
 * A long text held as consecutive chunks of a few megabytes rather than one string: the rendering of a very large
 * post (tens of megabytes) arrives from a worker thread as bytes and is read into strings slice by slice, in turns,
 * and the JSON encoding of an answer (`large-json.ts`) walks the chunks one by one. Joining them into one string
 * would copy the whole text in one call and hold the event loop for as long. Anything else that serialises it
 * (`JSON.stringify`) gets the joined string, so the JSON text is the same either way. Chunks never split a
 * surrogate pair.
 */
import { turnTaker } from '../format/turn.js';

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

/** A long text as bytes: one byte a character when every character fits one (`latin1`), else UTF-16 code units. */
export interface TextBytes { encoding: 'latin1' | 'utf16le'; bytes: Uint8Array }

export function isTextBytes(value: unknown): value is TextBytes {
  return value !== null && typeof value === 'object' && (value as TextBytes).bytes instanceof Uint8Array
    && ((value as TextBytes).encoding === 'latin1' || (value as TextBytes).encoding === 'utf16le');
}

/** `text` as bytes that can be handed to another thread without copying (run where the time does not matter). */
export function textBytes(text: string): TextBytes {
  const steps = encodingSteps(text);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/**
 * `text` as bytes that can be handed to another thread without copying, encoded a chunk at a time with turns of
 * the event loop between (copying a long text into a worker's message would hold the loop in one call).
 */
export async function textBytesInTurns(text: string): Promise<TextBytes> {
  const turn = turnTaker();
  const steps = encodingSteps(text);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    await turn();
  }
}

/** Whether a text needs two bytes for some character. */
const WIDE = /[\u0100-\uffff]/;

/** The encoding of `text` as `TextBytes`, pausing after each chunk scanned or written. */
function* encodingSteps(text: string): Generator<void, TextBytes> {
  let wide = false;
  for (let start = 0; start < text.length && !wide; start += CHUNK_CHARS) {
    wide = WIDE.test(text.slice(start, start + CHUNK_CHARS));
    yield;
  }
  const encoding = wide ? 'utf16le' : 'latin1';
  const unit = wide ? 2 : 1;
  // Large enough never to come from Node's shared pool: the buffer is the message's own and can be transferred.
  const buffer = Buffer.allocUnsafeSlow(text.length * unit);
  // UTF-16 code units are written as they are, so a chunk may end between the two halves of a surrogate pair.
  for (let start = 0; start < text.length; start += CHUNK_CHARS) {
    buffer.write(text.slice(start, start + CHUNK_CHARS), start * unit, encoding);
    yield;
  }
  return { encoding, bytes: new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength) };
}

/** The text of `TextBytes` in one string (run where the time does not matter: a worker thread). */
export function textOfBytes({ encoding, bytes }: TextBytes): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString(encoding);
}

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
