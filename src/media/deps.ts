/** What the media routes are given: the post-type kit's dependencies plus the file store, outbound HTTP and upload settings. */
import type { PostType, PostTypeDeps } from '../content/post-type/index.js';
import type { BlobStore } from '../ports/blobs.js';
import type { HttpClient } from '../ports/http-client.js';
import type { UploadsConfig } from './config.js';

export interface MediaDeps extends PostTypeDeps {
  /** Stored files: uploads and the files made from them. */
  readonly blobs: BlobStore;
  /** Outbound fetches (sideloads), with the outbound safety rules. */
  readonly httpClient: HttpClient;
  readonly uploads: UploadsConfig;
}

/** The `attachment` post type, bound to the media dependencies. */
export type MediaType = PostType<MediaDeps>;
