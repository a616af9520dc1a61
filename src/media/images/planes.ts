/**
 * Pictures as separate 8-bit planes: Y, Cb and Cr (or Y alone for greyscale), chroma at its own resolution. JPEGs
 * decode to planes and encode from them, so a JPEG resized to JPEG is never converted to RGB nor has its chroma
 * upsampled: area averaging is linear and commutes with the colour transform. RGBA rasters convert to and from.
 */
import { coverage, type Raster } from './raster.js';

export interface Plane {
  width: number;
  height: number;
  /** Bytes from one row to the next (at least `width`). */
  stride: number;
  data: Uint8Array;
}

export const createPlane = (width: number, height: number): Plane => ({ width, height, stride: width, data: new Uint8Array(width * height) });

/**
 * The source rectangle (`sx`, `sy`, `sw` × `sh`, fractions allowed) of a plane averaged by area into a new
 * `width` × `height` plane. One output row at a time: the source rows it covers are summed into one row of
 * floats, then that row is averaged across, so the only buffer besides the result is one row long.
 */
export function resamplePlane(source: Plane, sx: number, sy: number, sw: number, sh: number, width: number, height: number): Plane {
  const vertical = coverage(sy, sh, height, source.height);
  const horizontal = coverage(sx, sw, width, source.width);
  const from = horizontal.starts[0]!;
  const to = Math.min(source.width, horizontal.starts[width - 1]! + horizontal.counts[width - 1]!);
  const span = to - from;
  const row = new Float32Array(span);
  const output = createPlane(width, height);
  const out = output.data;
  const src = source.data;
  const { stride: sourceStride } = source;
  const { starts: hStarts, counts: hCounts, weights: hWeights, stride: hStride } = horizontal;
  for (let y = 0; y < height; y++) {
    const first = vertical.starts[y]!;
    const count = vertical.counts[y]!;
    const weightAt = y * vertical.stride;
    let weight = vertical.weights[weightAt]!;
    let at = first * sourceStride + from;
    for (let x = 0; x < span; x++) row[x] = src[at + x]! * weight;
    for (let tap = 1; tap < count; tap++) {
      weight = vertical.weights[weightAt + tap]!;
      at = (first + tap) * sourceStride + from;
      for (let x = 0; x < span; x++) row[x] = row[x]! + src[at + x]! * weight;
    }
    const outAt = y * width;
    for (let x = 0; x < width; x++) {
      const start = hStarts[x]! - from;
      const taps = hCounts[x]!;
      const base = x * hStride;
      let sum = 0;
      for (let tap = 0; tap < taps; tap++) sum += row[start + tap]! * hWeights[base + tap]!;
      out[outAt + x] = sum + 0.5;
    }
  }
  return output;
}

/** Mirrors left-right and/or top-bottom. */
export function flipPlane(source: Plane, horizontal: boolean, vertical: boolean): Plane {
  const { width, height, stride, data } = source;
  const output = createPlane(width, height);
  const out = output.data;
  for (let y = 0; y < height; y++) {
    const from = (vertical ? height - 1 - y : y) * stride;
    const at = y * width;
    if (!horizontal) out.set(data.subarray(from, from + width), at);
    else for (let x = 0; x < width; x++) out[at + x] = data[from + width - 1 - x]!;
  }
  return output;
}

/** Quarter turns clockwise (1, 2 or 3). */
export function rotatePlane(source: Plane, turns: number): Plane {
  const normalized = ((turns % 4) + 4) % 4;
  if (normalized === 0) return flipPlane(source, false, false);
  if (normalized === 2) return flipPlane(source, true, true);
  const { width, height, stride, data } = source;
  const output = createPlane(height, width);
  const out = output.data;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      // Clockwise: (x, y) → (height - 1 - y, x); counter-clockwise: (x, y) → (y, width - 1 - x).
      const index = normalized === 1 ? x * height + (height - 1 - y) : (width - 1 - x) * height + y;
      out[index] = data[y * stride + x]!;
    }
  }
  return output;
}

/** Planes to RGBA (chroma upsampled by replication), as the editor and the PNG encoder need. */
export function planesToRaster(width: number, height: number, planes: readonly Plane[]): Raster {
  const data = new Uint8ClampedArray(width * height * 4);
  const [luma, blue, red] = planes as [Plane, Plane?, Plane?];
  const columnOf = (plane: Plane) => Int32Array.from({ length: width }, (_, x) => Math.min(plane.width - 1, Math.floor((x * plane.width) / width)));
  const blueColumns = blue ? columnOf(blue) : null;
  const redColumns = red ? columnOf(red) : null;
  for (let y = 0, at = 0; y < height; y++) {
    const lumaRow = y * luma.stride;
    const blueRow = blue ? Math.min(blue.height - 1, Math.floor((y * blue.height) / height)) * blue.stride : 0;
    const redRow = red ? Math.min(red.height - 1, Math.floor((y * red.height) / height)) * red.stride : 0;
    for (let x = 0; x < width; x++, at += 4) {
      const l = luma.data[lumaRow + x]!;
      if (!blue || !red) {
        data[at] = l; data[at + 1] = l; data[at + 2] = l; data[at + 3] = 255;
        continue;
      }
      const cb = blue.data[blueRow + blueColumns![x]!]! - 128;
      const cr = red.data[redRow + redColumns![x]!]! - 128;
      data[at] = l + 1.402 * cr;
      data[at + 1] = l - 0.344136 * cb - 0.714136 * cr;
      data[at + 2] = l + 1.772 * cb;
      data[at + 3] = 255;
    }
  }
  return { width, height, data: new Uint8Array(data.buffer) };
}

/** RGBA to Y at full size and Cb, Cr averaged over 2×2 pixels (alpha is dropped, as JPEG has none). */
export function rasterToPlanes(raster: Raster): Plane[] {
  const { width, height, data } = raster;
  const luma = createPlane(width, height);
  const chromaWidth = Math.ceil(width / 2);
  const chromaHeight = Math.ceil(height / 2);
  const blue = createPlane(chromaWidth, chromaHeight);
  const red = createPlane(chromaWidth, chromaHeight);
  const blueSums = new Float32Array(chromaWidth);
  const redSums = new Float32Array(chromaWidth);
  const counts = new Float32Array(chromaWidth);
  for (let y = 0; y < height; y++) {
    for (let x = 0, at = y * width * 4; x < width; x++, at += 4) {
      const r = data[at]!;
      const g = data[at + 1]!;
      const b = data[at + 2]!;
      luma.data[y * width + x] = 0.299 * r + 0.587 * g + 0.114 * b + 0.5;
      const column = x >> 1;
      blueSums[column] = blueSums[column]! - 0.168736 * r - 0.331264 * g + 0.5 * b;
      redSums[column] = redSums[column]! + 0.5 * r - 0.418688 * g - 0.081312 * b;
      counts[column] = counts[column]! + 1;
    }
    if (y % 2 === 1 || y === height - 1) {
      const row = (y >> 1) * chromaWidth;
      for (let column = 0; column < chromaWidth; column++) {
        blue.data[row + column] = Math.max(0, Math.min(255, blueSums[column]! / counts[column]! + 128.5));
        red.data[row + column] = Math.max(0, Math.min(255, redSums[column]! / counts[column]! + 128.5));
      }
      blueSums.fill(0);
      redSums.fill(0);
      counts.fill(0);
    }
  }
  return [luma, blue, red];
}

/** Turns a plane upright by an EXIF orientation (2-8), as `applyOrientation` turns a raster. */
export function orientPlane(plane: Plane, orientation: number): Plane {
  switch (orientation) {
    case 2: return flipPlane(plane, true, false);
    case 3: return rotatePlane(plane, 2);
    case 4: return flipPlane(plane, false, true);
    case 5: return flipPlane(rotatePlane(plane, 3), false, true);
    case 6: return rotatePlane(plane, 1);
    case 7: return flipPlane(rotatePlane(plane, 3), true, false);
    case 8: return rotatePlane(plane, 3);
    default: return plane;
  }
}
