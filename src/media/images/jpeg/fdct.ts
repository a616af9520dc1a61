/** The forward DCT of one 8×8 block in place (the floating-point AAN algorithm, as libjpeg's `jfdctflt`). */

/** One 8-point pass over `data` at `at`, elements `step` apart (1 for a row, 8 for a column). */
function pass(data: Float64Array, at: number, step: number): void {
  const d0 = data[at]!, d1 = data[at + step]!, d2 = data[at + 2 * step]!, d3 = data[at + 3 * step]!;
  const d4 = data[at + 4 * step]!, d5 = data[at + 5 * step]!, d6 = data[at + 6 * step]!, d7 = data[at + 7 * step]!;
  const tmp0 = d0 + d7, tmp7 = d0 - d7, tmp1 = d1 + d6, tmp6 = d1 - d6;
  const tmp2 = d2 + d5, tmp5 = d2 - d5, tmp3 = d3 + d4, tmp4 = d3 - d4;
  const tmp10 = tmp0 + tmp3;
  const tmp13 = tmp0 - tmp3;
  const tmp11 = tmp1 + tmp2;
  const tmp12 = tmp1 - tmp2;
  data[at] = tmp10 + tmp11;
  data[at + 4 * step] = tmp10 - tmp11;
  const z1 = (tmp12 + tmp13) * 0.707106781;
  data[at + 2 * step] = tmp13 + z1;
  data[at + 6 * step] = tmp13 - z1;
  const odd10 = tmp4 + tmp5;
  const odd11 = tmp5 + tmp6;
  const odd12 = tmp6 + tmp7;
  const z5 = (odd10 - odd12) * 0.382683433;
  const z2 = 0.5411961 * odd10 + z5;
  const z4 = 1.306562965 * odd12 + z5;
  const z3 = odd11 * 0.707106781;
  const z11 = tmp7 + z3;
  const z13 = tmp7 - z3;
  data[at + 5 * step] = z13 + z2;
  data[at + 3 * step] = z13 - z2;
  data[at + step] = z11 + z4;
  data[at + 7 * step] = z11 - z4;
}

export function forwardDct(data: Float64Array): void {
  for (let row = 0; row < 64; row += 8) pass(data, row, 1);
  for (let column = 0; column < 8; column++) pass(data, column, 8);
}
