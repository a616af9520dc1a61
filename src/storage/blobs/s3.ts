import { AwsClient } from 'aws4fetch';
import { XMLParser } from 'fast-xml-parser';
import { assertBlobKey, assertBlobPrefix, BlobExistsError, type BlobInfo, type BlobStore } from '../../ports/blobs.js';

export interface S3BlobStoreOptions {
  bucket: string;
  /** The service address, e.g. `https://s3.eu-west-1.amazonaws.com` or a compatible server's. */
  endpoint: string;
  /** Signing region (default `us-east-1`, which most compatible servers accept). */
  region?: string;
  credentials: { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
  /** Keys are stored below this prefix (`site-a/` keeps several sites in one bucket). */
  keyPrefix?: string;
  /** Bucket in the host name (`bucket.endpoint`) instead of the path; default false (path style). */
  virtualHosted?: boolean;
  /** Keys asked for per listing request (default and most: 1000). */
  listPageSize?: number;
  /** The fetch to use (tests, proxies); default the global one. */
  fetch?: typeof fetch;
  /** Tries again after a 500, 502, 503 or 504 or a failed connection, this many times at most (default 3, 0: never). */
  retries?: number;
}

/** Thrown when the service answers a request with an unexpected status. */
export class S3BlobStoreError extends Error {
  constructor(readonly status: number, operation: string, key: string) {
    super(`S3 ${operation} of ${JSON.stringify(key)} answered ${status}.`);
    this.name = 'S3BlobStoreError';
  }
}

const listParser = new XMLParser({ isArray: (name) => name === 'Contents', parseTagValue: false, htmlEntities: true });
const MAX_LIST_PAGE = 1000;
const HEADS_AT_ONCE = 8;
/** Answers S3 documents as worth another try: an internal error, a busy or unreachable service. */
const RETRIED_STATUSES = new Set([500, 502, 503, 504]);
const FIRST_RETRY_MS = 50;

/**
 * Blobs in an S3-compatible bucket, for hosts whose processes or machines share one database: every process
 * sees every upload. Requests are signed with AWS Signature V4; public URLs of the files come from the uploads'
 * `baseUrl` (a CDN or the bucket's public address), not from this store.
 */
export function s3BlobStore(options: S3BlobStoreOptions): BlobStore {
  const client = new AwsClient({ ...options.credentials, region: options.region ?? 'us-east-1', service: 's3' });
  const send = options.fetch ?? fetch;
  const keyPrefix = options.keyPrefix ?? '';
  const listPage = Math.max(1, Math.min(MAX_LIST_PAGE, options.listPageSize ?? MAX_LIST_PAGE));
  const endpoint = new URL(options.endpoint);
  const bucketUrl = options.virtualHosted
    ? `${endpoint.protocol}//${options.bucket}.${endpoint.host}${endpoint.pathname.replace(/\/$/, '')}`
    : `${endpoint.origin}${endpoint.pathname.replace(/\/$/, '')}/${encodeURIComponent(options.bucket)}`;

  const objectUrl = (key: string) => `${bucketUrl}/${(keyPrefix + key).split('/').map(encodeSegment).join('/')}`;
  const retries = Math.max(0, Math.floor(options.retries ?? 3));
  // Each try is signed again: a signature names the time it was made.
  const request = async (url: string, init: RequestInit): Promise<Response> => {
    for (let attempt = 0; ; attempt++) {
      const last = attempt >= retries;
      try {
        const response = await send(await client.sign(url, init));
        if (last || !RETRIED_STATUSES.has(response.status)) return response;
        await response.arrayBuffer();
      } catch (error) {
        if (last || !(error instanceof TypeError)) throw error;
      }
      await backOff(attempt);
    }
  };

  const head = async (key: string): Promise<BlobInfo | null> => {
    const response = await request(objectUrl(key), { method: 'HEAD' });
    if (response.status === 404) return null;
    if (!response.ok) throw new S3BlobStoreError(response.status, 'HEAD', key);
    return { key, size: Number(response.headers.get('content-length') ?? 0), contentType: response.headers.get('content-type') ?? 'application/octet-stream' };
  };

  return {
    async put(key, bytes, { contentType }) {
      assertBlobKey(key);
      const response = await request(objectUrl(key), { method: 'PUT', body: bytes as Uint8Array<ArrayBuffer>, headers: { 'Content-Type': contentType } });
      await response.arrayBuffer();
      if (!response.ok) throw new S3BlobStoreError(response.status, 'PUT', key);
    },
    async create(key, bytes, { contentType }) {
      assertBlobKey(key);
      // The conditional write is atomic where the service honours it (AWS S3, R2, MinIO); the look first keeps
      // servers that ignore the condition from replacing a blob that is already there.
      if ((await head(key)) !== null) throw new BlobExistsError(key);
      const response = await request(objectUrl(key), {
        method: 'PUT', body: bytes as Uint8Array<ArrayBuffer>, headers: { 'Content-Type': contentType, 'If-None-Match': '*' },
      });
      await response.arrayBuffer();
      // 412: the key exists; 409: another conditional write of the key is under way.
      if (response.status === 412 || response.status === 409) throw new BlobExistsError(key);
      if (!response.ok) throw new S3BlobStoreError(response.status, 'PUT', key);
    },
    async get(key) {
      assertBlobKey(key);
      const response = await request(objectUrl(key), { method: 'GET' });
      if (response.status === 404) {
        await response.arrayBuffer();
        return null;
      }
      if (!response.ok) throw new S3BlobStoreError(response.status, 'GET', key);
      const bytes = new Uint8Array(await response.arrayBuffer());
      return { key, size: bytes.byteLength, contentType: response.headers.get('content-type') ?? 'application/octet-stream', bytes };
    },
    async exists(key) {
      assertBlobKey(key);
      return (await head(key)) !== null;
    },
    async remove(key) {
      assertBlobKey(key);
      // S3 answers a delete the same whether or not the object existed.
      if ((await head(key)) === null) return false;
      const response = await request(objectUrl(key), { method: 'DELETE' });
      await response.arrayBuffer();
      if (!response.ok && response.status !== 404) throw new S3BlobStoreError(response.status, 'DELETE', key);
      return true;
    },
    async list(prefix) {
      assertBlobPrefix(prefix);
      const keys: string[] = [];
      // The first listing API pages by `marker` (the last key seen), which every S3-compatible server honours
      // alike; the second one's continuation tokens are opaque and implemented unevenly.
      let marker: string | undefined;
      do {
        const query = new URLSearchParams({ prefix: keyPrefix + prefix, 'max-keys': String(listPage) });
        if (marker !== undefined) query.set('marker', marker);
        const response = await request(`${bucketUrl}?${query}`, { method: 'GET' });
        const text = await response.text();
        if (!response.ok) throw new S3BlobStoreError(response.status, 'list', prefix);
        const result = (listParser.parse(text) as { ListBucketResult?: ListBucketResult }).ListBucketResult ?? {};
        const page = (result.Contents ?? []).map((entry) => String(entry.Key));
        for (const key of page) keys.push(key.slice(keyPrefix.length));
        marker = result.IsTruncated === 'true' && page.length > 0 ? page[page.length - 1] : undefined;
      } while (marker !== undefined);
      // Listings carry no content types, so each listed object is asked for its own.
      const found: BlobInfo[] = [];
      for (let start = 0; start < keys.length; start += HEADS_AT_ONCE) {
        const batch = await Promise.all(keys.slice(start, start + HEADS_AT_ONCE).map(head));
        for (const info of batch) if (info) found.push(info);
      }
      return found.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    },
  };
}

/** Waits before another try: up to 50 ms, then 100 ms, 200 ms…, a random part of it so retrying processes spread. */
function backOff(attempt: number): Promise<void> {
  const ceiling = FIRST_RETRY_MS * 2 ** attempt;
  return new Promise((resolve) => setTimeout(resolve, ceiling / 2 + Math.random() * (ceiling / 2)));
}

interface ListBucketResult {
  Contents?: { Key: string }[];
  IsTruncated?: string;
}

function encodeSegment(segment: string): string {
  return encodeURIComponent(segment).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}
