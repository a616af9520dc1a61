/**
 * Generating and storing an attachment's metadata after its record exists: images get their sizes (stored as
 * each file is made, so a failure halfway leaves a resumable record), other files their size.
 */
import type { RequestContext } from '../core/context.js';
import { POSTS_COLLECTION } from '../content/posts/record.js';
import type { StoragePort } from '../ports/storage.js';
import type { ImageHeader } from './images/header.js';
import type { AttachmentMetadata, ImageMetadata } from './images/metadata.js';
import type { RenderResult } from './images/render.js';
import { createImageSubsizes } from './images/subsizes.js';
import type { AttachmentRecord } from './record.js';

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

async function storeMetadata(storage: StoragePort, id: number, metadata: AttachmentMetadata): Promise<AttachmentRecord> {
  const patch: Record<string, unknown> = { media_details: metadata };
  if ('file' in metadata && typeof metadata.file === 'string') patch.file = metadata.file;
  return (await storage.update(POSTS_COLLECTION, id, patch)) as AttachmentRecord;
}

export async function generateMetadata(context: RequestContext, input: MetadataInput): Promise<AttachmentRecord> {
  const { storage, blobs, uploads } = context.services;
  if (!input.type.startsWith('image/') || !input.header) {
    return storeMetadata(storage, input.id, { filesize: input.bytes.byteLength });
  }
  await storage.update(POSTS_COLLECTION, input.id, { original_size: { width: input.header.width, height: input.header.height } });
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
  return storeMetadata(storage, input.id, metadata ?? {});
}
