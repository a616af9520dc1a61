import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import S3rver from 's3rver';
import { s3BlobStore, S3BlobStoreError } from '../../src/storage/blobs/s3.js';
import { runBlobStoreConformance } from '../../src/testing/blob-conformance.js';

/** A local S3-compatible server (s3rver), on loopback, for the S3 store: the suite never reaches the network. */
let server: S3rver;
let endpoint: string;
let folder: string;
let buckets = 0;
const credentials = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

before(async () => {
  folder = await mkdtemp(join(tmpdir(), 'quire-s3-'));
  server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: folder });
  const address = (await server.run()) as AddressInfo;
  endpoint = `http://127.0.0.1:${address.port}`;
});

after(async () => {
  await server.close();
  await rm(folder, { recursive: true, force: true });
});

async function freshBucket(): Promise<string> {
  const bucket = `bucket-${buckets++}`;
  // Creating the bucket is the host's job; the test does it with a signed PUT of its own.
  const { AwsClient } = await import('aws4fetch');
  const created = await new AwsClient({ ...credentials, service: 's3', region: 'us-east-1' }).fetch(`${endpoint}/${bucket}`, { method: 'PUT' });
  assert.equal(created.status, 200);
  return bucket;
}

runBlobStoreConformance('S3 blob store', async () => s3BlobStore({ bucket: await freshBucket(), endpoint, credentials }));
runBlobStoreConformance('S3 blob store below a key prefix', async () =>
  s3BlobStore({ bucket: await freshBucket(), endpoint, credentials, keyPrefix: 'site-a/' }));

describe('S3 blob store', () => {
  it('lists past one page of keys', async () => {
    const store = s3BlobStore({ bucket: await freshBucket(), endpoint, credentials, listPageSize: 4 });
    const keys = Array.from({ length: 11 }, (_, index) => `many/${String(index).padStart(2, '0')}.txt`);
    await Promise.all(keys.map((key) => store.put(key, new Uint8Array([1]), { contentType: 'text/plain' })));
    await store.put('more/00.txt', new Uint8Array([1]), { contentType: 'text/plain' });
    assert.deepEqual((await store.list('many/')).map((blob) => blob.key), keys);
  });

  it('keeps sites below their prefixes apart in one bucket', async () => {
    const bucket = await freshBucket();
    const siteA = s3BlobStore({ bucket, endpoint, credentials, keyPrefix: 'a/' });
    const siteB = s3BlobStore({ bucket, endpoint, credentials, keyPrefix: 'b/' });
    await siteA.put('2026/11/x.txt', new TextEncoder().encode('A'), { contentType: 'text/plain' });
    assert.equal(await siteB.get('2026/11/x.txt'), null);
    assert.deepEqual(await siteB.list(''), []);
  });

  it('tries again after a passing failure of the service, and reports one that lasts', async () => {
    const bucket = await freshBucket();
    const failing = (statuses: number[], calls: string[]): typeof fetch => async (input, init) => {
      const request = new Request(input, init);
      calls.push(request.method);
      const status = statuses.shift();
      if (status === 0) throw new TypeError('fetch failed');
      if (status !== undefined) return new Response('<Error><Code>InternalError</Code></Error>', { status });
      return fetch(request);
    };
    const calls: string[] = [];
    const recovering = s3BlobStore({ bucket, endpoint, credentials, fetch: failing([500, 0, 503], calls) });
    await recovering.put('2026/11/a.txt', new TextEncoder().encode('A'), { contentType: 'text/plain' });
    assert.deepEqual(calls, ['PUT', 'PUT', 'PUT', 'PUT']);
    assert.equal(new TextDecoder().decode((await recovering.get('2026/11/a.txt'))!.bytes), 'A');

    const lasting = s3BlobStore({ bucket, endpoint, credentials, retries: 2, fetch: failing([500, 500, 500, 500], []) });
    await assert.rejects(lasting.get('2026/11/a.txt'), (error: unknown) => error instanceof S3BlobStoreError && error.status === 500);
    const refused: string[] = [];
    const final = s3BlobStore({ bucket, endpoint, credentials, fetch: failing([403], refused) });
    await assert.rejects(final.get('2026/11/a.txt'), S3BlobStoreError);
    assert.deepEqual(refused, ['GET'], 'a refusal is not tried again');
  });

  it('reports a service failure as an error, not as success or a missing blob', async () => {
    const store = s3BlobStore({ bucket: 'no-such-bucket', endpoint, credentials });
    await assert.rejects(store.put('x.txt', new Uint8Array([1]), { contentType: 'text/plain' }), S3BlobStoreError);
    await assert.rejects(store.list(''), S3BlobStoreError);
  });
});
