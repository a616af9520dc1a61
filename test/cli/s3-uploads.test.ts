import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { AwsClient } from 'aws4fetch';
import S3rver from 's3rver';
import { run, serve } from './helpers.js';

let server: S3rver;
let endpoint: string;
let folder: string;
const credentials = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
const environment = { AWS_ACCESS_KEY_ID: credentials.accessKeyId, AWS_SECRET_ACCESS_KEY: credentials.secretAccessKey };

before(async () => {
  folder = await mkdtemp(join(tmpdir(), 'quire-cli-s3-'));
  server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: folder, configureBuckets: [{ name: 'site-uploads', configs: [] }] });
  endpoint = `http://127.0.0.1:${((await server.run()) as AddressInfo).port}`;
});

after(async () => {
  await server.close();
  await rm(folder, { recursive: true, force: true });
});

describe('quire serve --blobs', () => {
  test('keeps uploads in the bucket, links them below --uploads-url, and still serves them', async () => {
    const password = 'abcd efgh ijkl mnop qrst uvwx';
    const authorization = `Basic ${Buffer.from(`admin:${password}`).toString('base64')}`;
    const blobs = `s3://site-uploads?endpoint=${encodeURIComponent(endpoint)}&prefix=blog/`;
    const { child, apiUrl, finished } = await serve(
      ['--admin-app-password', password, '--blobs', blobs, '--uploads-url', 'https://cdn.example.com/files'], environment);
    try {
      const uploaded = await fetch(new URL('cms/v2/media', apiUrl), {
        method: 'POST',
        headers: { authorization, 'content-type': 'text/plain', 'content-disposition': 'attachment; filename="notes.txt"' },
        body: 'kept in the bucket',
      });
      assert.equal(uploaded.status, 201);
      const sourceUrl = ((await uploaded.json()) as { source_url: string }).source_url;
      const match = /^https:\/\/cdn\.example\.com\/files\/(\d{4}\/\d{2}\/notes\.txt)$/.exec(sourceUrl);
      assert.ok(match, sourceUrl);
      const inBucket = await new AwsClient({ ...credentials, service: 's3', region: 'us-east-1' }).fetch(`${endpoint}/site-uploads/blog/${match[1]}`);
      assert.equal(await inBucket.text(), 'kept in the bucket');
      const served = await fetch(new URL(`/uploads/${match[1]}`, apiUrl));
      assert.equal(await served.text(), 'kept in the bucket');
    } finally {
      child.kill('SIGTERM');
    }
    assert.equal((await finished).code, 0);
  });

  test('refuses a malformed bucket URL, missing credentials and --uploads beside it', async () => {
    const malformed = await run(['serve', '--storage', 'memory', '--blobs', 'https://bucket']).finished;
    assert.equal(malformed.code, 2);
    assert.match(malformed.stderr, /--blobs must be a URL such as s3:\/\/bucket/);
    const combined = await run(['serve', '--storage', 'memory', '--uploads', folder, '--blobs', `s3://site-uploads?endpoint=${endpoint}`]).finished;
    assert.match(combined.stderr, /--blobs cannot be combined with --uploads/);
    const anonymous = await run(['serve', '--storage', 'memory', '--port', '0', '--blobs', `s3://site-uploads?endpoint=${endpoint}`],
      { AWS_ACCESS_KEY_ID: '', AWS_SECRET_ACCESS_KEY: '' }).finished;
    assert.equal(anonymous.code, 1);
    assert.match(anonymous.stderr, /needs AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY/);
  });
});
