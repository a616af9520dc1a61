import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { createSafeHttpClient } from '../../src/media/outbound/index.js';
import { as, assertNear, colourAt, makeMediaSite, noise, png, quarters, RED, storedBytes } from './helpers.js';

/** A loopback server standing in for a remote site; the tests reach it only through the allow-list. */
let server: Server;
let base: string;
let hits: string[] = [];
const picture = png(quarters(320, 240));
const bigPicture = png(noise(64, 64));

before(async () => {
  server = createServer((request, response) => {
    hits.push(request.url ?? '');
    switch (request.url) {
      case '/images/photo.png':
        response.writeHead(200, { 'content-type': 'image/png' });
        response.end(picture);
        return;
      case '/images/big.png':
        response.writeHead(200, { 'content-type': 'image/png' });
        response.end(bigPicture);
        return;
      case '/images/page.png':
        response.writeHead(200, { 'content-type': 'text/html' });
        response.end('<html><script>alert(1)</script></html>');
        return;
      case '/images/moved.png':
        response.writeHead(302, { location: 'http://10.0.0.8/internal.png' });
        response.end();
        return;
      default:
        response.writeHead(404);
        response.end('missing');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

after(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const allowListed = () => makeMediaSite({ httpClient: createSafeHttpClient({ allow: ['127.0.0.1'] }) });

describe('sideloading from a url', () => {
  it('fetches the image, stores it and makes its sizes', async () => {
    const site = await allowListed();
    const response = await as(site, 'author')('POST', '/cms/v2/media', { json: { url: `${base}/images/photo.png`, alt_text: 'Remote' } });
    assert.equal(response.status, 201);
    assert.equal(response.json.source_url, 'http://example.test/uploads/2026/11/photo.png');
    assert.equal(response.json.title.raw, 'photo');
    assert.equal(response.json.alt_text, 'Remote');
    assert.deepEqual(Object.keys(response.json.media_details.sizes), ['medium', 'thumbnail', 'full']);
    assertNear(colourAt(await storedBytes(site, response.json.source_url), 4, 4), RED);
  });

  it('refuses loopback and private targets without the allow-list, before connecting', async () => {
    hits = [];
    const site = await makeMediaSite();
    const response = await as(site, 'administrator')('POST', '/cms/v2/media', { json: { url: `${base}/images/photo.png` } });
    assert.equal(response.status, 400);
    assert.equal(response.json.code, 'rest_invalid_url');
    const metadata = await as(site, 'administrator')('POST', '/cms/v2/media', { json: { url: 'http://169.254.169.254/latest/meta-data/x.png' } });
    assert.equal(metadata.json.code, 'rest_invalid_url');
    assert.deepEqual(hits, []);
    assert.deepEqual(await site.blobs.list(''), []);
  });

  it('re-checks redirect targets', async () => {
    const site = await allowListed();
    const response = await as(site, 'administrator')('POST', '/cms/v2/media', { json: { url: `${base}/images/moved.png` } });
    assert.equal(response.status, 400);
    assert.equal(response.json.code, 'rest_invalid_url');
  });

  it('only fetches addresses naming an image file', async () => {
    hits = [];
    const site = await allowListed();
    const script = await as(site, 'administrator')('POST', '/cms/v2/media', { json: { url: `${base}/shell.php` } });
    assert.equal(script.status, 400);
    assert.equal(script.json.message, 'The provided URL does not point to a supported image file.');
    const folder = await as(site, 'administrator')('POST', '/cms/v2/media', { json: { url: `${base}/` } });
    assert.equal(folder.json.message, 'Could not determine a filename from the provided URL.');
    const notUrl = await as(site, 'administrator')('POST', '/cms/v2/media', { json: { url: 'not a url' } });
    assert.equal(notUrl.status, 400);
    assert.deepEqual(hits, []);
  });

  it('refuses missing files, content that is not the image it claims, and files over the limit', async () => {
    const site = await makeMediaSite({ httpClient: createSafeHttpClient({ allow: ['127.0.0.1'] }), uploads: { maxUploadBytes: 4096 } });
    const missing = await as(site, 'administrator')('POST', '/cms/v2/media', { json: { url: `${base}/images/none.png` } });
    assert.equal(missing.status, 400);
    assert.equal(missing.json.code, 'rest_sideload_failed');
    const page = await as(site, 'administrator')('POST', '/cms/v2/media', { json: { url: `${base}/images/page.png` } });
    assert.equal(page.status, 400);
    assert.equal(page.json.code, 'rest_upload_sideload_error');
    assert.ok(bigPicture.length > 4096, `the test file has ${bigPicture.length} bytes`);
    const big = await as(site, 'administrator')('POST', '/cms/v2/media', { json: { url: `${base}/images/big.png` } });
    assert.equal(big.status, 413);
    assert.deepEqual(await site.blobs.list(''), []);
  });

  it('needs the upload capability', async () => {
    const site = await allowListed();
    const response = await as(site, 'contributor')('POST', '/cms/v2/media', { json: { url: `${base}/images/photo.png` } });
    assert.equal(response.status, 403);
    assert.equal(response.json.code, 'rest_cannot_create');
  });
});
