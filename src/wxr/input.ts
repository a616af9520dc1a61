/** Whatever a WXR file arrives as, turned into UTF-8-decoded text chunks, with the size limit applied. */
import { WxrError } from './errors.js';

/** A whole file (text or bytes), or a stream of its bytes (a Node stream, a web `ReadableStream`, any async iterable). */
export type WxrSource = string | Uint8Array | AsyncIterable<Uint8Array | string> | ReadableStream<Uint8Array>;

/** Pieces a whole-file source is cut into, so it flows through the same bounded scanner as a stream. */
const SLICE = 64 * 1024;

function isReadableStream(source: unknown): source is ReadableStream<Uint8Array> {
  return typeof (source as ReadableStream | null)?.getReader === 'function';
}

async function* fromReadableStream(stream: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  const reader = stream.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    reader.releaseLock();
  }
}

function* slices<T extends string | Uint8Array>(whole: T): Generator<T> {
  for (let start = 0; start < whole.length; start += SLICE) yield whole.slice(start, start + SLICE) as T;
}

function rawChunks(source: WxrSource): Iterable<Uint8Array | string> | AsyncIterable<Uint8Array | string> {
  if (typeof source === 'string' || source instanceof Uint8Array) return slices(source);
  if (isReadableStream(source)) return fromReadableStream(source);
  return source;
}

/** What the decoder reports so far: bytes read, for progress and the size limit. */
export interface InputMeter {
  bytes: number;
}

/**
 * Decoded text chunks of the source. Bytes must be UTF-8 (what WordPress writes); a byte-order mark is dropped.
 * More than `maxBytes` fails with `wxr_too_large` before the rest is read.
 */
export async function* textChunks(source: WxrSource, maxBytes: number, meter: InputMeter): AsyncGenerator<string> {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  for await (const chunk of rawChunks(source)) {
    if (typeof chunk === 'string') {
      meter.bytes += Buffer.byteLength(chunk);
    } else if (chunk instanceof Uint8Array) {
      meter.bytes += chunk.byteLength;
    } else {
      throw new TypeError('A WXR stream must yield strings or bytes');
    }
    if (meter.bytes > maxBytes) throw new WxrError('wxr_too_large', `the file is larger than ${maxBytes} bytes`, 0);
    if (typeof chunk === 'string') {
      yield chunk;
      continue;
    }
    let text: string;
    try {
      text = decoder.decode(chunk, { stream: true });
    } catch {
      throw new WxrError('wxr_parse_error', `the file is not valid UTF-8 (within the first ${meter.bytes} bytes)`, 0);
    }
    if (text !== '') yield text;
  }
  let rest: string;
  try {
    rest = decoder.decode();
  } catch {
    throw new WxrError('wxr_parse_error', 'the file is not valid UTF-8 (it ends inside a character)', 0);
  }
  if (rest !== '') yield rest;
}
