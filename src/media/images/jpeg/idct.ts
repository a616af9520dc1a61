/**
 * The inverse DCT of one 8×8 block (the floating-point AAN algorithm, as libjpeg's `jidctflt`), writing level-shifted
 * samples straight into a plane. Dequantisation, the AAN scale factors and the final division by 8 are folded into
 * one multiplier table per quantisation table.
 */
import { AAN_SCALE, ZIGZAG } from './tables.js';

/** Multipliers in natural order for a quantisation table given in zigzag order. */
export function idctMultipliers(zigzagTable: ArrayLike<number>): Float32Array {
  const multipliers = new Float32Array(64);
  for (let k = 0; k < 64; k++) {
    const position = ZIGZAG[k]!;
    multipliers[position] = (zigzagTable[k]! * AAN_SCALE[position >> 3]! * AAN_SCALE[position & 7]!) / 8;
  }
  return multipliers;
}

const workspace = new Float64Array(64);

/**
 * Samples clamped to 0-255 by lookup, indexed by the rounded sample plus 1024 (libjpeg's range limit): no branch
 * per sample. Wildly out-of-range values (corrupt files only) wrap around the table instead.
 */
export const LIMIT = Uint8Array.from({ length: 4096 }, (_, index) => Math.max(0, Math.min(255, index - 1024)));

/**
 * `coefficients` (natural order, not yet dequantised) to samples at `offset` of `out` (rows `stride` apart).
 */
export function idctBlock(coefficients: Int32Array, multipliers: Float32Array, out: Uint8Array, offset: number, stride: number): void {
  const ws = workspace;
  for (let column = 0; column < 8; column++) {
    const c = coefficients;
    const m = multipliers;
    if (c[column + 8] === 0 && c[column + 16] === 0 && c[column + 24] === 0 && c[column + 32] === 0
      && c[column + 40] === 0 && c[column + 48] === 0 && c[column + 56] === 0) {
      const dc = c[column]! * m[column]!;
      ws[column] = dc; ws[column + 8] = dc; ws[column + 16] = dc; ws[column + 24] = dc;
      ws[column + 32] = dc; ws[column + 40] = dc; ws[column + 48] = dc; ws[column + 56] = dc;
      continue;
    }
    let tmp0 = c[column]! * m[column]!;
    let tmp1 = c[column + 16]! * m[column + 16]!;
    let tmp2 = c[column + 32]! * m[column + 32]!;
    let tmp3 = c[column + 48]! * m[column + 48]!;
    let tmp10 = tmp0 + tmp2;
    let tmp11 = tmp0 - tmp2;
    let tmp13 = tmp1 + tmp3;
    let tmp12 = (tmp1 - tmp3) * 1.414213562 - tmp13;
    tmp0 = tmp10 + tmp13;
    tmp3 = tmp10 - tmp13;
    tmp1 = tmp11 + tmp12;
    tmp2 = tmp11 - tmp12;
    let tmp4 = c[column + 8]! * m[column + 8]!;
    let tmp5 = c[column + 24]! * m[column + 24]!;
    let tmp6 = c[column + 40]! * m[column + 40]!;
    let tmp7 = c[column + 56]! * m[column + 56]!;
    const z13 = tmp6 + tmp5;
    const z10 = tmp6 - tmp5;
    const z11 = tmp4 + tmp7;
    const z12 = tmp4 - tmp7;
    tmp7 = z11 + z13;
    tmp11 = (z11 - z13) * 1.414213562;
    const z5 = (z10 + z12) * 1.847759065;
    tmp10 = 1.0823922 * z12 - z5;
    tmp12 = -2.61312593 * z10 + z5;
    tmp6 = tmp12 - tmp7;
    tmp5 = tmp11 - tmp6;
    tmp4 = tmp10 + tmp5;
    ws[column] = tmp0 + tmp7;
    ws[column + 56] = tmp0 - tmp7;
    ws[column + 8] = tmp1 + tmp6;
    ws[column + 48] = tmp1 - tmp6;
    ws[column + 16] = tmp2 + tmp5;
    ws[column + 40] = tmp2 - tmp5;
    ws[column + 32] = tmp3 + tmp4;
    ws[column + 24] = tmp3 - tmp4;
  }
  for (let row = 0; row < 64; row += 8, offset += stride) {
    // 128 for the level shift, 1024 for the table and 0.5 so that truncating rounds.
    let tmp10 = ws[row]! + ws[row + 4]! + 1152.5;
    let tmp11 = ws[row]! - ws[row + 4]! + 1152.5;
    let tmp13 = ws[row + 2]! + ws[row + 6]!;
    let tmp12 = (ws[row + 2]! - ws[row + 6]!) * 1.414213562 - tmp13;
    const tmp0 = tmp10 + tmp13;
    const tmp3 = tmp10 - tmp13;
    const tmp1 = tmp11 + tmp12;
    const tmp2 = tmp11 - tmp12;
    const z13 = ws[row + 5]! + ws[row + 3]!;
    const z10 = ws[row + 5]! - ws[row + 3]!;
    const z11 = ws[row + 1]! + ws[row + 7]!;
    const z12 = ws[row + 1]! - ws[row + 7]!;
    const tmp7 = z11 + z13;
    tmp11 = (z11 - z13) * 1.414213562;
    const z5 = (z10 + z12) * 1.847759065;
    tmp10 = 1.0823922 * z12 - z5;
    tmp12 = -2.61312593 * z10 + z5;
    const tmp6 = tmp12 - tmp7;
    const tmp5 = tmp11 - tmp6;
    const tmp4 = tmp10 + tmp5;
    out[offset] = LIMIT[((tmp0 + tmp7) | 0) & 4095]!;
    out[offset + 7] = LIMIT[((tmp0 - tmp7) | 0) & 4095]!;
    out[offset + 1] = LIMIT[((tmp1 + tmp6) | 0) & 4095]!;
    out[offset + 6] = LIMIT[((tmp1 - tmp6) | 0) & 4095]!;
    out[offset + 2] = LIMIT[((tmp2 + tmp5) | 0) & 4095]!;
    out[offset + 5] = LIMIT[((tmp2 - tmp5) | 0) & 4095]!;
    out[offset + 4] = LIMIT[((tmp3 + tmp4) | 0) & 4095]!;
    out[offset + 3] = LIMIT[((tmp3 - tmp4) | 0) & 4095]!;
  }
}
