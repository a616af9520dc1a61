/**
 * Progressive JPEG scans (T.81 G.1.2, as libjpeg's `jdphuff.c`): DC first and refinement scans, AC spectral
 * selection with end-of-band runs and AC successive approximation, all adding to the coefficients each component
 * keeps until the frame ends.
 */
import type { Component, Frame } from './frame.js';
import { JpegError, ScanReader, type DecodingTable } from './scan-reader.js';
import { ZIGZAG } from './tables.js';

interface Band {
  start: number;
  end: number;
  /** Successive approximation: the previous and this scan's point transforms. */
  high: number;
  low: number;
}

class ScanState {
  endOfBands = 0;
}

function dcFirst(reader: ScanReader, component: Component, at: number, band: Band): void {
  const size = reader.decode(component.dcTable!);
  component.prediction += size === 0 ? 0 : reader.receiveExtend(size);
  component.coefficients![at] = component.prediction * (1 << band.low);
}

function dcRefine(reader: ScanReader, component: Component, at: number, band: Band): void {
  const stored = component.coefficients!;
  if (reader.take(1)) stored[at] = stored[at]! | (1 << band.low);
}

/** Notes that the AC coefficient at zigzag position `k` of the block at `at` is set. */
function markSet(nonzero: Uint32Array, at: number, k: number): void {
  const word = (at >> 5) + (k >> 5);
  nonzero[word] = nonzero[word]! | (1 << (k & 31));
}

function acFirst(reader: ScanReader, component: Component, at: number, band: Band, state: ScanState): void {
  if (state.endOfBands > 0) {
    state.endOfBands--;
    return;
  }
  const stored = component.coefficients!;
  const table = component.acTable!;
  for (let k = band.start; k <= band.end; k++) {
    const symbol = reader.decode(table);
    const run = symbol >> 4;
    const size = symbol & 15;
    if (size !== 0) {
      k = Math.min(k + run, 63);
      stored[at + ZIGZAG[k]!] = reader.receiveExtend(size) * (1 << band.low);
      markSet(component.nonzero!, at, k);
    } else if (run === 15) {
      k += 15;
    } else {
      state.endOfBands = (1 << run) - 1 + (run ? reader.take(run) : 0);
      break;
    }
  }
}

/** A set coefficient gets one more bit of its magnitude when the stream says so. */
function refineBit(reader: ScanReader, stored: Int16Array, index: number, plus: number): void {
  const value = stored[index]!;
  if (reader.take(1) && (value & plus) === 0) stored[index] = value >= 0 ? value + plus : value - plus;
}

function acRefine(reader: ScanReader, component: Component, at: number, band: Band, state: ScanState): void {
  const stored = component.coefficients!;
  const table = component.acTable!;
  const plus = 1 << band.low;
  let k = band.start;
  if (state.endOfBands <= 0) {
    for (; k <= band.end; k++) {
      const symbol = reader.decode(table);
      let run = symbol >> 4;
      let value = 0;
      if ((symbol & 15) !== 0) {
        value = reader.take(1) ? plus : -plus;
      } else if (run !== 15) {
        state.endOfBands = (1 << run) + (run ? reader.take(run) : 0);
        break;
      }
      // Skip `run` zero coefficients, refining the set ones passed on the way; the new one goes after them.
      for (; k <= band.end; k++) {
        const index = at + ZIGZAG[k]!;
        if (stored[index] !== 0) refineBit(reader, stored, index, plus);
        else if (--run < 0) break;
      }
      if (value !== 0 && k <= band.end) {
        stored[at + ZIGZAG[k]!] = value;
        markSet(component.nonzero!, at, k);
      }
    }
  }
  if (state.endOfBands > 0) {
    if (k <= band.end) refineSetOnes(reader, component, at, k, band.end, plus);
    state.endOfBands--;
  }
}

/**
 * Inside an end-of-band run: one correction bit for each set coefficient from zigzag position `from` to `to`, in
 * order, found from the block's set-coefficient bits (most positions of a refined band are zero).
 */
function refineSetOnes(reader: ScanReader, component: Component, at: number, from: number, to: number, plus: number): void {
  const stored = component.coefficients!;
  const nonzero = component.nonzero!;
  for (let half = from >> 5; half <= to >> 5; half++) {
    const base = half << 5;
    const lowest = Math.max(from - base, 0);
    const highest = Math.min(to - base, 31);
    let bits = (nonzero[(at >> 5) + half]! & (-1 >>> (31 - highest))) >>> lowest << lowest;
    while (bits !== 0) {
      const low = bits & -bits;
      refineBit(reader, stored, at + ZIGZAG[base + 31 - Math.clz32(low)]!, plus);
      bits ^= low;
    }
  }
}

/** Decodes the progressive scan whose header starts at `at`; answers the position of the marker after its data. */
export function decodeProgressiveScan(
  bytes: Uint8Array, at: number, headerEnd: number, frame: Frame, dcTables: (DecodingTable | undefined)[],
  acTables: (DecodingTable | undefined)[], restartInterval: number,
): number {
  const count = bytes[at]!;
  const band: Band = {
    start: bytes[at + 1 + count * 2]!, end: bytes[at + 2 + count * 2]!,
    high: bytes[at + 3 + count * 2]! >> 4, low: bytes[at + 3 + count * 2]! & 15,
  };
  const dc = band.start === 0;
  if (band.end > 63 || band.start > band.end || band.low > 13 || (dc && band.end !== 0) || (!dc && count !== 1)) {
    throw new JpegError('Bad progressive scan.');
  }
  const components: Component[] = [];
  for (let index = 0; index < count; index++) {
    const component = frame.components.find((candidate) => candidate.id === bytes[at + 1 + index * 2]);
    if (!component) throw new JpegError('Scan of an unknown component.');
    const tables = bytes[at + 2 + index * 2]!;
    component.dcTable = dcTables[tables >> 4] ?? null;
    component.acTable = acTables[tables & 15] ?? null;
    if (dc ? band.high === 0 && !component.dcTable : !component.acTable) throw new JpegError('Missing table.');
    component.prediction = 0;
    components.push(component);
  }
  const state = new ScanState();
  const decode = dc ? (band.high === 0 ? dcFirst : dcRefine) : (band.high === 0 ? acFirst : acRefine);
  const reader = new ScanReader(bytes, headerEnd);
  const single = components.length === 1;
  const only = components[0]!;
  const across = single ? only.blocksWide : frame.mcusAcross;
  const total = across * (single ? only.blocksHigh : frame.mcusDown);
  const block = (component: Component, row: number, column: number) => (row * component.blocksAcross + column) * 64;
  for (let mcu = 0; mcu < total; mcu++) {
    if (restartInterval > 0 && mcu > 0 && mcu % restartInterval === 0) {
      reader.restart();
      state.endOfBands = 0;
      for (const component of components) component.prediction = 0;
    }
    const mcuRow = (mcu / across) | 0;
    const mcuColumn = mcu - mcuRow * across;
    if (single) {
      decode(reader, only, block(only, mcuRow, mcuColumn), band, state);
      continue;
    }
    for (const component of components) {
      for (let v = 0; v < component.v; v++) {
        for (let h = 0; h < component.h; h++) {
          decode(reader, component, block(component, mcuRow * component.v + v, mcuColumn * component.h + h), band, state);
        }
      }
    }
  }
  if (reader.truncated) throw new JpegError('The image data ends early.');
  return reader.nextMarker();
}
