/**
 * What files an image gets and where each one's pixels come from. Names and sizes follow the reference exactly
 * (measured on the upright original); the pixels are taken from the cheapest picture already in hand that still
 * has enough of them: the `-scaled` copy rather than the original, and a made size rather than the `-scaled`
 * copy when it has at least twice the pixels needed in each direction. Pure arithmetic, shared by every codec,
 * so both codecs make the same files from the same rectangles.
 */
import { resizeDimensions } from './dimensions.js';
import type { ImageSize } from './sizes.js';

/** A rectangle of whole pixels. */
export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface PlannedMain {
  /** `scaled`: shrunk to the big-image threshold; `rotated`: the whole picture turned upright. */
  suffix: 'scaled' | 'rotated';
  width: number;
  height: number;
}

export interface PlannedSize {
  name: string;
  width: number;
  height: number;
  /** The part of the upright original it shows. */
  rect: Rect;
  crop: boolean;
}

export interface RenderPlan {
  main: PlannedMain | null;
  sizes: PlannedSize[];
}

export interface PlanInput {
  /** Upright size of the picture the files are made from. */
  width: number;
  height: number;
  /** The picture's type: PNGs are never scaled. */
  type: string;
  orientation: number;
  /** Whether a `-scaled` or `-rotated` main file may be made. */
  main: boolean;
  /** Sizes in creation order. */
  sizes: readonly (readonly [string, ImageSize])[];
  bigImageThreshold: number;
}

export function planRender(input: PlanInput): RenderPlan {
  const { width, height, bigImageThreshold: threshold } = input;
  let main: PlannedMain | null = null;
  if (input.main && input.type !== 'image/png' && threshold > 0 && (width > threshold || height > threshold)) {
    const scaled = resizeDimensions(width, height, threshold, threshold, false);
    if (scaled) main = { suffix: 'scaled', width: scaled.width, height: scaled.height };
  } else if (input.main && input.orientation !== 1) {
    main = { suffix: 'rotated', width, height };
  }
  const sizes: PlannedSize[] = [];
  for (const [name, size] of input.sizes) {
    const plan = resizeDimensions(width, height, size.width, size.height, size.crop);
    if (!plan) continue;
    const rect = { x: plan.sourceX, y: plan.sourceY, width: plan.sourceWidth, height: plan.sourceHeight };
    sizes.push({ name, width: plan.width, height: plan.height, rect, crop: size.crop });
  }
  return { main, sizes };
}

/** A picture in hand that files can be made from: the whole upright original at some scale. */
export interface Parent {
  width: number;
  height: number;
}

/** How many of a parent's pixels fall on one pixel of the original, per direction. */
const scaleOf = (parent: Parent, original: Parent) => ({ x: parent.width / original.width, y: parent.height / original.height });

/** Whether `parent` has at least `factor` times the pixels `size` needs, in both directions. */
export function covers(parent: Parent, original: Parent, size: { width: number; height: number; rect: Rect }, factor: number): boolean {
  const scale = scaleOf(parent, original);
  return scale.x * size.rect.width >= factor * size.width && scale.y * size.rect.height >= factor * size.height;
}

/**
 * The parent to make `size` from: the smallest cascade candidate with twice the pixels needed (so averaging
 * still covers at least two source pixels per output pixel), else `base` when it has enough pixels, else null
 * (the caller uses the full original).
 */
export function chooseParent<P extends Parent>(size: PlannedSize, original: Parent, base: P, cascade: readonly P[]): P | null {
  let best: P | null = null;
  for (const candidate of cascade) {
    if (!covers(candidate, original, size, 2)) continue;
    if (!best || candidate.width * candidate.height < best.width * best.height) best = candidate;
  }
  if (best) return best;
  return covers(base, original, size, 1) ? base : null;
}

/** Indexes of `sizes` from the most pixels to the fewest (ties in their order): the order that feeds the cascade best. */
export function largestFirst(sizes: readonly { width: number; height: number }[]): number[] {
  return sizes.map((_, index) => index).sort((a, b) => sizes[b]!.width * sizes[b]!.height - sizes[a]!.width * sizes[a]!.height || a - b);
}

/** `rect` of the original, in the pixels of `parent`, rounded to whole pixels within it. */
export function rectIn(parent: Parent, original: Parent, rect: Rect): Rect {
  const scale = scaleOf(parent, original);
  const left = Math.min(parent.width - 1, Math.max(0, Math.round(rect.x * scale.x)));
  const top = Math.min(parent.height - 1, Math.max(0, Math.round(rect.y * scale.y)));
  const right = Math.min(parent.width, Math.max(left + 1, Math.round((rect.x + rect.width) * scale.x)));
  const bottom = Math.min(parent.height, Math.max(top + 1, Math.round((rect.y + rect.height) * scale.y)));
  return { x: left, y: top, width: right - left, height: bottom - top };
}

/** The smallest share of the decoded original the files need (a codec may decode at a reduced scale down to it). */
export function neededScale(plan: RenderPlan, original: Parent): number {
  if (plan.main?.suffix === 'rotated') return 1;
  const base = plan.main ?? null;
  let needed = base ? Math.max(base.width / original.width, base.height / original.height) : 0;
  for (const size of plan.sizes) {
    if (base && covers(base, original, size, 1)) continue;
    needed = Math.max(needed, size.width / size.rect.width, size.height / size.rect.height);
  }
  return Math.min(1, needed);
}
