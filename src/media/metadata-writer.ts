/**
 * Generating and storing an attachment's metadata after its record exists: images get their sizes (stored as
 * each file is made, so a failure halfway leaves a resumable record), other files their size.
 */
import type { StoragePort } from '../ports/storage.js';
import type { MediaDeps } from './deps.js';
import type { ImageHeader } from './images/header.js';
import type { AttachmentMetadata, ImageMetadata } from './images/metadata.js';
import type { RenderResult } from './images/render.js';
import { createImageSubsizes } from './images/subsizes.js';
import { attachmentsIn, removedMeanwhile, type AttachmentRecord } from './record.js';

export interface MetadataInput {
  id: number;
  key: string;
  type: string;
  bytes: Uint8Array;
  header: ImageHeader | null;
  /** The files already made from `bytes`, when the caller has them. */
  rendered: RenderResult | null;
  generateSubSizes: boolean;
  convertFormat: boolean;
}

/** Stores the metadata on the record; null when the record was deleted meanwhile. */
async function storeMetadata(storage: StoragePort, id: number, metadata: AttachmentMetadata): Promise<AttachmentRecord | null> {
  const patch: Partial<AttachmentRecord> = { media_details: metadata };
  if ('file' in metadata && typeof metadata.file === 'string') patch.file = metadata.file;
  return attachmentsIn(storage).update(id, patch);
}

export async function generateMetadata(deps: Pick<MediaDeps, 'storage' | 'blobs' | 'uploads'>, input: MetadataInput): Promise<AttachmentRecord> {
  const { storage, blobs, uploads } = deps;
  if (!input.type.startsWith('image/') || !input.header) {
    return await storeMetadata(storage, input.id, { filesize: input.bytes.byteLength }) ?? removedMeanwhile(input.id);
  }
  await attachmentsIn(storage).update(input.id, { original_size: { width: input.header.width, height: input.header.height } });
  const metadata: ImageMetadata | null = await createImageSubsizes({
    blobs,
    key: input.key,
    bytes: input.bytes,
    type: input.type,
    generateSubSizes: input.generateSubSizes,
    convertFormat: input.convertFormat,
    options: uploads.images,
    ...(input.rendered ? { rendered: input.rendered } : {}),
    progress: async (partial) => {
      await storeMetadata(storage, input.id, partial);
    },
  });
  return await storeMetadata(storage, input.id, metadata ?? {}) ?? removedMeanwhile(input.id);
}
