/** What a host can set for uploads, and the settings the media routes read, resolved once. */
import { MIME_TYPES, type MimeTable } from '../format/mime-types.js';
import type { UploadsSettings } from '../services/uploads.js';
import type { ImageSize } from './images/sizes.js';
import { resolveImageOptions, type ImageProcessingOptions } from './images/subsizes.js';
import { createImageWork, type ImageWorkOptions } from './images/work.js';

export interface UploadsOptions {
  /**
   * Public address of the stored files, without a trailing slash (`https://cdn.example.com/uploads`).
   * Default: `{site url}/uploads`.
   */
  baseUrl?: string;
  /** Largest file accepted by upload or sideload, in bytes (default 32 MiB); larger ones get 413. */
  maxUploadBytes?: number;
  /** File types by extension (the reference's `upload_mimes`); default: the reference's list. */
  mimeTypes?: MimeTable;
  /** Registered image sub-sizes; default: thumbnail, medium, medium_large, large, 1536x1536, 2048x2048. */
  imageSizes?: Readonly<Record<string, ImageSize>>;
  /** Longest side beyond which a `-scaled` copy becomes the main file (default 2560; 0 turns it off). */
  bigImageThreshold?: number;
  /** Output type by source type for generated files (default: HEIC/HEIF → JPEG). */
  outputFormats?: Readonly<Record<string, string>>;
  /** JPEG quality of generated files (default 82). */
  jpegQuality?: number;
  /** Images with more pixels than this are refused (default 100 million). */
  maxImagePixels?: number;
}

/** The upload settings every resource shares, with media's own image settings (sizes, formats, the worker pool). */
export interface UploadsConfig extends UploadsSettings {
  images: ImageProcessingOptions;
}

export const DEFAULT_MAX_UPLOAD_BYTES = 32 * 1024 * 1024;

/** `images`: the codec and worker threads image work runs with (`createCms({ images })`). */
export function resolveUploads(options: UploadsOptions = {}, images: ImageWorkOptions = {}): UploadsConfig {
  return {
    baseUrl: options.baseUrl?.replace(/\/+$/, ''),
    maxUploadBytes: options.maxUploadBytes ?? DEFAULT_MAX_UPLOAD_BYTES,
    mimeTypes: options.mimeTypes ?? MIME_TYPES,
    images: resolveImageOptions({
      ...(options.imageSizes ? { sizes: options.imageSizes } : {}),
      ...(options.bigImageThreshold !== undefined ? { bigImageThreshold: options.bigImageThreshold } : {}),
      ...(options.outputFormats ? { outputFormats: options.outputFormats } : {}),
      ...(options.jpegQuality !== undefined ? { jpegQuality: options.jpegQuality } : {}),
      ...(options.maxImagePixels !== undefined ? { maxPixels: options.maxImagePixels } : {}),
      work: createImageWork(images),
    }),
  };
}
