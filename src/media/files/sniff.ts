/**
 * Content sniffing from leading bytes. `sniffContent` names what a file really is, as far as its first bytes
 * tell; the upload check compares that with what the name claims.
 */

/** What the bytes look like. Image kinds use their MIME type; the rest are coarse families. */
export type SniffedKind =
  | 'image/jpeg' | 'image/png' | 'image/gif' | 'image/webp' | 'image/bmp' | 'image/tiff' | 'image/x-icon'
  | 'image/heic' | 'image/avif'
  | 'pdf' | 'zip' | 'ole' | 'rtf' | 'gzip' | 'bzip2' | '7z' | 'rar' | 'tar' | 'psd' | 'xcf' | 'java-class'
  | 'mp3' | 'aac' | 'flac' | 'wav' | 'avi' | 'ogg' | 'midi' | 'matroska' | 'iso-media' | 'asf' | 'flv'
  | 'mpeg' | 'realmedia'
  | 'executable' | 'script' | 'html' | 'svg' | 'xml'
  | 'text' | 'unknown';

const ascii = (bytes: Uint8Array, start: number, length: number): string =>
  String.fromCharCode(...bytes.subarray(start, start + length));

const startsWith = (bytes: Uint8Array, signature: readonly number[], offset = 0): boolean =>
  bytes.length >= offset + signature.length && signature.every((byte, index) => bytes[offset + index] === byte);

/** ISO base media (MP4, MOV, 3GP, M4A, HEIC, AVIF): a `ftyp` box first, whose brand says which. */
function isoMediaKind(bytes: Uint8Array): SniffedKind | null {
  if (bytes.length < 12 || ascii(bytes, 4, 4) !== 'ftyp') return null;
  const boxSize = ((bytes[0]! << 24) | (bytes[1]! << 16) | (bytes[2]! << 8) | bytes[3]!) >>> 0;
  const end = Math.min(bytes.length, Math.max(boxSize, 16), 64);
  const brands: string[] = [ascii(bytes, 8, 4)];
  for (let offset = 16; offset + 4 <= end; offset += 4) brands.push(ascii(bytes, offset, 4));
  if (brands.some((brand) => brand === 'avif' || brand === 'avis')) return 'image/avif';
  if (brands.some((brand) => ['heic', 'heix', 'heim', 'heis', 'hevc', 'hevx', 'mif1', 'msf1'].includes(brand))) return 'image/heic';
  return 'iso-media';
}

function isMp3(bytes: Uint8Array): boolean {
  if (startsWith(bytes, [0x49, 0x44, 0x33])) return true; // ID3 tag
  // An MPEG audio frame header: 11 sync bits, a layer that is not "reserved".
  return bytes.length >= 2 && bytes[0] === 0xff && (bytes[1]! & 0xe0) === 0xe0 && (bytes[1]! & 0x06) !== 0
    && (bytes[1]! & 0x18) !== 0x08;
}

function isAdtsAac(bytes: Uint8Array): boolean {
  return bytes.length >= 2 && bytes[0] === 0xff && (bytes[1]! & 0xf6) === 0xf0;
}

function isTar(bytes: Uint8Array): boolean {
  return bytes.length >= 262 && ascii(bytes, 257, 5) === 'ustar';
}

/** Leading text, lower-cased, with a byte-order mark and white space removed. */
function leadingText(bytes: Uint8Array): string {
  let start = 0;
  if (startsWith(bytes, [0xef, 0xbb, 0xbf])) start = 3;
  const text = new TextDecoder('utf-8', { fatal: false }).decode(bytes.subarray(start, start + 1024));
  return text.replace(/^\s+/, '').toLowerCase();
}

const HTML_STARTS = ['<!doctype html', '<html', '<head', '<body', '<script', '<iframe', '<title', '<style', '<meta', '<a ', '<img', '<div', '<table', '<br', '<p>', '<h1', '<!--', '<object', '<embed', '<form', '<svg'];

/** Whether bytes are text: no NUL, valid UTF-8 (or plain 8-bit text), few control characters. */
export function looksLikeText(bytes: Uint8Array): boolean {
  const sample = bytes.subarray(0, 64 * 1024);
  let controls = 0;
  for (const byte of sample) {
    if (byte === 0) return false;
    if (byte < 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0d && byte !== 0x0c && byte !== 0x1b) controls++;
  }
  return controls <= sample.length / 100;
}

export function sniffContent(bytes: Uint8Array): SniffedKind {
  if (bytes.length === 0) return 'unknown';
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (ascii(bytes, 0, 6) === 'GIF87a' || ascii(bytes, 0, 6) === 'GIF89a') return 'image/gif';
  if (ascii(bytes, 0, 4) === 'RIFF' && bytes.length >= 12) {
    const form = ascii(bytes, 8, 4);
    if (form === 'WEBP') return 'image/webp';
    if (form === 'WAVE') return 'wav';
    if (form === 'AVI ') return 'avi';
  }
  if (ascii(bytes, 0, 2) === 'BM' && bytes.length >= 26) return 'image/bmp';
  if (startsWith(bytes, [0x49, 0x49, 0x2a, 0x00]) || startsWith(bytes, [0x4d, 0x4d, 0x00, 0x2a])) return 'image/tiff';
  if (startsWith(bytes, [0x00, 0x00, 0x01, 0x00]) && bytes.length >= 6 && bytes[4]! + bytes[5]! > 0) return 'image/x-icon';
  const iso = isoMediaKind(bytes);
  if (iso) return iso;
  if (ascii(bytes, 0, 5) === '%PDF-') return 'pdf';
  if (startsWith(bytes, [0x50, 0x4b, 0x03, 0x04]) || startsWith(bytes, [0x50, 0x4b, 0x05, 0x06])) return 'zip';
  if (startsWith(bytes, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])) return 'ole';
  if (ascii(bytes, 0, 5) === '{\\rtf') return 'rtf';
  if (startsWith(bytes, [0x1f, 0x8b])) return 'gzip';
  if (ascii(bytes, 0, 3) === 'BZh') return 'bzip2';
  if (startsWith(bytes, [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c])) return '7z';
  if (ascii(bytes, 0, 4) === 'Rar!') return 'rar';
  if (ascii(bytes, 0, 4) === '8BPS') return 'psd';
  if (ascii(bytes, 0, 9) === 'gimp xcf ') return 'xcf';
  if (startsWith(bytes, [0xca, 0xfe, 0xba, 0xbe])) return 'java-class';
  if (ascii(bytes, 0, 4) === 'fLaC') return 'flac';
  if (ascii(bytes, 0, 4) === 'OggS') return 'ogg';
  if (ascii(bytes, 0, 4) === 'MThd') return 'midi';
  if (startsWith(bytes, [0x1a, 0x45, 0xdf, 0xa3])) return 'matroska';
  if (startsWith(bytes, [0x30, 0x26, 0xb2, 0x75, 0x8e, 0x66, 0xcf, 0x11])) return 'asf';
  if (ascii(bytes, 0, 3) === 'FLV') return 'flv';
  if (startsWith(bytes, [0x00, 0x00, 0x01, 0xba]) || startsWith(bytes, [0x00, 0x00, 0x01, 0xb3])) return 'mpeg';
  if (ascii(bytes, 0, 4) === '.RMF' || ascii(bytes, 0, 4) === '.ra\xfd') return 'realmedia';
  if (isTar(bytes)) return 'tar';
  if (ascii(bytes, 0, 2) === 'MZ' || ascii(bytes, 0, 4) === '\x7fELF' || startsWith(bytes, [0xcf, 0xfa, 0xed, 0xfe])
    || startsWith(bytes, [0xfe, 0xed, 0xfa, 0xcf]) || startsWith(bytes, [0xce, 0xfa, 0xed, 0xfe])) return 'executable';
  if (isMp3(bytes)) return 'mp3';
  if (isAdtsAac(bytes)) return 'aac';
  if (looksLikeText(bytes)) {
    const text = leadingText(bytes);
    if (text.startsWith('#!') || text.startsWith('<?php') || text.startsWith('<?=')) return 'script';
    if (text.startsWith('<svg') || (text.startsWith('<?xml') && text.includes('<svg'))) return 'svg';
    if (HTML_STARTS.some((start) => text.startsWith(start))) return 'html';
    if (text.startsWith('<?xml')) return 'xml';
    return 'text';
  }
  return 'unknown';
}

/** Image kinds by MIME type, with the extension a misnamed image is given (the reference's list). */
export const IMAGE_EXTENSION_FOR: Readonly<Record<string, string>> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/gif': 'gif',
  'image/bmp': 'bmp',
  'image/tiff': 'tif',
  'image/webp': 'webp',
};

export function isImageKind(kind: SniffedKind): boolean {
  return kind.startsWith('image/');
}
