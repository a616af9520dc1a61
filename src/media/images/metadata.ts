/** The image metadata an attachment stores (the reference's `_wp_attachment_metadata` for images). */
import type { ImageMeta } from './image-meta.js';

export interface SizeEntry {
  /** File name, in the main file's folder. */
  file: string;
  width: number;
  height: number;
  'mime-type': string;
  filesize: number;
}

export interface ImageMetadata {
  width: number;
  height: number;
  /** The main file's key below the uploads root (`2024/05/photo-scaled.jpg`). */
  file: string;
  filesize: number;
  sizes: Record<string, SizeEntry>;
  image_meta: ImageMeta;
  /** The uploaded file's name when a scaled or rotated copy became the main file. */
  original_image?: string;
  /** Set on images made by the edit route: where they came from. */
  parent_image?: { attachment_id: string; file: string };
}

/** Metadata of files other than images: just the size. */
export interface FileMetadata {
  filesize: number;
}

export type AttachmentMetadata = ImageMetadata | FileMetadata | Record<string, never>;

export function isImageMetadata(metadata: unknown): metadata is ImageMetadata {
  return typeof metadata === 'object' && metadata !== null && typeof (metadata as ImageMetadata).file === 'string'
    && typeof (metadata as ImageMetadata).width === 'number';
}

/** The folder part of a key (`2024/05` of `2024/05/a.jpg`), `''` at the top. */
export function folderOf(key: string): string {
  const slash = key.lastIndexOf('/');
  return slash === -1 ? '' : key.slice(0, slash);
}

export function baseNameOf(key: string): string {
  return key.slice(key.lastIndexOf('/') + 1);
}

export function joinKey(folder: string, name: string): string {
  return folder === '' ? name : `${folder}/${name}`;
}

/** The key of the file edits and sub-sizes are made from: the original upload when a copy replaced it. */
export function originalKeyOf(metadata: ImageMetadata): string {
  return metadata.original_image ? joinKey(folderOf(metadata.file), metadata.original_image) : metadata.file;
}

/** Every stored key an image's metadata names: main file, original, sub-sizes. */
export function keysOf(metadata: ImageMetadata): string[] {
  const folder = folderOf(metadata.file);
  const keys = new Set([metadata.file, originalKeyOf(metadata)]);
  for (const size of Object.values(metadata.sizes ?? {})) keys.add(joinKey(folder, size.file));
  return [...keys];
}
