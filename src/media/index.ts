/** `cms/v2/media`: uploads, sideloads, image sub-sizes and edits, and serving stored files. */
import { definePostType, publishingDuePosts } from '../content/post-type/index.js';
import { CMS } from '../core/names.js';
import { defineResource } from '../core/resource.js';
import type { MediaDeps } from './deps.js';
import { mediaRoutes } from './routes.js';
import { ATTACHMENT_TYPE, buildMediaSchema } from './schema.js';

export { resolveUploads, DEFAULT_MAX_UPLOAD_BYTES, type UploadsOptions, type UploadsConfig } from './config.js';
export { ImageCodecUnavailableError, type ImageWorkOptions } from './images/work.js';
export { createSafeHttpClient, isBlockedAddress, parseAddress, type SafeHttpClientOptions } from './outbound/index.js';
export { serveUpload, keyOfUploadPath, type ServeUploadRequest, type ServeUploadOptions } from './serve.js';
export { ATTACHMENT_TYPE } from './schema.js';
export { attachmentsIn, fileUrl, isAttachment, uploadsBaseUrl, type AttachmentRecord } from './record.js';
export { attachmentLink } from './prepare.js';
export { checkFileType } from './files/check-type.js';
export { sanitizeFileName } from './files/file-name.js';
export { uniqueFileName } from './files/unique-name.js';
export { serially, writeUnderFreeName } from './files/free-name.js';
export { readImageHeader } from './images/header.js';
export { readImageMeta } from './images/image-meta.js';
export { sniffContent } from './files/sniff.js';
export { folderOf, isImageMetadata, joinKey } from './images/metadata.js';
export { constrainDimensions } from './images/dimensions.js';
export type { MediaDeps, MediaType } from './deps.js';

export const mediaResource = defineResource({
  namespace: CMS,
  deps: (shared: MediaDeps) => shared,
  routes: (deps) => publishingDuePosts(mediaRoutes(definePostType(ATTACHMENT_TYPE, deps, { schema: buildMediaSchema() })), deps),
});
