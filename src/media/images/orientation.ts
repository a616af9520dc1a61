/** Turning a raster upright by its EXIF orientation. */
import { flip, rotateQuarterTurns, type Raster } from './raster.js';

/** Turns a raster upright by an EXIF orientation (2-8); 1 and unknown values leave it as it is. */
export function applyOrientation(raster: Raster, orientation: number): Raster {
  switch (orientation) {
    case 2: return flip(raster, true, false);
    case 3: return rotateQuarterTurns(raster, 2);
    case 4: return flip(raster, false, true);
    case 5: return flip(rotateQuarterTurns(raster, 3), false, true);
    case 6: return rotateQuarterTurns(raster, 1);
    case 7: return flip(rotateQuarterTurns(raster, 3), true, false);
    case 8: return rotateQuarterTurns(raster, 3);
    default: return raster;
  }
}

/** Whether an orientation swaps width and height. */
export function swapsSides(orientation: number): boolean {
  return orientation >= 5 && orientation <= 8;
}
