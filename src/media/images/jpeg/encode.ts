/**
 * A baseline JPEG encoder working from planes: Y at full size with Cb and Cr at half size each way (4:2:0, as
 * libjpeg and sharp write by default), or Y alone for greyscale. Floating-point AAN forward DCT with the
 * quantisation folded into one multiplier per coefficient, the Annex K Huffman tables as precomputed code and
 * length arrays, one growing output buffer. Quality follows the IJG scale (1-100), so a quality means what it
 * means to libjpeg.
 */
import { resamplePlane, type Plane } from '../planes.js';
import { AAN_SCALE, AC_CHROMA, AC_LUMA, CHROMA_QUANT, DC_CHROMA, DC_LUMA, LUMA_QUANT, ZIGZAG, type HuffmanSpec } from './tables.js';
import { forwardDct } from './fdct.js';

interface Codes {
  code: Uint16Array;
  length: Uint8Array;
}

function huffmanCodes(spec: HuffmanSpec): Codes {
  const code = new Uint16Array(256);
  const length = new Uint8Array(256);
  let next = 0;
  let index = 0;
  for (let bits = 1; bits <= 16; bits++) {
    for (let n = 0; n < spec.counts[bits - 1]!; n++, index++, next++) {
      code[spec.symbols[index]!] = next;
      length[spec.symbols[index]!] = bits;
    }
    next <<= 1;
  }
  return { code, length };
}

const CODES = { dcLuma: huffmanCodes(DC_LUMA), acLuma: huffmanCodes(AC_LUMA), dcChroma: huffmanCodes(DC_CHROMA), acChroma: huffmanCodes(AC_CHROMA) };

/** A table scaled to an IJG quality, in zigzag order (as written to DQT). */
function scaledTable(base: readonly number[], quality: number): Uint8Array {
  const q = Math.min(100, Math.max(1, Math.round(quality)));
  const scale = q < 50 ? 5000 / q : 200 - 2 * q;
  const table = new Uint8Array(64);
  for (let k = 0; k < 64; k++) table[k] = Math.min(255, Math.max(1, Math.floor((base[ZIGZAG[k]!]! * scale + 50) / 100)));
  return table;
}

/** Multipliers in natural order that turn forward-DCT outputs into quantised coefficients. */
function quantMultipliers(zigzagTable: Uint8Array): Float32Array {
  const multipliers = new Float32Array(64);
  for (let k = 0; k < 64; k++) {
    const position = ZIGZAG[k]!;
    multipliers[position] = 1 / (zigzagTable[k]! * AAN_SCALE[position >> 3]! * AAN_SCALE[position & 7]! * 8);
  }
  return multipliers;
}

class BitWriter {
  out: Uint8Array;
  at = 0;
  private bits = 0;
  private count = 0;

  constructor(size: number) {
    this.out = new Uint8Array(size);
  }

  /** Room for `bytes` more bytes. */
  reserve(bytes: number): void {
    if (this.at + bytes <= this.out.length) return;
    const larger = new Uint8Array(Math.max(this.out.length * 2, this.at + bytes));
    larger.set(this.out.subarray(0, this.at));
    this.out = larger;
  }

  bytes(values: ArrayLike<number>): void {
    this.reserve(values.length);
    for (let index = 0; index < values.length; index++) this.out[this.at++] = values[index]!;
  }

  /** `length` (at most 24) bits of `value`, with a zero stuffed after every 0xFF byte. */
  put(value: number, length: number): void {
    this.bits = (this.bits << length) | (value & ((1 << length) - 1));
    this.count += length;
    while (this.count >= 8) {
      const byte = (this.bits >>> (this.count - 8)) & 255;
      this.out[this.at++] = byte;
      if (byte === 255) this.out[this.at++] = 0;
      this.count -= 8;
    }
  }

  /** Pads the last byte with ones. */
  flush(): void {
    if (this.count > 0) this.put(0x7f, 8 - this.count);
  }
}

const block = new Float64Array(64);
const quantised = new Int32Array(64);

/** Loads the 8×8 block at (`x`, `y`) of a plane, edge pixels repeated past its right and bottom edges, minus 128. */
function loadBlock(plane: Plane, x: number, y: number): void {
  const { width, height, stride, data } = plane;
  const inside = x + 8 <= width && y + 8 <= height;
  for (let row = 0; row < 8; row++) {
    const at = (inside ? y + row : Math.min(y + row, height - 1)) * stride;
    if (inside) {
      const from = at + x;
      for (let column = 0; column < 8; column++) block[row * 8 + column] = data[from + column]! - 128;
    } else {
      for (let column = 0; column < 8; column++) block[row * 8 + column] = data[at + Math.min(x + column, width - 1)]! - 128;
    }
  }
}

/** Transforms, quantises and writes the loaded block; answers its DC value for the next block's prediction. */
function writeBlock(writer: BitWriter, multipliers: Float32Array, previousDc: number, dc: Codes, ac: Codes): number {
  forwardDct(block);
  let last = 0;
  for (let k = 0; k < 64; k++) {
    const position = ZIGZAG[k]!;
    const value = block[position]! * multipliers[position]!;
    // Rounded without a branch, as libjpeg does: quantised coefficients stay well within ±16384.
    const rounded = ((value + 16384.5) | 0) - 16384;
    quantised[k] = rounded;
    last = rounded === 0 ? last : k;
  }
  writer.reserve(512);
  const difference = quantised[0]! - previousDc;
  const magnitude = difference < 0 ? -difference : difference;
  const size = magnitude === 0 ? 0 : 32 - Math.clz32(magnitude);
  writer.put(dc.code[size]!, dc.length[size]!);
  if (size > 0) writer.put(difference < 0 ? difference - 1 : difference, size);
  const codes = ac.code;
  const lengths = ac.length;
  let run = 0;
  for (let k = 1; k <= last; k++) {
    const value = quantised[k]!;
    if (value === 0) { run++; continue; }
    while (run > 15) {
      writer.put(codes[0xf0]!, lengths[0xf0]!);
      run -= 16;
    }
    const absolute = value < 0 ? -value : value;
    const bits = 32 - Math.clz32(absolute);
    const symbol = (run << 4) | bits;
    const length = lengths[symbol]!;
    // One write for the code and its extra bits when they fit the 24 bits a write may hold.
    if (length + bits <= 24) writer.put((codes[symbol]! << bits) | ((value < 0 ? value - 1 : value) & ((1 << bits) - 1)), length + bits);
    else {
      writer.put(codes[symbol]!, length);
      writer.put(value < 0 ? value - 1 : value, bits);
    }
    run = 0;
  }
  if (last < 63) writer.put(codes[0]!, lengths[0]!);
  return quantised[0]!;
}

function segment(marker: number, body: number[]): number[] {
  const length = body.length + 2;
  return [0xff, marker, length >> 8, length & 255, ...body];
}

function huffmanSegmentBody(kind: number, spec: HuffmanSpec): number[] {
  return [kind, ...spec.counts, ...spec.symbols];
}

/**
 * Encodes `width` × `height` planes (Y, or Y, Cb, Cr with chroma of any size: it is averaged to half size first
 * when it is not already) at an IJG `quality`.
 */
export function encodeJpegPlanes(width: number, height: number, planes: readonly Plane[], quality: number): Uint8Array {
  const colour = planes.length >= 3;
  const chromaWidth = Math.ceil(width / 2);
  const chromaHeight = Math.ceil(height / 2);
  const chroma = colour
    ? [planes[1]!, planes[2]!].map((plane) => (plane.width === chromaWidth && plane.height === chromaHeight ? plane
      : resamplePlane(plane, 0, 0, plane.width, plane.height, chromaWidth, chromaHeight)))
    : [];
  const lumaTable = scaledTable(LUMA_QUANT, quality);
  const chromaTable = scaledTable(CHROMA_QUANT, quality);
  const writer = new BitWriter(Math.max(4096, (width * height) >> 2));
  writer.bytes([0xff, 0xd8]);
  writer.bytes(segment(0xe0, [0x4a, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0]));
  writer.bytes(segment(0xdb, colour ? [0, ...lumaTable, 1, ...chromaTable] : [0, ...lumaTable]));
  const components = colour ? [1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1] : [1, 0x11, 0];
  writer.bytes(segment(0xc0, [8, height >> 8, height & 255, width >> 8, width & 255, colour ? 3 : 1, ...components]));
  const tables = [huffmanSegmentBody(0x00, DC_LUMA), huffmanSegmentBody(0x10, AC_LUMA)];
  if (colour) tables.push(huffmanSegmentBody(0x01, DC_CHROMA), huffmanSegmentBody(0x11, AC_CHROMA));
  writer.bytes(segment(0xc4, tables.flat()));
  writer.bytes(segment(0xda, colour ? [3, 1, 0x00, 2, 0x11, 3, 0x11, 0, 63, 0] : [1, 1, 0x00, 0, 63, 0]));

  const luma = planes[0]!;
  const lumaMultipliers = quantMultipliers(lumaTable);
  const chromaMultipliers = quantMultipliers(chromaTable);
  const { dcLuma, acLuma, dcChroma, acChroma } = CODES;
  let dcY = 0;
  let dcCb = 0;
  let dcCr = 0;
  if (!colour) {
    for (let y = 0; y < height; y += 8) {
      for (let x = 0; x < width; x += 8) {
        loadBlock(luma, x, y);
        dcY = writeBlock(writer, lumaMultipliers, dcY, dcLuma, acLuma);
      }
    }
  } else {
    const [blue, red] = chroma as [Plane, Plane];
    for (let y = 0; y < height; y += 16) {
      for (let x = 0; x < width; x += 16) {
        for (let part = 0; part < 4; part++) {
          loadBlock(luma, x + (part & 1) * 8, y + (part >> 1) * 8);
          dcY = writeBlock(writer, lumaMultipliers, dcY, dcLuma, acLuma);
        }
        loadBlock(blue, x >> 1, y >> 1);
        dcCb = writeBlock(writer, chromaMultipliers, dcCb, dcChroma, acChroma);
        loadBlock(red, x >> 1, y >> 1);
        dcCr = writeBlock(writer, chromaMultipliers, dcCr, dcChroma, acChroma);
      }
    }
  }
  writer.flush();
  writer.bytes([0xff, 0xd9]);
  return writer.out.slice(0, writer.at);
}
