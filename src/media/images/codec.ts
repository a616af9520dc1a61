/**
 * Decoding, encoding and free rotation with image-js, loaded on first use (it is large, and most requests never
 * touch an image). The editor reads and writes JPEG and PNG; other image types are stored as they are,
 * described from their headers.
 */
import type { Image } from 'image-js';
import { isOpaque, rotateQuarterTurns, type Raster } from './raster.js';

type ImageJs = typeof import('image-js');

let library: Promise<ImageJs> | null = null;

function imageJs(): Promise<ImageJs> {
  library ??= import('image-js');
  return library;
}

/** Types the editor can decode and encode. */
export const EDITABLE_TYPES: ReadonlySet<string> = new Set(['image/jpeg', 'image/png']);

/** The reference's default JPEG quality. */
export const DEFAULT_JPEG_QUALITY = 82;

export function canEdit(type: string): boolean {
  return EDITABLE_TYPES.has(type);
}

export class ImageDecodeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ImageDecodeError';
  }
}

/** Any image-js image as 8-bit RGBA. */
function rasterFromImage(image: Image): Raster {
  let rgba = image;
  if (rgba.colorModel !== 'RGBA') rgba = rgba.convertColor('RGBA');
  if (rgba.bitDepth !== 8) rgba = rgba.convertBitDepth(8);
  const raw = rgba.getRawImage();
  const data = raw.data instanceof Uint8Array ? raw.data : Uint8Array.from(raw.data);
  return { width: raw.width, height: raw.height, data };
}

function imageFromRaster(library: ImageJs, raster: Raster): Image {
  return new library.Image(raster.width, raster.height, { data: raster.data, colorModel: 'RGBA' });
}

export async function decodeImage(bytes: Uint8Array, type: string): Promise<Raster> {
  const library = await imageJs();
  try {
    if (type === 'image/jpeg') return rasterFromImage(library.decodeJpeg(bytes));
    if (type === 'image/png') return rasterFromImage(library.decodePng(bytes));
  } catch (error) {
    throw new ImageDecodeError(`The image could not be decoded: ${(error as Error).message}`);
  }
  throw new ImageDecodeError(`Images of type ${type} cannot be edited.`);
}

export interface EncodeOptions {
  /** JPEG quality, 1-100. */
  quality?: number;
}

export async function encodeImage(raster: Raster, type: string, options: EncodeOptions = {}): Promise<Uint8Array> {
  const library = await imageJs();
  if (type === 'image/jpeg') {
    return library.encodeJpeg(imageFromRaster(library, raster), { quality: options.quality ?? DEFAULT_JPEG_QUALITY });
  }
  if (type === 'image/png') {
    // Opaque pictures are written without the alpha channel: a smaller file with the same pixels.
    const image = imageFromRaster(library, raster);
    return library.encodePng(isOpaque(raster) ? image.convertColor('RGB') : image);
  }
  throw new ImageDecodeError(`Images of type ${type} cannot be written.`);
}

/**
 * Rotation clockwise by any angle; the canvas grows to hold the whole picture and the uncovered corners are
 * transparent white (white once written as JPEG), as the reference's editor fills them.
 */
export async function rotateClockwise(raster: Raster, degrees: number): Promise<Raster> {
  const normalized = ((degrees % 360) + 360) % 360;
  if (normalized === 0) return { ...raster, data: raster.data.slice() };
  if (normalized % 90 === 0) return rotateQuarterTurns(raster, normalized / 90);
  const library = await imageJs();
  const rotated = imageFromRaster(library, raster).transformRotate(-normalized, {
    fullImage: true,
    borderType: 'constant',
    borderValue: [255, 255, 255, 0],
    interpolationType: 'bilinear',
  });
  return rasterFromImage(rotated);
}
