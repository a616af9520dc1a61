/** The default codec: image-js (pure JavaScript, loaded on first use) and the raster operations of `raster.ts`. */
import { decodeImage, encodeImage } from '../codec.js';
import { applyOrientation } from '../orientation.js';
import type { Rect } from '../plan.js';
import { crop, resample, type Raster } from '../raster.js';
import type { ImageCodec, Picture } from './port.js';

function picture(raster: Raster): Picture {
  return {
    width: raster.width,
    height: raster.height,
    async resize(rect: Rect, width: number, height: number) {
      if (width === rect.width && height === rect.height) return picture(crop(raster, rect.x, rect.y, width, height));
      return picture(resample(raster, rect.x, rect.y, rect.width, rect.height, width, height));
    },
    async orient(orientation: number) {
      return picture(applyOrientation(raster, orientation));
    },
    encode: (type: string, quality: number) => encodeImage(raster, type, { quality }),
    toRaster: async () => raster,
  };
}

export const imageJsCodec: ImageCodec = {
  name: 'image-js',
  // image-js decodes JPEGs at full size only.
  decode: async (bytes, type) => picture(await decodeImage(bytes, type)),
  fromRaster: picture,
};
