/**
 * The image edit route's modifiers, applied in order to the picture as the previous ones left it: `flip`
 * (`horizontal` mirrors left-right, `vertical` top-bottom), `rotate` (degrees clockwise, any angle) and `crop`
 * (left, top, width and height as percentages of the current size, rounded to pixels).
 */
import { rotateClockwise } from './codec.js';
import { crop, flip, type Raster } from './raster.js';

export type Modifier =
  | { type: 'flip'; args: { flip: { horizontal: boolean; vertical: boolean } } }
  | { type: 'rotate'; args: { angle: number } }
  | { type: 'crop'; args: { left: number; top: number; width: number; height: number } };

export class ModifierError extends Error {
  constructor(readonly kind: 'flip' | 'rotate' | 'crop', message: string) {
    super(message);
    this.name = 'ModifierError';
  }
}

export async function applyModifier(raster: Raster, modifier: Modifier): Promise<Raster> {
  switch (modifier.type) {
    case 'flip': {
      const { horizontal, vertical } = modifier.args.flip;
      return horizontal || vertical ? flip(raster, horizontal, vertical) : raster;
    }
    case 'rotate': {
      const angle = modifier.args.angle;
      if (!Number.isFinite(angle)) throw new ModifierError('rotate', 'The rotation angle is not a number.');
      return angle === 0 ? raster : rotateClockwise(raster, angle);
    }
    case 'crop': {
      const { left, top, width, height } = modifier.args;
      const x = Math.round((raster.width * left) / 100);
      const y = Math.round((raster.height * top) / 100);
      const cropWidth = Math.round((raster.width * width) / 100);
      const cropHeight = Math.round((raster.height * height) / 100);
      if (cropWidth === raster.width && cropHeight === raster.height) return raster;
      if (!(cropWidth > 0 && cropHeight > 0)) throw new ModifierError('crop', 'The crop leaves no pixels.');
      return crop(raster, x, y, cropWidth, cropHeight);
    }
  }
}

export async function applyModifiers(raster: Raster, modifiers: readonly Modifier[]): Promise<Raster> {
  let current = raster;
  for (const modifier of modifiers) current = await applyModifier(current, modifier);
  return current;
}
