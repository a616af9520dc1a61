/**
 * The upload settings other resources read (the sliders' file addresses, WXR's file import): where stored files
 * are served from, the size limit and the accepted types. Media's resolved settings (`UploadsConfig`, which
 * adds the image sizes, formats and the image worker pool) extend them.
 */
import type { MimeTable } from '../format/mime-types.js';

export interface UploadsSettings {
  /** Public address of the stored files, without a trailing slash; undefined for `{site url}/uploads`. */
  baseUrl: string | undefined;
  /** Largest file accepted by upload or sideload, in bytes. */
  maxUploadBytes: number;
  /** File types by extension (the reference's `upload_mimes`). */
  mimeTypes: MimeTable;
}
