/**
 * Making an uploaded image's metadata and files, as the reference's `wp_create_image_subsizes` does:
 * 1. record size, file, file size and `image_meta`;
 * 2. an image (not PNG) larger than the threshold is scaled to fit it (and turned upright by its EXIF
 *    orientation) into `{name}-scaled.{ext}`, which becomes the main file; otherwise an image whose EXIF
 *    orientation is not 1 gets an upright `{name}-rotated.{ext}` main file;
 * 3. every registered size the image is large enough for is made from the (upright) original, named
 *    `{name}-{width}x{height}.{ext}`, in priority order; `progress` hears the metadata after each file so a
 *    caller can store it as it grows (a failure halfway leaves what was made, for post-processing to finish).
 */
import type { BlobStore } from '../../ports/blobs.js';
import { defaultExtensionFor } from '../../format/mime-types.js';
import { splitExtension } from '../files/file-name.js';
import { canEdit, decodeImage, DEFAULT_JPEG_QUALITY, encodeImage } from './codec.js';
import { resizeDimensions } from './dimensions.js';
import { readImageHeader } from './header.js';
import { orientationOf, readImageMeta } from './image-meta.js';
import { baseNameOf, folderOf, joinKey, type ImageMetadata } from './metadata.js';
import { flip, resample, rotateQuarterTurns, type Raster } from './raster.js';
import { creationOrder, DEFAULT_BIG_IMAGE_THRESHOLD, DEFAULT_IMAGE_SIZES, type ImageSize } from './sizes.js';

export interface ImageProcessingOptions {
  /** Registered sub-sizes; default: the reference's six. */
  sizes: Readonly<Record<string, ImageSize>>;
  /** Longest side beyond which a `-scaled` copy becomes the main file; 0 turns scaling off. */
  bigImageThreshold: number;
  /** Output type per source type (the reference's `image_editor_output_format`); default HEIC/HEIF → JPEG. */
  outputFormats: Readonly<Record<string, string>>;
  jpegQuality: number;
  /** Images with more pixels than this are not decoded. */
  maxPixels: number;
}

export const DEFAULT_OUTPUT_FORMATS: Readonly<Record<string, string>> = Object.freeze({
  'image/heic': 'image/jpeg',
  'image/heif': 'image/jpeg',
  'image/heic-sequence': 'image/jpeg',
  'image/heif-sequence': 'image/jpeg',
});

export const DEFAULT_MAX_PIXELS = 100_000_000;

export function resolveImageOptions(options: Partial<ImageProcessingOptions> = {}): ImageProcessingOptions {
  return {
    sizes: options.sizes ?? DEFAULT_IMAGE_SIZES,
    bigImageThreshold: options.bigImageThreshold ?? DEFAULT_BIG_IMAGE_THRESHOLD,
    outputFormats: options.outputFormats ?? DEFAULT_OUTPUT_FORMATS,
    jpegQuality: options.jpegQuality ?? DEFAULT_JPEG_QUALITY,
    maxPixels: options.maxPixels ?? DEFAULT_MAX_PIXELS,
  };
}

export class ImageTooLargeError extends Error {
  constructor(readonly pixels: number, readonly limit: number) {
    super(`The image has ${pixels} pixels; at most ${limit} can be processed.`);
    this.name = 'ImageTooLargeError';
  }
}

/** The type and extension files made from a `type` image are written with. */
export function outputFormatFor(type: string, extension: string, options: ImageProcessingOptions, convertFormat: boolean): { type: string; extension: string } {
  const mapped = convertFormat ? options.outputFormats[type] : undefined;
  if (mapped && mapped !== type && canEdit(mapped)) {
    return { type: mapped, extension: defaultExtensionFor(mapped) ?? extension.toLowerCase() };
  }
  return { type, extension: extension.toLowerCase() };
}

/** Turns a raster upright by an EXIF orientation (2-8). */
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

export function checkPixelCount(width: number, height: number, options: ImageProcessingOptions): void {
  if (width * height > options.maxPixels) throw new ImageTooLargeError(width * height, options.maxPixels);
}

interface Source {
  blobs: BlobStore;
  /** The original upload's key. */
  key: string;
  bytes: Uint8Array;
  type: string;
}

/** Writes one derived file next to the original and returns its size entry. */
async function writeDerived(source: Source, raster: Raster, suffix: string, output: { type: string; extension: string }, options: ImageProcessingOptions) {
  const [base] = splitExtension(baseNameOf(source.key));
  const name = `${base}-${suffix}.${output.extension}`;
  const bytes = await encodeImage(raster, output.type, { quality: options.jpegQuality });
  await source.blobs.put(joinKey(folderOf(source.key), name), bytes, { contentType: output.type });
  return { file: name, width: raster.width, height: raster.height, 'mime-type': output.type, filesize: bytes.byteLength };
}

export interface CreateSubsizesInput extends Source {
  /** false: record the image only (no scaled copy, no rotation, no sub-sizes). */
  generateSubSizes?: boolean;
  /** false: write sub-sizes in the source type even when the output formats say otherwise. */
  convertFormat?: boolean;
  options: ImageProcessingOptions;
  progress?: (metadata: ImageMetadata) => Promise<void> | void;
  /** The pixels as decoded from `bytes` (not yet turned upright), when the caller has them already. */
  decoded?: Raster;
}

/** The whole metadata of a new image upload; null when the bytes are not a readable image. */
export async function createImageSubsizes(input: CreateSubsizesInput): Promise<ImageMetadata | null> {
  const { options, type } = input;
  const header = readImageHeader(input.bytes, type);
  if (!header) return null;
  const imageMeta = readImageMeta(input.bytes, type);
  let metadata: ImageMetadata = {
    width: header.width,
    height: header.height,
    file: input.key,
    filesize: input.bytes.byteLength,
    sizes: {},
    image_meta: imageMeta,
  };
  if (!canEdit(type) || input.generateSubSizes === false) return metadata;
  checkPixelCount(header.width, header.height, options);

  const convertFormat = input.convertFormat !== false;
  const [, extension] = splitExtension(input.key);
  const output = outputFormatFor(type, extension.slice(1), options, convertFormat);
  const orientation = orientationOf(imageMeta);
  const original = input.decoded ?? await decodeImage(input.bytes, type);
  const threshold = options.bigImageThreshold;

  let replacement: { raster: Raster; suffix: string } | null = null;
  if (type !== 'image/png' && threshold > 0 && (header.width > threshold || header.height > threshold)) {
    const plan = resizeDimensions(original.width, original.height, threshold, threshold, false);
    if (plan) {
      const scaled = resample(original, 0, 0, original.width, original.height, plan.width, plan.height);
      replacement = { raster: applyOrientation(scaled, orientation), suffix: 'scaled' };
    }
  } else if (orientation !== 1) {
    replacement = { raster: applyOrientation(original, orientation), suffix: 'rotated' };
  }
  if (replacement) {
    const saved = await writeDerived(input, replacement.raster, replacement.suffix, output, options);
    metadata = {
      width: saved.width,
      height: saved.height,
      file: joinKey(folderOf(input.key), saved.file),
      filesize: saved.filesize,
      sizes: {},
      image_meta: orientation !== 1 ? { ...imageMeta, orientation: '1' } : imageMeta,
      original_image: baseNameOf(input.key),
    };
  }
  await input.progress?.(metadata);
  return makeSubsizes({ ...input, convertFormat, metadata, wanted: options.sizes, decoded: applyOrientation(original, orientation) });
}

export interface MakeSubsizesInput extends Source {
  metadata: ImageMetadata;
  /** Sizes to make; those the metadata already has are skipped. */
  wanted: Readonly<Record<string, ImageSize>>;
  convertFormat?: boolean;
  options: ImageProcessingOptions;
  progress?: (metadata: ImageMetadata) => Promise<void> | void;
  /** The upright original, when the caller has decoded it already. */
  decoded?: Raster;
}

/** The reference's `_wp_make_subsizes`: makes the wanted sizes the metadata lacks, from the upright original. */
export async function makeSubsizes(input: MakeSubsizesInput): Promise<ImageMetadata> {
  const { options, metadata } = input;
  const todo = creationOrder(input.wanted).filter(([name]) => !(name in (metadata.sizes ?? {})));
  if (todo.length === 0 || !canEdit(input.type)) return metadata;
  let raster = input.decoded;
  if (!raster) {
    const header = readImageHeader(input.bytes, input.type);
    if (!header) return metadata;
    checkPixelCount(header.width, header.height, options);
    raster = applyOrientation(await decodeImage(input.bytes, input.type), orientationOf(readImageMeta(input.bytes, input.type)));
  }
  const [, extension] = splitExtension(input.key);
  const output = outputFormatFor(input.type, extension.slice(1), options, input.convertFormat !== false);
  const result: ImageMetadata = { ...metadata, sizes: { ...metadata.sizes } };
  for (const [name, size] of todo) {
    const plan = resizeDimensions(raster.width, raster.height, size.width, size.height, size.crop);
    if (!plan) continue;
    const resized = resample(raster, plan.sourceX, plan.sourceY, plan.sourceWidth, plan.sourceHeight, plan.width, plan.height);
    result.sizes[name] = await writeDerived(input, resized, `${plan.width}x${plan.height}`, output, options);
    await input.progress?.(result);
  }
  return result;
}

/**
 * Registered sizes the original is large enough for but the metadata lacks (the reference's
 * `wp_get_missing_image_subsizes`, measured on the original upload). Empty for images the editor cannot make
 * sizes of.
 */
export function missingSizes(metadata: ImageMetadata, type: string, originalSize: { width: number; height: number }, sizes: Readonly<Record<string, ImageSize>>): string[] {
  if (!canEdit(type)) return [];
  const missing: string[] = [];
  for (const [name, size] of Object.entries(sizes)) {
    if (name in (metadata.sizes ?? {})) continue;
    if (resizeDimensions(originalSize.width, originalSize.height, size.width, size.height, size.crop)) missing.push(name);
  }
  return missing;
}
