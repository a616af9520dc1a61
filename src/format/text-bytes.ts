/**
 * A long text as bytes that can be handed to another thread without copying: copying a long string into a message
 * holds the sending thread for tens of milliseconds in one call, so it is encoded a chunk at a time, with turns of
 * the event loop between where that matters.
 */
import { finished, finishedInTurns } from './turn.js';

/** A long text as bytes: one byte a character when every character fits one (`latin1`), else UTF-16 code units. */
export interface TextBytes { encoding: 'latin1' | 'utf16le'; bytes: Uint8Array }

/** The characters scanned or written in one step. */
const CHUNK_CHARS = 1024 * 1024;

export function isTextBytes(value: unknown): value is TextBytes {
  return value !== null && typeof value === 'object' && (value as TextBytes).bytes instanceof Uint8Array
    && ((value as TextBytes).encoding === 'latin1' || (value as TextBytes).encoding === 'utf16le');
}

/** `text` as bytes that can be handed to another thread without copying (run where the time does not matter). */
export function textBytes(text: string): TextBytes {
  return finished(textBytesSteps(text));
}

/**
 * `text` as bytes that can be handed to another thread without copying, encoded a chunk at a time with turns of
 * the event loop between (copying a long text into a worker's message would hold the loop in one call).
 */
export function textBytesInTurns(text: string): Promise<TextBytes> {
  return finishedInTurns(textBytesSteps(text));
}

/** Whether a text needs two bytes for some character. */
const WIDE = /[\u0100-\uffff]/;

/** The encoding of `text` as `TextBytes`, pausing after each chunk scanned or written. */
export function* textBytesSteps(text: string): Generator<void, TextBytes> {
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
