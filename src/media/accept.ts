/**
 * Accepting a file into the store: the name is sanitised, the type must be allowed and match the content,
 * images must be readable (and not absurdly large), and the file gets a free name in its month's folder.
 * Nothing is stored before every check has passed.
 */
import { userCan } from '../auth/index.js';
import type { Principal } from '../core/context.js';
import { CmsError } from '../core/errors.js';
import type { UploadsConfig } from './config.js';
import type { MediaDeps } from './deps.js';
import { checkFileType } from './files/check-type.js';
import { sanitizeFileName, splitExtension } from './files/file-name.js';
import { allowedMimeTypes, defaultExtensionFor, type MimeTable } from '../format/mime-types.js';
import { writeUnderFreeName } from './files/free-name.js';
import { canEdit, ImageDecodeError } from './images/codec.js';
import { readImageHeader, type ImageHeader } from './images/header.js';
import type { RenderResult } from './images/render.js';
import { renderJobFor } from './images/subsizes.js';
import { REJECTION_CODES, type IncomingFile } from './incoming.js';
import { nextTurn } from '../format/turn.js';

export interface AcceptedFile {
  /** The stored key, `YYYY/MM/name.ext`. */
  key: string;
  /** The name the client sent, for the default title. */
  clientName: string;
  type: string;
  bytes: Uint8Array;
  /** Images: the size from the header, and the files made from it when the editor can read it. */
  header: ImageHeader | null;
  rendered: RenderResult | null;
}

/** The types this user may upload. */
export function allowedTypesFor(user: Principal | null, deps: Pick<MediaDeps, 'capabilityRules' | 'uploads'>): MimeTable {
  const unfiltered = userCan(user, 'unfiltered_html', undefined, deps.capabilityRules);
  return allowedMimeTypes(unfiltered, deps.uploads.mimeTypes);
}

/** `YYYY/MM` of a `YYYY-MM-DD…` date. */
export function monthFolder(date: string): string {
  return `${date.slice(0, 4)}/${date.slice(5, 7)}`;
}

/** Extensions an image's generated files may be written with besides its own (for name clashes). */
export function alternateExtensions(type: string, uploads: UploadsConfig): string[] {
  const output = uploads.images.outputFormats[type];
  const extension = output && output !== type ? defaultExtensionFor(output) : null;
  return extension ? [`.${extension}`] : [];
}

/** Checks `incoming`, then stores it in `folder` under a free name. */
export async function acceptFile(
  user: Principal | null, deps: Pick<MediaDeps, 'capabilityRules' | 'uploads' | 'blobs' | 'storage'>, incoming: IncomingFile, folder: string,
  wanted: { generateSubSizes: boolean; convertFormat: boolean } = { generateSubSizes: true, convertFormat: true },
): Promise<AcceptedFile> {
  const code = REJECTION_CODES[incoming.transport];
  const reject = (message: string, status = 400) => new CmsError(code, message, status);
  const allowed = allowedTypesFor(user, deps);

  let name = sanitizeFileName(incoming.name, allowed);
  const [base, extension] = splitExtension(name);
  if (base === '' || base.startsWith('.')) name = `unnamed-file${extension || name}`;

  const check = checkFileType(name, incoming.bytes, allowed);
  if (!check.ok) throw reject(check.message);

  let header: ImageHeader | null = null;
  let rendered: RenderResult | null = null;
  if (check.type.startsWith('image/')) {
    if (canEdit(check.type)) deps.uploads.images.work.warm();
    await nextTurn();
    header = readImageHeader(incoming.bytes, check.type);
    if (!header) throw reject('The image could not be read.');
    if (canEdit(check.type)) {
      const limit = deps.uploads.images.maxPixels;
      if (header.width * header.height > limit) {
        throw new CmsError('rest_upload_image_too_large', `The image has ${header.width * header.height} pixels; at most ${limit} can be processed.`, 400);
      }
      // Decoding is the check that the image is readable, so the files are made now, from that one decode.
      const { images } = deps.uploads;
      const job = renderJobFor({
        bytes: incoming.bytes, type: check.type, extension: splitExtension(check.fileName)[1].slice(1), options: images, ...wanted,
      });
      try {
        rendered = await images.work.render(job);
      } catch (error) {
        if (error instanceof ImageDecodeError) throw reject('The image could not be read.');
        throw error;
      }
    }
  }

  const key = await writeUnderFreeName(deps, { folder, fileName: check.fileName, bytes: incoming.bytes, contentType: check.type }, {
    alternateExtensions: alternateExtensions(check.type, deps.uploads),
  });
  return { key, clientName: incoming.name, type: check.type, bytes: incoming.bytes, header, rendered };
}
