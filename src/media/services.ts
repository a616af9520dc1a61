/** The services the media module needs, from the host's options or the defaults. */
import type { BlobStore } from '../ports/blobs.js';
import type { HttpClient } from '../ports/http-client.js';
import { createMemoryBlobStore } from '../storage/blobs/memory.js';
import { resolveUploads, type UploadsConfig, type UploadsOptions } from './config.js';
import type { ImageWorkOptions } from './images/work.js';
import { createSafeHttpClient } from './outbound/client.js';

export interface MediaServiceOptions {
  blobs?: BlobStore;
  httpClient?: HttpClient;
  uploads?: UploadsOptions;
  images?: ImageWorkOptions;
}

export function mediaServices(options: MediaServiceOptions): { blobs: BlobStore; httpClient: HttpClient; uploads: UploadsConfig } {
  return {
    blobs: options.blobs ?? createMemoryBlobStore(),
    httpClient: options.httpClient ?? createSafeHttpClient(),
    uploads: resolveUploads(options.uploads, options.images),
  };
}
