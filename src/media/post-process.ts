/**
 * `POST /media/{id}/post-process` with `action=create-image-subsizes`: makes the registered sizes an image
 * lacks (or its whole metadata when none was stored), as the reference's `wp_update_image_subsizes`.
 */
import type { RequestContext } from '../core/context.js';
import { item } from '../core/response.js';
import type { MediaDeps, MediaType } from './deps.js';
import { canEdit } from './images/codec.js';
import { readImageHeader } from './images/header.js';
import { isImageMetadata, originalKeyOf, type ImageMetadata } from './images/metadata.js';
import { makeSubsizes } from './images/subsizes.js';
import { generateMetadata } from './metadata-writer.js';
import { missingSizesOf, prepareAttachment } from './prepare.js';
import { requireAttachment } from './permissions.js';
import { attachmentsIn, removedMeanwhile, type AttachmentRecord } from './record.js';

async function createMissingSizes(deps: MediaDeps, record: AttachmentRecord): Promise<AttachmentRecord> {
  const { blobs, storage, uploads } = deps;
  if (!record.mime_type.startsWith('image/') || !canEdit(record.mime_type)) return record;
  const metadata = record.media_details;
  if (!isImageMetadata(metadata)) {
    // An upload that failed before any metadata was stored: make all of it from the original file.
    const original = await blobs.get(record.file);
    if (!original) return record;
    const header = readImageHeader(original.bytes, record.mime_type);
    return generateMetadata(deps, {
      id: record.id, key: record.file, type: record.mime_type, bytes: original.bytes, header, rendered: null,
      generateSubSizes: true, convertFormat: true,
    });
  }
  const missing = missingSizesOf(record, uploads);
  if (missing.length === 0) return record;
  const original = await blobs.get(originalKeyOf(metadata));
  if (!original) return record;
  const wanted = Object.fromEntries(missing.map((name) => [name, uploads.images.sizes[name]!]));
  const store = (updated: ImageMetadata) => attachmentsIn(storage).update(record.id, { media_details: updated });
  const updated = await makeSubsizes({
    blobs, key: originalKeyOf(metadata), bytes: original.bytes, type: record.mime_type, metadata, wanted, options: uploads.images,
    progress: async (partial) => {
      await store(partial);
    },
  });
  return (await store(updated)) ?? removedMeanwhile(record.id);
}

export async function postProcessMedia(context: RequestContext, mediaType: MediaType): Promise<unknown> {
  let record = await requireAttachment(context, mediaType);
  if (context.params.action === 'create-image-subsizes') record = await createMissingSizes(mediaType.deps, record);
  return item(await prepareAttachment(record, context, mediaType, 'edit'), { context: 'edit' });
}
