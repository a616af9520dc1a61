/**
 * One image job, run by a codec in a worker thread (or on the main thread where there are none): one decode of
 * the source, then every planned file made from the cheapest picture in hand (see `plan.ts`) and encoded. Sizes
 * are made largest first, so each smaller one can come from a made one (the cascade); the result lists them in
 * creation order. The caller stores the files; nothing here touches storage.
 */
import type { ImageCodec, Picture } from './codecs/port.js';
import { ImageDecodeError } from './codec.js';
import { applyModifiers, type Modifier } from './edit.js';
import { readImageHeader } from './header.js';
import { applyOrientation, swapsSides } from './orientation.js';
import { chooseParent, covers, largestFirst, neededScale, planRender, rectIn, type RenderPlan } from './plan.js';
import type { ImageSize } from './sizes.js';

export interface RenderJob {
  bytes: Uint8Array;
  type: string;
  /** EXIF orientation of `bytes` (1-8), read from its header. */
  orientation: number;
  /** Editor modifiers applied to the upright picture first; the result is encoded as `type` and the files are made from it. */
  edit?: { modifiers: Modifier[]; type: string; quality: number };
  /** Whether a `-scaled` or `-rotated` main file may be made. */
  main: boolean;
  /** Sizes to make, in creation order. */
  sizes: [string, ImageSize][];
  bigImageThreshold: number;
  /** Type and JPEG quality of the made files. */
  output: { type: string; quality: number };
}

export interface RenderedFile {
  bytes: Uint8Array;
  width: number;
  height: number;
  type: string;
}

export interface RenderResult {
  /** Upright size of the picture the files were made from (the edited one for edits). */
  width: number;
  height: number;
  edited: RenderedFile | null;
  main: (RenderedFile & { suffix: 'scaled' | 'rotated' }) | null;
  sizes: (RenderedFile & { name: string })[];
}

/**
 * The buffers of a result that can be handed between threads without a copy: those each file has to itself
 * (a small Buffer may sit in a shared pool, which must stay behind and is copied instead).
 */
export function resultBuffers(result: RenderResult): ArrayBuffer[] {
  const files = [result.edited, result.main, ...result.sizes].filter((file) => file !== null);
  const whole = files.filter((file) => file.bytes.byteOffset === 0 && file.bytes.byteLength === file.bytes.buffer.byteLength);
  const buffers = whole.map((file) => file.bytes.buffer as ArrayBuffer);
  return buffers.length === new Set(buffers).size ? buffers : [];
}

interface Source {
  /** Upright size of the original. */
  width: number;
  height: number;
  orientation: number;
  type: string;
  decode: (minScale: number) => Promise<Picture>;
  edited: RenderedFile | null;
}

async function openSource(job: RenderJob, codec: ImageCodec): Promise<Source> {
  if (!job.edit) {
    const header = readImageHeader(job.bytes, job.type);
    if (!header) throw new ImageDecodeError('The image could not be read.');
    const swap = swapsSides(job.orientation);
    return {
      width: swap ? header.height : header.width,
      height: swap ? header.width : header.height,
      orientation: job.orientation,
      type: job.type,
      decode: (minScale) => codec.decode(job.bytes, job.type, minScale),
      edited: null,
    };
  }
  const decoded = await codec.decode(job.bytes, job.type, 1);
  const raster = await applyModifiers(applyOrientation(await decoded.toRaster(), job.orientation), job.edit.modifiers);
  const picture = codec.fromRaster(raster);
  const bytes = await picture.encode(job.edit.type, job.edit.quality);
  return {
    width: raster.width,
    height: raster.height,
    orientation: 1,
    type: job.edit.type,
    decode: async () => picture,
    edited: { bytes, width: raster.width, height: raster.height, type: job.edit.type },
  };
}

export async function render(job: RenderJob, codec: ImageCodec): Promise<RenderResult> {
  const source = await openSource(job, codec);
  const original = { width: source.width, height: source.height };
  const plan: RenderPlan = planRender({
    width: source.width, height: source.height, type: source.type, orientation: source.orientation, main: job.main, sizes: job.sizes,
    bigImageThreshold: job.bigImageThreshold,
  });
  let decoded: Picture | null = await source.decode(neededScale(plan, original));
  const { type, quality } = job.output;
  const result: RenderResult = { width: source.width, height: source.height, edited: source.edited, main: null, sizes: [] };

  let base: Picture | null = null;
  if (plan.main?.suffix === 'scaled') {
    // Shrink first, then turn the smaller picture upright.
    const swap = swapsSides(source.orientation);
    const [width, height] = swap ? [plan.main.height, plan.main.width] : [plan.main.width, plan.main.height];
    base = await (await decoded.resize({ x: 0, y: 0, width: decoded.width, height: decoded.height }, width, height)).orient(source.orientation);
  } else if (plan.main?.suffix === 'rotated') {
    base = await decoded.orient(source.orientation);
  }
  if (plan.main && base) {
    result.main = { suffix: plan.main.suffix, bytes: await base.encode(type, quality), width: base.width, height: base.height, type };
  }
  if (base && plan.sizes.every((size) => covers(base!, original, size, 1))) decoded = null;

  let upright: Picture | null = null;
  const uprightOriginal = async () => {
    upright ??= source.orientation === 1 ? decoded! : await decoded!.orient(source.orientation);
    return upright;
  };
  const cascade: Picture[] = [];
  const made: RenderResult['sizes'] = [];
  for (const index of largestFirst(plan.sizes)) {
    const size = plan.sizes[index]!;
    const parent = (base ? chooseParent(size, original, base, cascade) : chooseParent(size, original, await uprightOriginal(), cascade))
      ?? await uprightOriginal();
    const picture = await parent.resize(rectIn(parent, original, size.rect), size.width, size.height);
    made[index] = { name: size.name, bytes: await picture.encode(type, quality), width: picture.width, height: picture.height, type };
    if (!size.crop) cascade.push(picture);
  }
  result.sizes = made.filter((file) => file !== undefined);
  return result;
}
