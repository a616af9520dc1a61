/**
 * The stored shape of a media item: a post record of type `attachment` with its file fields at the top level
 * (so lists can filter on the type and search the file name).
 */
import { collection } from '../ports/collection.js';
import { isPostRecord, POSTS_COLLECTION, type PostRecord } from '../content/post-type/index.js';
import type { Site } from '../core/site.js';
import type { UploadsConfig } from './config.js';
import { isImageMetadata, keysOf, type AttachmentMetadata } from './images/metadata.js';

export interface AttachmentRecord extends PostRecord {
  /** The detected MIME type. */
  mime_type: string;
  /** Key of the main file below the uploads root (the `-scaled` copy once there is one). */
  file: string;
  /** The reference's attachment metadata: image sizes and meta, or just the file size. */
  media_details: AttachmentMetadata;
  alt_text: string;
  /** The remote address of a file not stored here (an imported attachment whose file was not fetched). */
  source_url?: string;
}

export function isAttachment(record: PostRecord | null): record is AttachmentRecord {
  return record !== null && record.type === 'attachment';
}

/** Typed access to the attachments among the post-type records. */
export const attachmentsIn = collection<AttachmentRecord>(POSTS_COLLECTION, (record) => (isPostRecord(record) && isAttachment(record) ? record : null));

/** A record the media routes just saved with the attachment type. */
export function asAttachment(record: PostRecord): AttachmentRecord {
  if (!isAttachment(record)) throw new TypeError(`Record ${record.id} is not an attachment.`);
  return record;
}

/** For a record deleted by another request while this one was still writing it: the request fails. */
export function removedMeanwhile(id: number): never {
  throw new Error(`Attachment ${id} was removed while it was being written.`);
}

/** The address of the uploads folder: the configured one, or `{site url}/uploads`. */
export function uploadsBaseUrl(uploads: Pick<UploadsConfig, 'baseUrl'>, site: Pick<Site, 'url'>): string {
  return uploads.baseUrl ?? `${site.url}/uploads`;
}

/** The public address of a stored key; each path segment is percent-encoded. */
export function fileUrl(base: string, key: string): string {
  return `${base}/${key.split('/').map((segment) => encodeURIComponent(segment)).join('/')}`;
}

/** The address of an attachment's main file: in the uploads, or the remote one it was imported with. */
export function mainFileUrl(base: string, record: AttachmentRecord): string {
  if (record.file === '' && typeof record.source_url === 'string' && record.source_url !== '') return record.source_url;
  return fileUrl(base, record.file);
}

/** Every blob an attachment owns: its main file, the original upload and every generated size. */
export function blobKeysOf(record: AttachmentRecord): string[] {
  const keys = new Set<string>();
  if (record.file) keys.add(record.file);
  if (isImageMetadata(record.media_details)) for (const key of keysOf(record.media_details)) keys.add(key);
  return [...keys];
}
