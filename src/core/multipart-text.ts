/**
 * The text of a multipart field, decoded as its bytes arrive instead of in one call when its part ends: busboy
 * holds a field's bytes until then and decodes them at once, which for an 8 MiB field held the event loop for
 * 50–75 ms. The text is exactly what busboy gives (`lib/utils/decodeText.js` of @fastify/busboy): the same
 * decoding for the same charset, the same cut at the field size limit.
 */
import { createRequire } from 'node:module';

/** How busboy turns a text part's bytes into text, by charset. */
export type TextDecoding = 'utf8' | 'latin1' | 'utf16le' | 'base64';

/**
 * The decoding busboy uses for a charset: its Latin-1 and UTF-16LE aliases, `base64` (the bytes written as
 * base64), and UTF-8 for every other charset, known or not.
 */
export function decodingOf(charset: string): TextDecoding {
  switch (charset.toLowerCase()) {
    case 'latin1': case 'ascii': case 'us-ascii': case 'iso-8859-1': case 'iso8859-1': case 'iso88591': case 'iso_8859-1':
    case 'windows-1252': case 'iso_8859-1:1987': case 'cp1252': case 'x-cp1252':
      return 'latin1';
    case 'utf16le': case 'utf-16le': case 'ucs2': case 'ucs-2':
      return 'utf16le';
    case 'base64':
      return 'base64';
    default:
      return 'utf8';
  }
}

type ParsedParams = Array<string | [string, string | undefined]>;
let parseParams: ((header: string) => ParsedParams) | undefined;

/**
 * The charset of a part as busboy reads it from the part's `Content-Type` (its own parameter parser), lower-cased;
 * `utf8` when none is named.
 */
export function charsetOf(header: Record<string, readonly string[] | undefined>): string {
  const contentType = header['content-type']?.[0];
  if (contentType === undefined) return 'utf8';
  if (contentType.length !== 0 && !contentType.includes(';') && !contentType.includes(' ') && !contentType.includes('\t')) return 'utf8';
  parseParams ??= createRequire(import.meta.url)('@fastify/busboy/lib/utils/parseParams.js') as (header: string) => ParsedParams;
  const parsed = parseParams(contentType);
  if (!parsed[0]) return 'utf8';
  for (const param of parsed) {
    if (/^charset$/i.test(param[0]!)) return (param[1] ?? '').toLowerCase();
  }
  return 'utf8';
}

/**
 * A text part's bytes decoded as they come: each chunk is decoded up to a place no character straddles, and the
 * few bytes after it wait for the next chunk. Bytes past `maxBytes` are dropped, as busboy cuts a field there.
 */
export class PartText {
  #text = '';
  #pending: Buffer | null = null;
  #bytes = 0;

  constructor(readonly decoding: TextDecoding, readonly maxBytes: number) {}

  push(chunk: Buffer): void {
    const room = this.maxBytes - this.#bytes;
    if (room <= 0) return;
    const kept = chunk.length > room ? chunk.subarray(0, room) : chunk;
    this.#bytes += kept.length;
    const bytes = this.#pending ? Buffer.concat([this.#pending, kept]) : kept;
    const whole = decodableLength(bytes, this.decoding);
    if (whole > 0) this.#text += bytes.toString(this.decoding, 0, whole);
    this.#pending = whole < bytes.length ? Buffer.from(bytes.subarray(whole)) : null;
  }

  /** The text; bytes left over (a character cut by the end of the part) decode as busboy decodes them. */
  end(): string {
    if (this.#pending) this.#text += this.#pending.toString(this.decoding);
    this.#pending = null;
    return this.#text;
  }
}

const isContinuation = (byte: number) => (byte & 0xc0) === 0x80;

/**
 * How many of the bytes decode to the same text alone as they do followed by any others: whole UTF-16 units,
 * whole groups of three for base64, and for UTF-8 up to the last byte that can start a character (a decoder
 * starts afresh at any byte that cannot continue one) unless the bytes after it already end there.
 */
export function decodableLength(bytes: Uint8Array, decoding: TextDecoding): number {
  const length = bytes.length;
  if (decoding === 'latin1') return length;
  if (decoding === 'utf16le') return length - (length % 2);
  if (decoding === 'base64') return length - (length % 3);
  for (let at = length - 1; at >= Math.max(0, length - 3); at -= 1) {
    if (isContinuation(bytes[at]!)) continue;
    // An ASCII byte ends its character; the continuation bytes after it stand alone.
    return bytes[at]! < 0x80 ? length : at;
  }
  // Three continuation bytes end any character begun before them.
  return length;
}
