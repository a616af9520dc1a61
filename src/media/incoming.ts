/**
 * Where a new media item's file comes from: a `multipart/form-data` part named `file`, a raw request body
 * described by `Content-Type` and `Content-Disposition`, or an address to fetch (`url`). Each transport reports
 * its problems with the reference's codes; file-type problems are client errors (400), not the reference's 500.
 */
import { createHash } from 'node:crypto';
import type { RequestContext } from '../core/context.js';
import { CmsError } from '../core/errors.js';
import { isOutboundError } from '../ports/http-client.js';
import { fileTypeOf } from '../format/mime-types.js';
import type { MediaDeps } from './deps.js';

export type Transport = 'multipart' | 'raw' | 'sideload';

export interface IncomingFile {
  transport: Transport;
  /** The name as the client gave it (unsanitised). */
  name: string;
  bytes: Uint8Array;
}

/** The error code each transport reports a rejected file with. */
export const REJECTION_CODES: Readonly<Record<Transport, string>> = {
  multipart: 'rest_upload_unknown_error',
  raw: 'rest_upload_sideload_error',
  sideload: 'rest_upload_sideload_error',
};

/**
 * The file name of a `Content-Disposition` value, the reference's way: the part after the first `;` is split on
 * `;` into `key=value` pairs and `filename` is taken (quotes removed when at both ends); of several values
 * (comma-joined headers) the last usable one wins.
 */
export function fileNameFromDisposition(header: string): string | null {
  let found: string | null = null;
  for (const rawValue of header.split(/,(?=[^,]*;)/)) {
    const value = rawValue.trim();
    const semicolon = value.indexOf(';');
    if (semicolon === -1) continue;
    const attributes: Record<string, string> = {};
    for (const part of value.slice(semicolon + 1).split(';')) {
      const equals = part.indexOf('=');
      if (equals === -1) continue;
      attributes[part.slice(0, equals).trim()] = part.slice(equals + 1).trim();
    }
    let name = attributes.filename?.trim();
    if (!name) continue;
    if (name.length >= 2 && name.startsWith('"') && name.endsWith('"')) name = name.slice(1, -1);
    if (name !== '') found = name;
  }
  return found;
}

function checkContentMd5(context: RequestContext, bytes: Uint8Array): void {
  const expected = context.headers['content-md5'];
  if (!expected) return;
  const actual = createHash('md5').update(bytes).digest('hex');
  if (expected.split(',')[0]!.trim() !== actual) {
    throw new CmsError('rest_upload_hash_mismatch', 'Content hash did not match expected.', 412);
  }
}

function tooBig(limit: number): CmsError {
  return new CmsError('rest_upload_file_too_big', `This file is too big. Files must be less than ${Math.floor(limit / 1024)} KB in size.`, 413, {
    max_bytes: limit,
  });
}

function fromMultipart(context: RequestContext): IncomingFile {
  const part = context.body.files.find((file) => file.field === 'file');
  if (!part) throw new CmsError('rest_upload_no_data', 'No data supplied.', 400);
  checkContentMd5(context, part.bytes);
  return { transport: 'multipart', name: part.filename, bytes: part.bytes };
}

function fromRawBody(context: RequestContext): IncomingFile {
  const bytes = context.body.raw;
  if (bytes.byteLength === 0) throw new CmsError('rest_upload_no_data', 'No data supplied.', 400);
  if (!context.headers['content-type']) throw new CmsError('rest_upload_no_content_type', 'No Content-Type supplied.', 400);
  const disposition = context.headers['content-disposition'];
  if (!disposition) throw new CmsError('rest_upload_no_content_disposition', 'No Content-Disposition supplied.', 400);
  const name = fileNameFromDisposition(disposition);
  if (!name) {
    throw new CmsError(
      'rest_upload_invalid_disposition',
      'Invalid Content-Disposition supplied. Content-Disposition needs to be formatted as `attachment; filename="image.png"` or similar.',
      400,
    );
  }
  checkContentMd5(context, bytes);
  return { transport: 'raw', name, bytes };
}

function invalidUrl(message: string): CmsError {
  return new CmsError('rest_invalid_url', message, 400);
}

/** Fetches `url` through the outbound client; only addresses naming an allowed image type are fetched. */
async function fromUrl(deps: Pick<MediaDeps, 'uploads' | 'httpClient'>, url: string, maxBytes: number): Promise<IncomingFile> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw invalidUrl('Invalid URL. Provide a valid, publicly reachable HTTP or HTTPS image URL.');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw invalidUrl('Invalid URL. Provide a valid, publicly reachable HTTP or HTTPS image URL.');
  }
  let name = '';
  try {
    name = decodeURIComponent(parsed.pathname.slice(parsed.pathname.lastIndexOf('/') + 1));
  } catch {
    name = parsed.pathname.slice(parsed.pathname.lastIndexOf('/') + 1);
  }
  if (name === '') throw invalidUrl('Could not determine a filename from the provided URL.');
  const type = fileTypeOf(name, deps.uploads.mimeTypes);
  if (!type || !type.type.startsWith('image/')) throw invalidUrl('The provided URL does not point to a supported image file.');

  let response;
  try {
    response = await deps.httpClient.fetch({ url: parsed.href, maxBytes });
  } catch (error) {
    if (!isOutboundError(error)) throw error;
    if (error.code === 'too_large') throw tooBig(maxBytes);
    if (error.code === 'blocked_address' || error.code === 'blocked_port' || error.code === 'invalid_url') {
      throw invalidUrl('Invalid URL. Provide a valid, publicly reachable HTTP or HTTPS image URL.');
    }
    throw new CmsError('rest_sideload_failed', `The file could not be downloaded: ${error.message}`, 400, { reason: error.code });
  }
  if (response.status < 200 || response.status > 299) {
    throw new CmsError('rest_sideload_failed', `The file could not be downloaded: the server answered ${response.status}.`, 400, {
      remote_status: response.status,
    });
  }
  return { transport: 'sideload', name, bytes: response.body };
}

/** The file a create request carries, with the size limit applied. */
export async function incomingFile(context: RequestContext, deps: Pick<MediaDeps, 'uploads' | 'httpClient'>): Promise<IncomingFile> {
  const limit = deps.uploads.maxUploadBytes;
  const url = context.params.url;
  let file: IncomingFile;
  if (typeof url === 'string' && url !== '') file = await fromUrl(deps, url, limit);
  else if (context.body.mediaType === 'multipart/form-data' || context.body.files.length > 0) file = fromMultipart(context);
  else file = fromRawBody(context);
  if (file.bytes.byteLength > limit) throw tooBig(limit);
  return file;
}
