/**
 * Decoding at 3/4, 1/2, 1/4 and 1/8 scale (libjpeg's `scale_num`/8; sharp's shrink-on-load uses the last three):
 * each block's top-left 6×6, 4×4, 2×2 or 1×1 coefficients go through a 6-, 4-, 2- or 1-point inverse DCT, giving
 * that many samples of the same picture. The shorter cosines sample the same continuous basis functions at the centres of the smaller
 * grid, so this is a low-pass resize for free, and fewer samples are ever written.
 */
import { LIMIT } from './idct.js';
import { ZIGZAG } from './tables.js';

/** Block sizes with a reduced transform. */
export const SCALED_SIZES: readonly number[] = [1, 2, 4, 6];

/** A quantisation table given in zigzag order, in natural order. */
export function naturalQuantTable(zigzagTable: ArrayLike<number>): Float64Array {
  const table = new Float64Array(64);
  for (let k = 0; k < 64; k++) table[ZIGZAG[k]!] = zigzagTable[k]!;
  return table;
}

const C1 = Math.cos(Math.PI / 8);
const C2 = Math.SQRT1_2;
const C3 = Math.cos((3 * Math.PI) / 8);
const workspace = new Float64Array(36);
/** cos(kπ/12), for the 6-point transform. */
const S1 = Math.cos(Math.PI / 12);
const S2 = Math.cos((2 * Math.PI) / 12);
const S5 = Math.cos((5 * Math.PI) / 12);

/** Level shift, range-limit table offset and rounding, added before truncating. */
const BIAS = 1152.5;

/**
 * `coefficients` (natural order, not dequantised) to `size` × `size` samples (size 1, 2, 4 or 6) at `offset` of
 * `out`, rows `stride` apart. One dimension of the n-point transform is x(i) = ½·Σ C(u)·F(u)·cos((2i+1)uπ / 2n).
 */
export function idctScaled(coefficients: Int32Array, quant: Float64Array, size: number, out: Uint8Array, offset: number, stride: number): void {
  const c = coefficients;
  const q = quant;
  if (size === 1) {
    out[offset] = LIMIT[((c[0]! * q[0]!) / 8 + BIAS) & 4095]!;
    return;
  }
  if (size === 2) {
    const f00 = c[0]! * q[0]!, f01 = c[1]! * q[1]!, f10 = c[8]! * q[8]!, f11 = c[9]! * q[9]!;
    // Both dimensions: ½·(1/√2) each, so ⅛ overall.
    out[offset] = LIMIT[((f00 + f01 + f10 + f11) / 8 + BIAS) & 4095]!;
    out[offset + 1] = LIMIT[((f00 - f01 + f10 - f11) / 8 + BIAS) & 4095]!;
    out[offset + stride] = LIMIT[((f00 + f01 - f10 - f11) / 8 + BIAS) & 4095]!;
    out[offset + stride + 1] = LIMIT[((f00 - f01 - f10 + f11) / 8 + BIAS) & 4095]!;
    return;
  }
  const ws = workspace;
  if (size === 6) {
    idct6(c, q, out, offset, stride);
    return;
  }
  for (let u = 0; u < 4; u++) {
    const f0 = c[u]! * q[u]! * C2, f1 = c[8 + u]! * q[8 + u]!, f2 = c[16 + u]! * q[16 + u]!, f3 = c[24 + u]! * q[24 + u]!;
    const even0 = f0 + f2 * C2, even1 = f0 - f2 * C2;
    const odd0 = f1 * C1 + f3 * C3, odd1 = f1 * C3 - f3 * C1;
    ws[u] = (even0 + odd0) / 2;
    ws[4 + u] = (even1 + odd1) / 2;
    ws[8 + u] = (even1 - odd1) / 2;
    ws[12 + u] = (even0 - odd0) / 2;
  }
  for (let row = 0; row < 16; row += 4, offset += stride) {
    const f0 = ws[row]! * C2, f1 = ws[row + 1]!, f2 = ws[row + 2]!, f3 = ws[row + 3]!;
    const even0 = f0 + f2 * C2, even1 = f0 - f2 * C2;
    const odd0 = f1 * C1 + f3 * C3, odd1 = f1 * C3 - f3 * C1;
    out[offset] = LIMIT[((even0 + odd0) / 2 + BIAS) & 4095]!;
    out[offset + 1] = LIMIT[((even1 + odd1) / 2 + BIAS) & 4095]!;
    out[offset + 2] = LIMIT[((even1 - odd1) / 2 + BIAS) & 4095]!;
    out[offset + 3] = LIMIT[((even0 - odd0) / 2 + BIAS) & 4095]!;
  }
}

/**
 * The 6-point transform: even terms (u = 0, 2, 4) are symmetric about the middle and odd ones antisymmetric, so
 * x(i) = ½(e(i) + o(i)) and x(5 − i) = ½(e(i) − o(i)) with three of each.
 */
function idct6(c: Int32Array, q: Float64Array, out: Uint8Array, offset: number, stride: number): void {
  const ws = workspace;
  for (let u = 0; u < 6; u++) {
    const f0 = c[u]! * q[u]! * C2, f1 = c[8 + u]! * q[8 + u]!, f2 = c[16 + u]! * q[16 + u]!;
    const f3 = c[24 + u]! * q[24 + u]!, f4 = c[32 + u]! * q[32 + u]!, f5 = c[40 + u]! * q[40 + u]!;
    const even0 = f0 + f2 * S2 + f4 / 2, even1 = f0 - f4, even2 = f0 - f2 * S2 + f4 / 2;
    const odd0 = f1 * S1 + f3 * C2 + f5 * S5, odd1 = (f1 - f3 - f5) * C2, odd2 = f1 * S5 - f3 * C2 + f5 * S1;
    ws[u] = (even0 + odd0) / 2;
    ws[6 + u] = (even1 + odd1) / 2;
    ws[12 + u] = (even2 + odd2) / 2;
    ws[18 + u] = (even2 - odd2) / 2;
    ws[24 + u] = (even1 - odd1) / 2;
    ws[30 + u] = (even0 - odd0) / 2;
  }
  for (let row = 0; row < 36; row += 6, offset += stride) {
    const f0 = ws[row]! * C2, f1 = ws[row + 1]!, f2 = ws[row + 2]!, f3 = ws[row + 3]!, f4 = ws[row + 4]!, f5 = ws[row + 5]!;
    const even0 = f0 + f2 * S2 + f4 / 2, even1 = f0 - f4, even2 = f0 - f2 * S2 + f4 / 2;
    const odd0 = f1 * S1 + f3 * C2 + f5 * S5, odd1 = (f1 - f3 - f5) * C2, odd2 = f1 * S5 - f3 * C2 + f5 * S1;
    out[offset] = LIMIT[((even0 + odd0) / 2 + BIAS) & 4095]!;
    out[offset + 1] = LIMIT[((even1 + odd1) / 2 + BIAS) & 4095]!;
    out[offset + 2] = LIMIT[((even2 + odd2) / 2 + BIAS) & 4095]!;
    out[offset + 3] = LIMIT[((even2 - odd2) / 2 + BIAS) & 4095]!;
    out[offset + 4] = LIMIT[((even1 - odd1) / 2 + BIAS) & 4095]!;
    out[offset + 5] = LIMIT[((even0 - odd0) / 2 + BIAS) & 4095]!;
  }
}
