/**
 * A JPEG decoder (8-bit Huffman, baseline as cameras write and progressive as the web does) that produces the
 * components as planes at their own resolution (Y full, chroma as sampled), with no colour conversion and no
 * upsampling: the resizer and the encoder work on those planes directly. Baseline blocks are dequantised and
 * inverse transformed as soon as they are read, so no coefficient buffer the size of the image exists; progressive
 * frames keep every block's coefficients until their last scan. Files it does not handle (arithmetic, lossless,
 * 12-bit, CMYK or RGB) answer `null` and go to the general decoder.
 */
import type { Plane } from '../planes.js';
import type { Component, Frame, QuantTable } from './frame.js';
import { decodeProgressiveScan } from './progressive.js';
import { idctBlock, idctMultipliers } from './idct.js';
import { idctScaled, naturalQuantTable, SCALED_SIZES } from './idct-scaled.js';
import { ZIGZAG } from './tables.js';
import { buildDecodingTable, JpegError, ScanReader, type DecodingTable } from './scan-reader.js';

export { JpegError };

export interface DecodedJpeg {
  width: number;
  height: number;
  /** One plane (greyscale) or three (Y, Cb, Cr). */
  planes: Plane[];
}

/** Progressive files have about ten scans (libjpeg's default script); more than this is an attack. */
const MAX_PROGRESSIVE_SCANS = 100;

const u16 = (bytes: Uint8Array, at: number) => (bytes[at]! << 8) | bytes[at + 1]!;

export interface DecodeOptions {
  /** Decode at `scale`/8 of the size (8, the default, or 4, 2, 1): each 8×8 block becomes `scale` × `scale` samples. */
  scale?: number;
  maxPixels?: number;
}

/**
 * Decodes `bytes` when it is a baseline JPEG this decoder handles; `null` otherwise. Throws `JpegError` on corrupt
 * data. At a reduced scale the picture is `ceil(width · scale / 8)` × `ceil(height · scale / 8)`.
 */
export function decodeBaselineJpeg(bytes: Uint8Array, options: DecodeOptions = {}): DecodedJpeg | null {
  const size = SCALED_SIZES.includes(options.scale ?? 8) ? options.scale! : 8;
  const maxPixels = options.maxPixels ?? Infinity;
  if (bytes[0] !== 0xff || bytes[1] !== 0xd8) throw new JpegError('Not a JPEG file.');
  const quantTables: (QuantTable | undefined)[] = [];
  const dcTables: (DecodingTable | undefined)[] = [];
  const acTables: (DecodingTable | undefined)[] = [];
  let frame: Frame | null = null;
  let restartInterval = 0;
  let adobeTransform = -1;
  let position = 2;
  let scanned = false;
  let scans = 0;
  while (position < bytes.length) {
    if (bytes[position] !== 0xff) { position++; continue; }
    const marker = bytes[position + 1]!;
    position += 2;
    if (marker === 0xff || marker === 0x00 || (marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) { if (marker === 0xff) position--; continue; }
    if (marker === 0xd9) break;
    if (position + 2 > bytes.length) throw new JpegError('Truncated JPEG header.');
    const length = u16(bytes, position);
    const end = position + length;
    if (length < 2 || end > bytes.length) throw new JpegError('Truncated JPEG segment.');
    const at = position + 2;
    switch (marker) {
      case 0xdb: readQuantTables(bytes, at, end, quantTables); break;
      case 0xc4: readHuffmanTables(bytes, at, end, dcTables, acTables); break;
      case 0xdd: restartInterval = u16(bytes, at); break;
      case 0xee:
        if (bytes[at] === 0x41 && bytes[at + 1] === 0x64 && bytes[at + 2] === 0x6f && bytes[at + 3] === 0x62 && bytes[at + 4] === 0x65) adobeTransform = bytes[at + 11] ?? -1;
        break;
      case 0xc0: case 0xc1: case 0xc2:
        if (frame) throw new JpegError('More than one frame.');
        frame = readFrame(bytes, at, maxPixels, size, marker === 0xc2);
        if (!frame) return null;
        if (frame.components.length === 3 && (adobeTransform === 0 || frame.components.map((c) => c.id).join() === '82,71,66')) return null;
        break;
      case 0xc3: case 0xc5: case 0xc6: case 0xc7: case 0xc9: case 0xca: case 0xcb: case 0xcd: case 0xce: case 0xcf:
        return null;
      case 0xda: {
        if (!frame) throw new JpegError('Scan before frame.');
        // Each scan walks every block: a file of endless empty scans must not keep a worker busy.
        if (++scans > (frame.progressive ? MAX_PROGRESSIVE_SCANS : frame.components.length)) throw new JpegError('Too many scans.');
        scanned = true;
        position = frame.progressive
          ? decodeProgressiveScan(bytes, at, end, frame, dcTables, acTables, restartInterval)
          : decodeScan(bytes, at, end, frame, quantTables, dcTables, acTables, restartInterval);
        continue;
      }
      default: break;
    }
    position = end;
  }
  if (!frame || !scanned) throw new JpegError('No image data.');
  if (frame.progressive) outputCoefficients(frame, quantTables);
  const scaled = (length: number) => Math.ceil((length * size) / 8);
  return { width: scaled(frame.width), height: scaled(frame.height), planes: frame.components.map((component) => component.plane) };
}

function readQuantTables(bytes: Uint8Array, at: number, end: number, tables: (QuantTable | undefined)[]): void {
  while (at < end) {
    const precision = bytes[at]! >> 4;
    const id = bytes[at]! & 15;
    at++;
    const values = new Uint16Array(64);
    for (let k = 0; k < 64; k++) {
      values[k] = precision ? u16(bytes, at + 2 * k) : bytes[at + k]!;
    }
    at += precision ? 128 : 64;
    if (id > 3 || at > end) throw new JpegError('Bad quantisation table.');
    tables[id] = { multipliers: idctMultipliers(values), natural: naturalQuantTable(values) };
  }
}

function readHuffmanTables(bytes: Uint8Array, at: number, end: number, dc: (DecodingTable | undefined)[], ac: (DecodingTable | undefined)[]): void {
  while (at < end) {
    const kind = bytes[at]! >> 4;
    const id = bytes[at]! & 15;
    const counts = Array.from(bytes.subarray(at + 1, at + 17));
    const total = counts.reduce((sum, count) => sum + count, 0);
    const symbols = Array.from(bytes.subarray(at + 17, at + 17 + total));
    at += 17 + total;
    if (id > 3 || kind > 1 || at > end || counts.length < 16) throw new JpegError('Bad Huffman table.');
    (kind === 0 ? dc : ac)[id] = buildDecodingTable(counts, symbols);
  }
}

function readFrame(bytes: Uint8Array, at: number, maxPixels: number, size: number, progressive: boolean): Frame | null {
  if (bytes[at] !== 8) return null;
  const height = u16(bytes, at + 1);
  const width = u16(bytes, at + 3);
  const count = bytes[at + 5]!;
  if (count !== 1 && count !== 3) return null;
  if (width === 0 || height === 0) return null;
  if (width * height > maxPixels) throw new JpegError('The image has too many pixels.');
  const specs = Array.from({ length: count }, (_, index) => {
    const offset = at + 6 + index * 3;
    return { id: bytes[offset]!, h: bytes[offset + 1]! >> 4, v: bytes[offset + 1]! & 15, quant: bytes[offset + 2]! };
  });
  if (specs.some((spec) => spec.h < 1 || spec.h > 4 || spec.v < 1 || spec.v > 4 || spec.quant > 3)) throw new JpegError('Bad frame header.');
  const hMax = Math.max(...specs.map((spec) => spec.h));
  const vMax = Math.max(...specs.map((spec) => spec.v));
  const mcusAcross = Math.ceil(width / (8 * hMax));
  const mcusDown = Math.ceil(height / (8 * vMax));
  const components = specs.map((spec): Component => {
    const blocksAcross = mcusAcross * spec.h;
    const stride = blocksAcross * size;
    const data = new Uint8Array(stride * mcusDown * spec.v * size);
    const planeWidth = Math.ceil((Math.ceil((width * spec.h) / hMax) * size) / 8);
    const planeHeight = Math.ceil((Math.ceil((height * spec.v) / vMax) * size) / 8);
    const plane = { width: planeWidth, height: planeHeight, stride, data };
    const clamped = new Uint8ClampedArray(data.buffer);
    const blocksWide = Math.ceil(Math.ceil((width * spec.h) / hMax) / 8);
    const blocksHigh = Math.ceil(Math.ceil((height * spec.v) / vMax) / 8);
    const blocks = blocksAcross * mcusDown * spec.v;
    const coefficients = progressive ? new Int16Array(blocks * 64) : null;
    const nonzero = progressive ? new Uint32Array(blocks * 2) : null;
    return { ...spec, plane, clamped, blocksAcross, blocksWide, blocksHigh, coefficients, nonzero, dcTable: null, acTable: null, prediction: 0 };
  });
  return { size, progressive, width, height, hMax, vMax, mcusAcross, mcusDown, components };
}

const coefficients = new Int32Array(64);

function decodeBlock(reader: ScanReader, frame: Frame, component: Component, quant: QuantTable, row: number, column: number): void {
  const dcSize = reader.decode(component.dcTable!);
  component.prediction += dcSize === 0 ? 0 : reader.receiveExtend(dcSize);
  const c = coefficients;
  c[0] = component.prediction;
  const ac = component.acTable!;
  let k = 1;
  while (k < 64) {
    const fast = reader.fastAc(ac);
    if (fast !== 0) {
      k += (fast >> 8) & 255;
      c[ZIGZAG[k]!] = fast >> 16;
      k++;
      continue;
    }
    const symbol = reader.decode(ac);
    const size = symbol & 15;
    const run = symbol >> 4;
    if (size === 0) {
      if (run !== 15) break;
      k += 16;
      continue;
    }
    k += run;
    c[ZIGZAG[k]!] = reader.receiveExtend(size);
    k++;
  }
  outputBlock(frame, component, quant, row, column, k === 1);
}

/** The samples of the block in `coefficients` (then cleared); `flat` when only its DC coefficient may be set. */
function outputBlock(frame: Frame, component: Component, quant: QuantTable, row: number, column: number, flat: boolean): void {
  const c = coefficients;
  const stride = component.plane.stride;
  const size = frame.size;
  const offset = (row * stride + column) * size;
  if (flat) {
    // Only the DC coefficient: a flat block (common in smooth areas and in chroma).
    const value = c[0]! * quant.multipliers[0]! + 128;
    const out = component.clamped;
    for (let y = 0, at = offset; y < size; y++, at += stride) out.fill(value, at, at + size);
    c[0] = 0;
    return;
  }
  if (size < 8) idctScaled(c, quant.natural, size, component.plane.data, offset, stride);
  else idctBlock(c, quant.multipliers, component.plane.data, offset, stride);
  c.fill(0);
}

/** After the last scan of a progressive frame: every stored block to samples. */
function outputCoefficients(frame: Frame, quantTables: (QuantTable | undefined)[]): void {
  for (const component of frame.components) {
    const quant = quantTables[component.quant];
    const stored = component.coefficients!;
    const nonzero = component.nonzero!;
    if (!quant) throw new JpegError('Missing table.');
    const blocksDown = stored.length / 64 / component.blocksAcross;
    for (let row = 0; row < blocksDown; row++) {
      for (let column = 0; column < component.blocksAcross; column++) {
        const at = (row * component.blocksAcross + column) * 64;
        const flat = nonzero[at >> 5] === 0 && nonzero[(at >> 5) + 1] === 0;
        if (flat) coefficients[0] = stored[at]!;
        else coefficients.set(stored.subarray(at, at + 64));
        outputBlock(frame, component, quant, row, column, flat);
      }
    }
    component.coefficients = null;
    component.nonzero = null;
  }
}

/** Decodes the scan whose header starts at `at`; answers the position of the marker after its data. */
function decodeScan(
  bytes: Uint8Array, at: number, headerEnd: number, frame: Frame, quantTables: (QuantTable | undefined)[],
  dcTables: (DecodingTable | undefined)[], acTables: (DecodingTable | undefined)[], restartInterval: number,
): number {
  const count = bytes[at]!;
  const components: Component[] = [];
  for (let index = 0; index < count; index++) {
    const id = bytes[at + 1 + index * 2]!;
    const tables = bytes[at + 2 + index * 2]!;
    const component = frame.components.find((candidate) => candidate.id === id);
    if (!component) throw new JpegError('Scan of an unknown component.');
    component.dcTable = dcTables[tables >> 4] ?? null;
    component.acTable = acTables[tables & 15] ?? null;
    if (!component.dcTable || !component.acTable || !quantTables[component.quant]) throw new JpegError('Missing table.');
    components.push(component);
  }
  if (components.length === 0) throw new JpegError('Empty scan.');
  const quants = components.map((component) => quantTables[component.quant]!);
  for (const component of components) component.prediction = 0;
  const reader = new ScanReader(bytes, headerEnd);
  const single = components.length === 1;
  const only = components[0]!;
  const across = single ? only.blocksWide : frame.mcusAcross;
  const down = single ? only.blocksHigh : frame.mcusDown;
  const total = across * down;
  for (let mcu = 0; mcu < total; mcu++) {
    if (restartInterval > 0 && mcu > 0 && mcu % restartInterval === 0) {
      reader.restart();
      for (const component of components) component.prediction = 0;
    }
    const mcuRow = (mcu / across) | 0;
    const mcuColumn = mcu - mcuRow * across;
    if (single) {
      decodeBlock(reader, frame, only, quants[0]!, mcuRow, mcuColumn);
      continue;
    }
    for (let index = 0; index < components.length; index++) {
      const component = components[index]!;
      for (let v = 0; v < component.v; v++) {
        for (let h = 0; h < component.h; h++) {
          decodeBlock(reader, frame, component, quants[index]!, mcuRow * component.v + v, mcuColumn * component.h + h);
        }
      }
    }
  }
  if (reader.truncated) throw new JpegError('The image data ends early.');
  return reader.nextMarker();
}
