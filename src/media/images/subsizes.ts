/**
 * Making an uploaded image's metadata and files, as the reference's `wp_create_image_subsizes` does:
 * 1. record size, file, file size and `image_meta` (read from the header, without decoding);
 * 2. an image (not PNG) larger than the threshold is scaled to fit it (and turned upright by its EXIF
 *    orientation) into `{name}-scaled.{ext}`, which becomes the main file; otherwise an image whose EXIF
 *    orientation is not 1 gets an upright `{name}-rotated.{ext}` main file;
 * 3. every registered size the image is large enough for is made, named `{name}-{width}x{height}.{ext}` with
 *    the sizes measured on the upright original, in priority order; `progress` hears the metadata after each
 *    file so a caller can store it as it grows (a failure halfway leaves what was made, for post-processing to
 *    finish).
 * The pixels are made by the image work runner (`work.ts`, a worker thread by default); this module stores them.
 */
import type { BlobStore } from '../../ports/blobs.js';
import { defaultExtensionFor } from '../../format/mime-types.js';
import { splitExtension } from '../files/file-name.js';
import { canEdit, DEFAULT_JPEG_QUALITY } from './codec.js';
import { resizeDimensions } from './dimensions.js';
import { readImageHeader } from './header.js';
import { orientationOf, readImageMeta } from './image-meta.js';
import { baseNameOf, folderOf, joinKey, type ImageMetadata, type SizeEntry } from './metadata.js';
import type { RenderedFile, RenderJob, RenderResult } from './render.js';
import { creationOrder, DEFAULT_BIG_IMAGE_THRESHOLD, DEFAULT_IMAGE_SIZES, type ImageSize } from './sizes.js';
import { createImageWork, type ImageWork } from './work.js';

export { applyOrientation } from './orientation.js';

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
  /** Where the pixels are made: worker threads by default. */
  work: ImageWork;
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
    work: options.work ?? createImageWork(),
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

/** Everything an upload's render job needs besides the pixels' own bytes. */
export interface JobInput {
  bytes: Uint8Array;
  type: string;
  /** The stored file's extension, without the dot. */
  extension: string;
  options: ImageProcessingOptions;
  /** false: no main file copy and no sizes (the image is only checked). */
  generateSubSizes?: boolean;
  convertFormat?: boolean;
  /** Sizes to make; default: every registered size. */
  sizes?: Readonly<Record<string, ImageSize>>;
  /** Whether a `-scaled` or `-rotated` main file may be made (default: when sub-sizes are made). */
  main?: boolean;
}

/** The render job of an image: what files to make, in what type. */
export function renderJobFor(input: JobInput): RenderJob {
  const { options } = input;
  const generate = input.generateSubSizes !== false;
  const output = outputFormatFor(input.type, input.extension, options, input.convertFormat !== false);
  return {
    bytes: input.bytes,
    type: input.type,
    orientation: orientationOf(readImageMeta(input.bytes, input.type)),
    main: generate && (input.main ?? true),
    sizes: generate ? creationOrder(input.sizes ?? options.sizes) : [],
    bigImageThreshold: options.bigImageThreshold,
    output: { type: output.type, quality: options.jpegQuality },
  };
}

/** The extension a made file of `type` gets: the original's (lower-cased) for its own type, else the type's own. */
function extensionFor(source: Source, type: string): string {
  const extension = splitExtension(source.key)[1].slice(1).toLowerCase();
  return type === source.type ? extension : defaultExtensionFor(type) ?? extension;
}

/** Stores one made file next to the original and returns its size entry. */
async function storeFile(source: Source, file: RenderedFile, suffix: string): Promise<SizeEntry> {
  const [base] = splitExtension(baseNameOf(source.key));
  const name = `${base}-${suffix}.${extensionFor(source, file.type)}`;
  await source.blobs.put(joinKey(folderOf(source.key), name), file.bytes, { contentType: file.type });
  return { file: name, width: file.width, height: file.height, 'mime-type': file.type, filesize: file.bytes.byteLength };
}

export interface CreateSubsizesInput extends Source {
  /** false: record the image only (no scaled copy, no rotation, no sub-sizes). */
  generateSubSizes?: boolean;
  /** false: write sub-sizes in the source type even when the output formats say otherwise. */
  convertFormat?: boolean;
  options: ImageProcessingOptions;
  progress?: (metadata: ImageMetadata) => Promise<void> | void;
  /** The files already made from `bytes` with the same switches (the upload check makes them), when the caller has them. */
  rendered?: RenderResult;
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

  const rendered = input.rendered ?? await options.work.render(renderJobFor({
    bytes: input.bytes, type, extension: splitExtension(input.key)[1].slice(1), options, convertFormat: input.convertFormat !== false,
  }));
  if (rendered.main) {
    const saved = await storeFile(input, rendered.main, rendered.main.suffix);
    metadata = {
      width: saved.width,
      height: saved.height,
      file: joinKey(folderOf(input.key), saved.file),
      filesize: saved.filesize,
      sizes: {},
      image_meta: orientationOf(imageMeta) !== 1 ? { ...imageMeta, orientation: '1' } : imageMeta,
      original_image: baseNameOf(input.key),
    };
  }
  await input.progress?.(metadata);
  return storeSizes(input, metadata, rendered);
}

/** Stores the made sizes one by one, reporting the metadata after each. */
async function storeSizes(input: Source & { progress?: CreateSubsizesInput['progress'] }, metadata: ImageMetadata, rendered: RenderResult): Promise<ImageMetadata> {
  const result: ImageMetadata = { ...metadata, sizes: { ...metadata.sizes } };
  for (const size of rendered.sizes) {
    result.sizes[size.name] = await storeFile(input, size, `${size.width}x${size.height}`);
    await input.progress?.(result);
  }
  return result;
}

export interface MakeSubsizesInput extends Source {
  metadata: ImageMetadata;
  /** Sizes to make; those the metadata already has are skipped. */
  wanted: Readonly<Record<string, ImageSize>>;
  convertFormat?: boolean;
  options: ImageProcessingOptions;
  progress?: (metadata: ImageMetadata) => Promise<void> | void;
}

/** The reference's `_wp_make_subsizes`: makes the wanted sizes the metadata lacks, from the upright original. */
export async function makeSubsizes(input: MakeSubsizesInput): Promise<ImageMetadata> {
  const { options, metadata } = input;
  const todo = Object.fromEntries(Object.entries(input.wanted).filter(([name]) => !(name in (metadata.sizes ?? {}))));
  if (Object.keys(todo).length === 0 || !canEdit(input.type)) return metadata;
  const header = readImageHeader(input.bytes, input.type);
  if (!header) return metadata;
  checkPixelCount(header.width, header.height, options);
  const rendered = await options.work.render(renderJobFor({
    bytes: input.bytes, type: input.type, extension: splitExtension(input.key)[1].slice(1), options,
    convertFormat: input.convertFormat !== false, sizes: todo, main: false,
  }));
  return storeSizes(input, metadata, rendered);
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
