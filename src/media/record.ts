/**
 * The stored shape of a media item: a post record of type `attachment` with its file fields at the top level
 * (so lists can filter on the type and search the file name).
 */
import type { PostRecord } from '../content/posts/record.js';
import type { RequestContext } from '../core/context.js';
import { isImageMetadata, keysOf, type AttachmentMetadata } from './images/metadata.js';

export interface AttachmentRecord extends PostRecord {
  /** The detected MIME type. */
  mime_type: string;
  /** Key of the main file below the uploads root (the `-scaled` copy once there is one). */
  file: string;
  /** The reference's attachment metadata: image sizes and meta, or just the file size. */
  media_details: AttachmentMetadata;
  alt_text: string;
}

export function isAttachment(record: PostRecord | null): record is AttachmentRecord {
  return record !== null && record.type === 'attachment';
}

/** The address of the uploads folder for this request. */
export function uploadsBaseUrl(context: Pick<RequestContext, 'services' | 'site'>): string {
  return context.services.uploads.baseUrl ?? `${context.site.url}/uploads`;
}

/** The public address of a stored key; each path segment is percent-encoded. */
export function fileUrl(base: string, key: string): string {
  return `${base}/${key.split('/').map((segment) => encodeURIComponent(segment)).join('/')}`;
}

/** Every blob an attachment owns: its main file, the original upload and every generated size. */
export function blobKeysOf(record: AttachmentRecord): string[] {
  const keys = new Set<string>();
  if (record.file) keys.add(record.file);
  if (isImageMetadata(record.media_details)) for (const key of keysOf(record.media_details)) keys.add(key);
  return [...keys];
}
