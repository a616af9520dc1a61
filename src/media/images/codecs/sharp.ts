/**
 * The sharp codec (libvips), used only when the host asks for it. sharp is an optional peer dependency: this
 * module loads it on first use, and `work.ts` checks at start-up that it can be found.
 */
import { ImageDecodeError } from '../codec.js';
import type { Rect } from '../plan.js';
import { isOpaque, type Raster } from '../raster.js';
import type { ImageCodec, Picture } from './port.js';

type Sharp = (typeof import('sharp'))['default'];

let library: Promise<Sharp> | null = null;

function sharpLibrary(): Promise<Sharp> {
  library ??= import('sharp').then((module) => module.default);
  return library;
}

interface Pixels {
  data: Uint8Array;
  width: number;
  height: number;
  /** 3 (RGB) or 4 (RGBA). */
  channels: 3 | 4;
}

/** Operations turning a picture upright by an EXIF orientation; sharp applies flip and flop before rotating. */
const ORIENTATIONS: Readonly<Record<number, { rotate?: number; flip?: boolean; flop?: boolean }>> = {
  2: { flop: true },
  3: { rotate: 180 },
  4: { flip: true },
  5: { rotate: 270, flop: true },
  6: { rotate: 90 },
  7: { rotate: 90, flop: true },
  8: { rotate: 270 },
};

async function output(pipeline: ReturnType<Sharp>): Promise<Pixels> {
  const { data, info } = await pipeline.raw({ depth: 'uchar' }).toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength), width: info.width, height: info.height, channels: info.channels === 4 ? 4 : 3 };
}

function picture(sharp: Sharp, pixels: Pixels): Picture {
  const input = () => sharp(pixels.data, { raw: { width: pixels.width, height: pixels.height, channels: pixels.channels } });
  return {
    width: pixels.width,
    height: pixels.height,
    async resize(rect: Rect, width: number, height: number) {
      const pipeline = input().extract({ left: rect.x, top: rect.y, width: rect.width, height: rect.height });
      if (width !== rect.width || height !== rect.height) pipeline.resize(width, height, { fit: 'fill' });
      return picture(sharp, await output(pipeline));
    },
    async orient(orientation: number) {
      const steps = ORIENTATIONS[orientation];
      if (!steps) return picture(sharp, pixels);
      const pipeline = input();
      if (steps.rotate) pipeline.rotate(steps.rotate);
      if (steps.flip) pipeline.flip();
      if (steps.flop) pipeline.flop();
      return picture(sharp, await output(pipeline));
    },
    async encode(type: string, quality: number) {
      let pipeline = input();
      if (type === 'image/jpeg') pipeline = pipeline.jpeg({ quality });
      else if (type === 'image/png') {
        // Opaque pictures are written without the alpha channel, as the image-js codec does.
        if (pixels.channels === 4 && isOpaque({ width: pixels.width, height: pixels.height, data: pixels.data })) pipeline = pipeline.removeAlpha();
        pipeline = pipeline.png();
      } else throw new ImageDecodeError(`Images of type ${type} cannot be written.`);
      const buffer = await pipeline.toBuffer();
      return new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
    },
    async toRaster(): Promise<Raster> {
      if (pixels.channels === 4) return { width: pixels.width, height: pixels.height, data: pixels.data };
      const rgba = new Uint8Array(pixels.width * pixels.height * 4);
      for (let from = 0, to = 0; from < pixels.data.length; from += 3, to += 4) {
        rgba[to] = pixels.data[from]!;
        rgba[to + 1] = pixels.data[from + 1]!;
        rgba[to + 2] = pixels.data[from + 2]!;
        rgba[to + 3] = 255;
      }
      return { width: pixels.width, height: pixels.height, data: rgba };
    },
  };
}

/** The largest JPEG shrink-on-load factor (8, 4, 2) that keeps at least `minScale` of the pixels. */
function shrinkFactor(type: string, minScale: number): number {
  if (type !== 'image/jpeg') return 1;
  return [8, 4, 2].find((factor) => 1 / factor >= minScale) ?? 1;
}

export const sharpCodec: ImageCodec = {
  name: 'sharp',
  async decode(bytes, type, minScale = 1) {
    if (type !== 'image/jpeg' && type !== 'image/png') throw new ImageDecodeError(`Images of type ${type} cannot be edited.`);
    const sharp = await sharpLibrary();
    try {
      const metadata = await sharp(bytes, { failOn: 'error' }).metadata();
      const pipeline = sharp(bytes, { failOn: 'error' });
      const factor = shrinkFactor(type, minScale);
      if (factor > 1 && metadata.width && metadata.height) {
        pipeline.resize(Math.ceil(metadata.width / factor), Math.ceil(metadata.height / factor), { fit: 'fill', fastShrinkOnLoad: true });
      }
      pipeline.toColourspace('srgb');
      if (metadata.hasAlpha) pipeline.ensureAlpha();
      else pipeline.removeAlpha();
      return picture(sharp, await output(pipeline));
    } catch (error) {
      throw new ImageDecodeError(`The image could not be decoded: ${(error as Error).message}`);
    }
  },
  fromRaster: (raster) => lazyRaster(raster),
};

/** A picture of the editor's pixels, handed to sharp when first used. */
function lazyRaster(raster: Raster): Picture {
  let loaded: Picture | null = null;
  const get = async () => {
    loaded ??= picture(await sharpLibrary(), { data: raster.data, width: raster.width, height: raster.height, channels: 4 });
    return loaded;
  };
  return {
    width: raster.width,
    height: raster.height,
    resize: async (rect, width, height) => (await get()).resize(rect, width, height),
    orient: async (orientation) => (await get()).orient(orientation),
    encode: async (type, quality) => (await get()).encode(type, quality),
    toRaster: async () => raster,
  };
}
