/**
 * The image codec port: how pictures are decoded, resized, turned and encoded. The files an image gets, their
 * names, sizes and crops are decided by `plan.ts`, the same for every codec; a codec only moves the pixels.
 * `image-js` (pure JavaScript, the default) and `sharp` (libvips, when the host installs it) implement it.
 */
import type { Raster } from '../raster.js';
import type { Rect } from '../plan.js';

export type CodecName = 'image-js' | 'sharp';

export const CODEC_NAMES: readonly CodecName[] = ['image-js', 'sharp'];

/** Decoded pixels held by a codec. */
export interface Picture {
  readonly width: number;
  readonly height: number;
  /** `rect` of this picture scaled to `width` × `height`. */
  resize(rect: Rect, width: number, height: number): Promise<Picture>;
  /** Turned upright by an EXIF orientation (1-8). */
  orient(orientation: number): Promise<Picture>;
  encode(type: string, quality: number): Promise<Uint8Array>;
  /** The pixels as 8-bit RGBA, for the editor. */
  toRaster(): Promise<Raster>;
}

export interface ImageCodec {
  readonly name: CodecName;
  /**
   * Decodes `bytes` (not turned upright). With `minScale` below 1 the codec may decode at a reduced scale (JPEG
   * DCT scaling) as long as the picture keeps at least that share of the pixels in each direction.
   */
  decode(bytes: Uint8Array, type: string, minScale?: number): Promise<Picture>;
  fromRaster(raster: Raster): Picture;
}
