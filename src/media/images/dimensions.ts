/**
 * The reference's size arithmetic: `wp_constrain_dimensions` (fit inside a box, snapping a dimension that comes
 * out one pixel short) and `image_resize_dimensions` (the source rectangle and output size of a sub-size, or
 * null when the image is too small for it or the result would be the same size).
 */

/** PHP's `round()`: halves away from zero. */
export function phpRound(value: number): number {
  return value < 0 ? -Math.round(-value) : Math.round(value);
}

export function constrainDimensions(width: number, height: number, maxWidth = 0, maxHeight = 0): [number, number] {
  if (!maxWidth && !maxHeight) return [width, height];
  let widthRatio = 1;
  let heightRatio = 1;
  let didWidth = false;
  let didHeight = false;
  if (maxWidth > 0 && width > 0 && width > maxWidth) {
    widthRatio = maxWidth / width;
    didWidth = true;
  }
  if (maxHeight > 0 && height > 0 && height > maxHeight) {
    heightRatio = maxHeight / height;
    didHeight = true;
  }
  const smaller = Math.min(widthRatio, heightRatio);
  const larger = Math.max(widthRatio, heightRatio);
  // The larger ratio is a snugger fit, unless it overflows one of the bounds (a zero bound always overflows).
  const ratio = phpRound(width * larger) > maxWidth || phpRound(height * larger) > maxHeight ? smaller : larger;
  let newWidth = Math.max(1, phpRound(width * ratio));
  let newHeight = Math.max(1, phpRound(height * ratio));
  if (didWidth && newWidth === maxWidth - 1) newWidth = maxWidth;
  if (didHeight && newHeight === maxHeight - 1) newHeight = maxHeight;
  return [newWidth, newHeight];
}

/** Where a sub-size comes from and how big it is: `imagecopyresampled`'s arguments. */
export interface ResizePlan {
  sourceX: number;
  sourceY: number;
  sourceWidth: number;
  sourceHeight: number;
  width: number;
  height: number;
}

/** Whether two sizes differ by at most one pixel. */
const nearlyEqual = (a: number, b: number) => Math.abs(a - b) <= 1;

/** `crop` true crops around the centre; without it the image is scaled to fit the box. */
export function resizeDimensions(originalWidth: number, originalHeight: number, width: number, height: number, crop: boolean): ResizePlan | null {
  if (originalWidth <= 0 || originalHeight <= 0) return null;
  if (width <= 0 && height <= 0) return null;
  if (!height) {
    if (originalWidth < width) return null;
  } else if (!width) {
    if (originalHeight < height) return null;
  } else if (originalWidth < width && originalHeight < height) {
    return null;
  }

  let newWidth: number;
  let newHeight: number;
  let sourceWidth: number;
  let sourceHeight: number;
  let sourceX = 0;
  let sourceY = 0;
  if (crop) {
    const aspect = originalWidth / originalHeight;
    newWidth = Math.min(width, originalWidth);
    newHeight = Math.min(height, originalHeight);
    if (!newWidth) newWidth = phpRound(newHeight * aspect);
    if (!newHeight) newHeight = phpRound(newWidth / aspect);
    const ratio = Math.max(newWidth / originalWidth, newHeight / originalHeight);
    sourceWidth = phpRound(newWidth / ratio);
    sourceHeight = phpRound(newHeight / ratio);
    sourceX = Math.floor((originalWidth - sourceWidth) / 2);
    sourceY = Math.floor((originalHeight - sourceHeight) / 2);
  } else {
    sourceWidth = originalWidth;
    sourceHeight = originalHeight;
    [newWidth, newHeight] = constrainDimensions(originalWidth, originalHeight, width, height);
  }
  if (nearlyEqual(newWidth, originalWidth) && nearlyEqual(newHeight, originalHeight)) return null;
  return { sourceX, sourceY, sourceWidth, sourceHeight, width: Math.trunc(newWidth), height: Math.trunc(newHeight) };
}
