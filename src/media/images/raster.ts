/**
 * Pixels as 8-bit RGBA rows, and the geometric operations the media module needs: area-averaging resampling
 * (the quality of the reference's `imagecopyresampled` when shrinking), crops, flips and quarter turns.
 * Rotation by other angles is in `codec.ts`, with the image library.
 */

export interface Raster {
  width: number;
  height: number;
  /** RGBA, row by row, `width * height * 4` bytes. */
  data: Uint8Array;
}

/** The pixels as one 32-bit word each (copied when the bytes are not 4-aligned). */
function pixelWords(data: Uint8Array): Uint32Array {
  const aligned = data.byteOffset % 4 === 0 ? data : data.slice();
  return new Uint32Array(aligned.buffer, aligned.byteOffset, aligned.byteLength / 4);
}

export function createRaster(width: number, height: number): Raster {
  return { width, height, data: new Uint8Array(width * height * 4) };
}

/** Whether every pixel is fully opaque. */
export function isOpaque(raster: Raster): boolean {
  const { data } = raster;
  for (let index = 3; index < data.length; index += 4) if (data[index] !== 255) return false;
  return true;
}

export interface Weights {
  /** For each output position: the first source index and the weights of the source pixels it covers. */
  starts: Int32Array;
  counts: Int32Array;
  weights: Float32Array;
  stride: number;
}

/**
 * How each of `outputLength` pixels covers the source span [`start`, `start + length`): box weights by overlap,
 * which averages every source pixel when shrinking and interpolates nothing when enlarging (nearest coverage).
 */
export function coverage(start: number, length: number, outputLength: number, sourceSize: number): Weights {
  const scale = length / outputLength;
  const stride = Math.ceil(scale) + 2;
  const starts = new Int32Array(outputLength);
  const counts = new Int32Array(outputLength);
  const weights = new Float32Array(outputLength * stride);
  for (let output = 0; output < outputLength; output++) {
    const from = start + output * scale;
    const to = from + scale;
    let first = Math.floor(from);
    const last = Math.min(Math.ceil(to), sourceSize);
    first = Math.max(first, 0);
    let total = 0;
    let count = 0;
    for (let source = first; source < last && count < stride; source++) {
      const overlap = Math.min(to, source + 1) - Math.max(from, source);
      if (overlap <= 0) continue;
      if (count === 0) starts[output] = source;
      weights[output * stride + count] = overlap;
      total += overlap;
      count++;
    }
    if (count === 0) {
      starts[output] = Math.min(Math.max(Math.floor(from), 0), sourceSize - 1);
      weights[output * stride] = 1;
      total = 1;
      count = 1;
    }
    for (let index = 0; index < count; index++) weights[output * stride + index]! /= total;
    counts[output] = count;
  }
  return { starts, counts, weights, stride };
}

/**
 * Copies the source rectangle (`sx`, `sy`, `sw` × `sh`) into a new `dw` × `dh` raster, resampling by area.
 * Colour channels are weighted by alpha so transparent pixels do not bleed their colour into the result. One
 * output row at a time: the source rows it covers are summed into one row of floats, then averaged across, so
 * the only buffer besides the result is one row long.
 */
export function resample(source: Raster, sx: number, sy: number, sw: number, sh: number, dw: number, dh: number): Raster {
  const vertical = coverage(sy, sh, dh, source.height);
  const horizontal = coverage(sx, sw, dw, source.width);
  const columnsFrom = Math.max(0, Math.floor(sx));
  const columnsTo = Math.min(source.width, Math.ceil(sx + sw) + 1);
  const span = columnsTo - columnsFrom;
  const row = new Float64Array(span * 4);
  const src = source.data;
  const output = createRaster(dw, dh);
  const out = output.data;
  for (let y = 0; y < dh; y++) {
    // Down: the covered source rows, premultiplied by alpha.
    row.fill(0);
    const start = vertical.starts[y]!;
    const count = vertical.counts[y]!;
    for (let tap = 0; tap < count; tap++) {
      const weight = vertical.weights[y * vertical.stride + tap]!;
      let sourceIndex = ((start + tap) * source.width + columnsFrom) * 4;
      for (let target = 0; target < span * 4; target += 4, sourceIndex += 4) {
        const alphaWeight = weight * src[sourceIndex + 3]!;
        row[target] = row[target]! + src[sourceIndex]! * alphaWeight;
        row[target + 1] = row[target + 1]! + src[sourceIndex + 1]! * alphaWeight;
        row[target + 2] = row[target + 2]! + src[sourceIndex + 2]! * alphaWeight;
        row[target + 3] = row[target + 3]! + alphaWeight;
      }
    }
    // Across.
    for (let x = 0; x < dw; x++) {
      const first = horizontal.starts[x]! - columnsFrom;
      const taps = horizontal.counts[x]!;
      let red = 0;
      let green = 0;
      let blue = 0;
      let alpha = 0;
      for (let tap = 0; tap < taps; tap++) {
        const weight = horizontal.weights[x * horizontal.stride + tap]!;
        const index = (first + tap) * 4;
        red += row[index]! * weight;
        green += row[index + 1]! * weight;
        blue += row[index + 2]! * weight;
        alpha += row[index + 3]! * weight;
      }
      const target = (y * dw + x) * 4;
      if (alpha > 0) {
        out[target] = Math.min(255, Math.round(red / alpha));
        out[target + 1] = Math.min(255, Math.round(green / alpha));
        out[target + 2] = Math.min(255, Math.round(blue / alpha));
      }
      out[target + 3] = Math.min(255, Math.round(alpha));
    }
  }
  return output;
}

/** An exact pixel copy of a rectangle, clipped to the image. */
export function crop(source: Raster, x: number, y: number, width: number, height: number): Raster {
  const output = createRaster(width, height);
  for (let row = 0; row < height; row++) {
    const sourceRow = y + row;
    if (sourceRow < 0 || sourceRow >= source.height) continue;
    const from = Math.max(0, x);
    const to = Math.min(source.width, x + width);
    if (to <= from) continue;
    output.data.set(source.data.subarray((sourceRow * source.width + from) * 4, (sourceRow * source.width + to) * 4), (row * width + (from - x)) * 4);
  }
  return output;
}

/** Mirrors left-right (`horizontal`) and/or top-bottom (`vertical`). */
export function flip(source: Raster, horizontal: boolean, vertical: boolean): Raster {
  const { width, height } = source;
  const output = createRaster(width, height);
  const pixels = pixelWords(source.data);
  const target = new Uint32Array(output.data.buffer);
  for (let y = 0; y < height; y++) {
    const fromRow = vertical ? height - 1 - y : y;
    for (let x = 0; x < width; x++) {
      target[y * width + x] = pixels[fromRow * width + (horizontal ? width - 1 - x : x)]!;
    }
  }
  return output;
}

/** Quarter turns clockwise (1, 2 or 3), exact. */
export function rotateQuarterTurns(source: Raster, turns: number): Raster {
  const normalized = ((turns % 4) + 4) % 4;
  if (normalized === 0) return { ...source, data: source.data.slice() };
  if (normalized === 2) return flip(source, true, true);
  const { width, height } = source;
  const output = createRaster(height, width);
  const pixels = pixelWords(source.data);
  const target = new Uint32Array(output.data.buffer);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      // Clockwise: (x, y) → (height - 1 - y, x); counter-clockwise: (x, y) → (y, width - 1 - x).
      const index = normalized === 1 ? x * height + (height - 1 - y) : (width - 1 - x) * height + y;
      target[index] = pixels[y * width + x]!;
    }
  }
  return output;
}
