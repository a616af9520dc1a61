/**
 * Serving stored files, for hosts whose web server does not serve the uploads folder itself: a path below the
 * uploads base URL → a `CmsResponse` with the file's type, length, validator and caching headers. Uploaded
 * content is served so that a browser never runs it as part of the site (`nosniff` and a sandboxing policy).
 *
 *   const response = await serveUpload(cms.deps.blobs, '/2024/05/photo.jpg', { method: 'GET', headers });
 */
import { createHash } from 'node:crypto';
import type { CmsResponse } from '../core/types.js';
import { isValidBlobKey, type BlobStore } from '../ports/blobs.js';

export interface ServeUploadRequest {
  method?: string;
  /** Request headers, names lower-cased (`if-none-match` is honoured). */
  headers?: Record<string, string | undefined>;
}

export interface ServeUploadOptions {
  /** `Cache-Control` max-age in seconds (default one day). */
  maxAgeSeconds?: number;
}

const SANDBOX = "default-src 'none'; img-src 'self' data:; media-src 'self'; style-src 'unsafe-inline'; sandbox";

function notFound(): CmsResponse {
  return { status: 404, headers: { 'Content-Type': 'text/plain; charset=UTF-8', 'X-Content-Type-Options': 'nosniff' }, body: 'Not Found' };
}

/** The blob key of a path such as `/2024/05/photo%20one.jpg`, or null when it is not a safe key. */
export function keyOfUploadPath(path: string): string | null {
  const segments = path.replace(/^\/+/, '').split('/');
  try {
    const key = segments.map((segment) => decodeURIComponent(segment)).join('/');
    return isValidBlobKey(key) ? key : null;
  } catch {
    return null;
  }
}

export async function serveUpload(blobs: BlobStore, path: string, request: ServeUploadRequest = {}, options: ServeUploadOptions = {}): Promise<CmsResponse> {
  const method = (request.method ?? 'GET').toUpperCase();
  if (method !== 'GET' && method !== 'HEAD') {
    return { status: 405, headers: { Allow: 'GET, HEAD', 'Content-Type': 'text/plain; charset=UTF-8' }, body: 'Method Not Allowed' };
  }
  const key = keyOfUploadPath(path);
  if (key === null) return notFound();
  const blob = await blobs.get(key);
  if (!blob) return notFound();

  const etag = `"${createHash('sha256').update(blob.bytes).digest('base64url').slice(0, 32)}"`;
  const headers: Record<string, string> = {
    'Content-Type': blob.contentType.startsWith('text/') ? `${blob.contentType}; charset=UTF-8` : blob.contentType,
    'Content-Length': String(blob.size),
    'Cache-Control': `public, max-age=${options.maxAgeSeconds ?? 86_400}`,
    ETag: etag,
    'X-Content-Type-Options': 'nosniff',
    'Content-Security-Policy': SANDBOX,
  };
  const ifNoneMatch = request.headers?.['if-none-match'];
  if (ifNoneMatch && ifNoneMatch.split(',').some((candidate) => candidate.trim() === etag || candidate.trim() === '*')) {
    const { 'Content-Length': _length, ...rest } = headers;
    return { status: 304, headers: rest, body: null };
  }
  return { status: 200, headers, body: method === 'HEAD' ? null : blob.bytes };
}
