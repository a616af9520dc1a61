/** The forward DCT of one 8×8 block in place (the floating-point AAN algorithm, as libjpeg's `jfdctflt`). */

export function forwardDct(data: Float32Array): void {
  for (let pass = 0; pass < 2; pass++) {
    // Rows first (elements one apart, rows eight apart), then columns (elements eight apart).
    const step = pass === 0 ? 1 : 8;
    const next = pass === 0 ? 8 : 1;
    for (let line = 0, at = 0; line < 8; line++, at += next) {
      const d0 = data[at]!, d1 = data[at + step]!, d2 = data[at + 2 * step]!, d3 = data[at + 3 * step]!;
      const d4 = data[at + 4 * step]!, d5 = data[at + 5 * step]!, d6 = data[at + 6 * step]!, d7 = data[at + 7 * step]!;
      const tmp0 = d0 + d7, tmp7 = d0 - d7, tmp1 = d1 + d6, tmp6 = d1 - d6;
      const tmp2 = d2 + d5, tmp5 = d2 - d5, tmp3 = d3 + d4, tmp4 = d3 - d4;
      let tmp10 = tmp0 + tmp3;
      const tmp13 = tmp0 - tmp3;
      let tmp11 = tmp1 + tmp2;
      let tmp12 = tmp1 - tmp2;
      data[at] = tmp10 + tmp11;
      data[at + 4 * step] = tmp10 - tmp11;
      const z1 = (tmp12 + tmp13) * 0.707106781;
      data[at + 2 * step] = tmp13 + z1;
      data[at + 6 * step] = tmp13 - z1;
      tmp10 = tmp4 + tmp5;
      tmp11 = tmp5 + tmp6;
      tmp12 = tmp6 + tmp7;
      const z5 = (tmp10 - tmp12) * 0.382683433;
      const z2 = 0.5411961 * tmp10 + z5;
      const z4 = 1.306562965 * tmp12 + z5;
      const z3 = tmp11 * 0.707106781;
      const z11 = tmp7 + z3;
      const z13 = tmp7 - z3;
      data[at + 5 * step] = z13 + z2;
      data[at + 3 * step] = z13 - z2;
      data[at + step] = z11 + z4;
      data[at + 7 * step] = z11 - z4;
    }
  }
}
