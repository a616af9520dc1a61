/**
 * The default codec, pure JavaScript. JPEGs (baseline and progressive) go through quire's own JPEG decoder and
 * encoder and stay as Y, Cb, Cr planes from decode to encode: no colour conversion, chroma resized at its own
 * half size, decoded at 3/4, 1/2, 1/4 or 1/8 scale when the files need no more. Everything else (PNG, and the rare
 * JPEGs the decoder leaves: CMYK, RGB, 12-bit, arithmetic) is decoded by image-js, loaded on first use, into
 * RGBA; JPEGs are still written by the encoder here.
 */
import { decodeImage, encodeImage, ImageDecodeError } from '../codec.js';
import { decodeBaselineJpeg, JpegError } from '../jpeg/decode.js';
import { encodeJpegPlanes } from '../jpeg/encode.js';
import { applyOrientation, swapsSides } from '../orientation.js';
import type { Rect } from '../plan.js';
import { orientPlane, planesToRaster, rasterToPlanes, resamplePlane, type Plane } from '../planes.js';
import { crop, resample, type Raster } from '../raster.js';
import type { ImageCodec, Picture } from './port.js';

function rasterPicture(raster: Raster): Picture {
  return {
    width: raster.width,
    height: raster.height,
    async resize(rect: Rect, width: number, height: number) {
      if (width === rect.width && height === rect.height) return rasterPicture(crop(raster, rect.x, rect.y, width, height));
      return rasterPicture(resample(raster, rect.x, rect.y, rect.width, rect.height, width, height));
    },
    async orient(orientation: number) {
      return rasterPicture(applyOrientation(raster, orientation));
    },
    async encode(type: string, quality: number) {
      if (type === 'image/jpeg') return encodeJpegPlanes(raster.width, raster.height, rasterToPlanes(raster), quality);
      return encodeImage(raster, type, { quality });
    },
    toRaster: async () => raster,
  };
}

/** Y (and Cb, Cr) planes of a `width` × `height` picture; chroma of resized pictures is kept at half size. */
function planarPicture(width: number, height: number, planes: readonly Plane[]): Picture {
  return {
    width,
    height,
    async resize(rect: Rect, targetWidth: number, targetHeight: number) {
      const resized = planes.map((plane, index) => {
        const x = plane.width / width;
        const y = plane.height / height;
        const outWidth = index === 0 ? targetWidth : Math.ceil(targetWidth / 2);
        const outHeight = index === 0 ? targetHeight : Math.ceil(targetHeight / 2);
        return resamplePlane(plane, rect.x * x, rect.y * y, rect.width * x, rect.height * y, outWidth, outHeight);
      });
      return planarPicture(targetWidth, targetHeight, resized);
    },
    async orient(orientation: number) {
      if (orientation < 2 || orientation > 8) return planarPicture(width, height, planes);
      const swap = swapsSides(orientation);
      return planarPicture(swap ? height : width, swap ? width : height, planes.map((plane) => orientPlane(plane, orientation)));
    },
    async encode(type: string, quality: number) {
      if (type === 'image/jpeg') return encodeJpegPlanes(width, height, planes, quality);
      return encodeImage(planesToRaster(width, height, planes), type, { quality });
    },
    toRaster: async () => planesToRaster(width, height, planes),
  };
}

/** The smallest JPEG scale (1/8, 2/8, 4/8, 6/8 or 8/8, as eighths) that keeps at least `minScale` of the pixels. */
export function jpegScale(minScale: number): number {
  return [1, 2, 4, 6].find((eighths) => eighths / 8 >= minScale) ?? 8;
}

async function decode(bytes: Uint8Array, type: string, minScale = 1): Promise<Picture> {
  if (type === 'image/jpeg') {
    let decoded;
    try {
      decoded = decodeBaselineJpeg(bytes, { scale: jpegScale(minScale) });
    } catch (error) {
      if (error instanceof JpegError) throw new ImageDecodeError(`The image could not be decoded: ${error.message}`);
      throw error;
    }
    if (decoded) return planarPicture(decoded.width, decoded.height, decoded.planes);
  }
  return rasterPicture(await decodeImage(bytes, type));
}

export const imageJsCodec: ImageCodec = {
  name: 'image-js',
  // JPEGs decode at the smallest of 1/8, 1/4, 1/2, 3/4 and full size the files need; others at full size.
  decode,
  fromRaster: rasterPicture,
};
