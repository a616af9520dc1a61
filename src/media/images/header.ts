/**
 * Image dimensions read from file headers, without decoding pixels (the reference's `getimagesize`). Used to
 * describe images the editor cannot decode and to refuse decoding images with absurd pixel counts.
 */

export interface ImageHeader {
  type: string;
  width: number;
  height: number;
}

const u16be = (bytes: Uint8Array, at: number) => (bytes[at]! << 8) | bytes[at + 1]!;
const u16le = (bytes: Uint8Array, at: number) => bytes[at]! | (bytes[at + 1]! << 8);
const u32be = (bytes: Uint8Array, at: number) => ((bytes[at]! << 24) | (bytes[at + 1]! << 16) | (bytes[at + 2]! << 8) | bytes[at + 3]!) >>> 0;
const u32le = (bytes: Uint8Array, at: number) => (bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16) | (bytes[at + 3]! << 24)) >>> 0;
const ascii = (bytes: Uint8Array, at: number, length: number) => String.fromCharCode(...bytes.subarray(at, at + length));

function png(bytes: Uint8Array): ImageHeader | null {
  if (bytes.length < 24 || ascii(bytes, 12, 4) !== 'IHDR') return null;
  return { type: 'image/png', width: u32be(bytes, 16), height: u32be(bytes, 20) };
}

/** The frame size from the first start-of-frame marker. */
function jpeg(bytes: Uint8Array): ImageHeader | null {
  let at = 2;
  while (at + 9 < bytes.length) {
    if (bytes[at] !== 0xff) return null;
    const marker = bytes[at + 1]!;
    if (marker === 0xff) {
      at++;
      continue;
    }
    if (marker === 0xd8 || (marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      at += 2;
      continue;
    }
    const length = u16be(bytes, at + 2);
    const isStartOfFrame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isStartOfFrame) return { type: 'image/jpeg', width: u16be(bytes, at + 7), height: u16be(bytes, at + 5) };
    if (length < 2) return null;
    at += 2 + length;
  }
  return null;
}

function gif(bytes: Uint8Array): ImageHeader | null {
  if (bytes.length < 10) return null;
  return { type: 'image/gif', width: u16le(bytes, 6), height: u16le(bytes, 8) };
}

function webp(bytes: Uint8Array): ImageHeader | null {
  if (bytes.length < 30) return null;
  const chunk = ascii(bytes, 12, 4);
  if (chunk === 'VP8 ') return { type: 'image/webp', width: u16le(bytes, 26) & 0x3fff, height: u16le(bytes, 28) & 0x3fff };
  if (chunk === 'VP8L') {
    const bits = u32le(bytes, 21);
    return { type: 'image/webp', width: (bits & 0x3fff) + 1, height: ((bits >> 14) & 0x3fff) + 1 };
  }
  if (chunk === 'VP8X') {
    const width = 1 + (bytes[24]! | (bytes[25]! << 8) | (bytes[26]! << 16));
    const height = 1 + (bytes[27]! | (bytes[28]! << 8) | (bytes[29]! << 16));
    return { type: 'image/webp', width, height };
  }
  return null;
}

function bmp(bytes: Uint8Array): ImageHeader | null {
  if (bytes.length < 26) return null;
  const headerSize = u32le(bytes, 14);
  if (headerSize === 12) return { type: 'image/bmp', width: u16le(bytes, 18), height: u16le(bytes, 20) };
  const height = u32le(bytes, 22) | 0;
  return { type: 'image/bmp', width: u32le(bytes, 18) | 0, height: Math.abs(height) };
}

function tiff(bytes: Uint8Array): ImageHeader | null {
  if (bytes.length < 8) return null;
  const little = bytes[0] === 0x49;
  const u16 = little ? u16le : u16be;
  const u32 = little ? u32le : u32be;
  const ifd = u32(bytes, 4);
  if (ifd + 2 > bytes.length) return null;
  let width = 0;
  let height = 0;
  const count = u16(bytes, ifd);
  for (let index = 0; index < count; index++) {
    const entry = ifd + 2 + index * 12;
    if (entry + 12 > bytes.length) break;
    const tag = u16(bytes, entry);
    const valueType = u16(bytes, entry + 2);
    const value = valueType === 3 ? u16(bytes, entry + 8) : u32(bytes, entry + 8);
    if (tag === 0x100) width = value;
    if (tag === 0x101) height = value;
  }
  return width > 0 && height > 0 ? { type: 'image/tiff', width, height } : null;
}

function icon(bytes: Uint8Array): ImageHeader | null {
  if (bytes.length < 8) return null;
  return { type: 'image/x-icon', width: bytes[6] || 256, height: bytes[7] || 256 };
}

/** HEIC and AVIF keep their size in an `ispe` property box. */
function isoImage(bytes: Uint8Array, type: string): ImageHeader | null {
  const limit = Math.min(bytes.length - 12, 256 * 1024);
  for (let at = 4; at < limit; at++) {
    if (bytes[at] === 0x69 && ascii(bytes, at, 4) === 'ispe') {
      return { type, width: u32be(bytes, at + 8), height: u32be(bytes, at + 12) };
    }
  }
  return null;
}

/** Dimensions of an image of a known (sniffed) type, or null when the header cannot be read. */
export function readImageHeader(bytes: Uint8Array, type: string): ImageHeader | null {
  let header: ImageHeader | null = null;
  try {
    switch (type) {
      case 'image/png': header = png(bytes); break;
      case 'image/jpeg': header = jpeg(bytes); break;
      case 'image/gif': header = gif(bytes); break;
      case 'image/webp': header = webp(bytes); break;
      case 'image/bmp': header = bmp(bytes); break;
      case 'image/tiff': header = tiff(bytes); break;
      case 'image/x-icon': header = icon(bytes); break;
      case 'image/heic':
      case 'image/avif': header = isoImage(bytes, type); break;
      default: header = null;
    }
  } catch {
    return null;
  }
  return header && header.width > 0 && header.height > 0 ? header : null;
}
