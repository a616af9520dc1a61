/** The registered image sub-sizes and the big-image threshold, with the reference's defaults. */

export interface ImageSize {
  width: number;
  height: number;
  crop: boolean;
}

/** Registered sizes in the reference's registration order. */
export const DEFAULT_IMAGE_SIZES: Readonly<Record<string, ImageSize>> = Object.freeze({
  thumbnail: { width: 150, height: 150, crop: true },
  medium: { width: 300, height: 300, crop: false },
  medium_large: { width: 768, height: 0, crop: false },
  large: { width: 1024, height: 1024, crop: false },
  '1536x1536': { width: 1536, height: 1536, crop: false },
  '2048x2048': { width: 2048, height: 2048, crop: false },
});

/** Larger images (not PNG) are scaled down to fit this box and the scaled copy becomes the main file. */
export const DEFAULT_BIG_IMAGE_THRESHOLD = 2560;

/** Sizes made first, so that a useful size exists early even when later ones fail. */
const PRIORITY = ['medium', 'large', 'thumbnail', 'medium_large'];

/** The sizes in the order they are made: the priority sizes first, then the others in registration order. */
export function creationOrder(sizes: Readonly<Record<string, ImageSize>>): [string, ImageSize][] {
  const names = [...PRIORITY.filter((name) => name in sizes), ...Object.keys(sizes).filter((name) => !PRIORITY.includes(name))];
  return names.map((name) => [name, sizes[name]!]);
}
