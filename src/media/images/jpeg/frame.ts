/** The decoder's picture of a JPEG frame, shared by the baseline and the progressive scan decoders. */
import type { Plane } from '../planes.js';
import type { DecodingTable } from './scan-reader.js';

export interface Component {
  id: number;
  h: number;
  v: number;
  quant: number;
  plane: Plane;
  /** The plane's bytes, for filling flat blocks with rounding. */
  clamped: Uint8ClampedArray;
  /** Blocks across in the plane's storage (whole MCUs). */
  blocksAcross: number;
  /** Blocks the component's own samples need across and down (a scan of it alone covers these). */
  blocksWide: number;
  blocksHigh: number;
  /** Progressive frames: every block's coefficients, 64 each, until the last scan. */
  coefficients: Int16Array | null;
  /**
   * Progressive frames: which AC coefficients of each block are set, by zigzag position (two words a block,
   * positions 0-31 and 32-63), so refinement scans visit the set ones instead of every position.
   */
  nonzero: Uint32Array | null;
  dcTable: DecodingTable | null;
  acTable: DecodingTable | null;
  prediction: number;
}

/** A quantisation table as the full-size and the scaled inverse transforms use it. */
export interface QuantTable {
  multipliers: Float32Array;
  natural: Float64Array;
}

export interface Frame {
  /** Samples per block side: 8, or 4, 2, 1 when decoding at 1/2, 1/4, 1/8 scale. */
  size: number;
  progressive: boolean;
  width: number;
  height: number;
  hMax: number;
  vMax: number;
  mcusAcross: number;
  mcusDown: number;
  components: Component[];
}
