import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { BlobExistsError, isValidBlobKey } from '../../src/ports/blobs.js';
import { runBlobStoreConformance } from '../../src/testing/blob-conformance.js';
import { serveUpload } from '../../src/media/serve.js';
import { createFilesystemBlobStore } from '../../src/storage/blobs/filesystem.js';
import { createMemoryBlobStore } from '../../src/storage/blobs/memory.js';

const bytes = (text: string) => new TextEncoder().encode(text);

describe('blob keys', () => {
  it('accepts relative year/month paths and refuses anything that could leave the store', () => {
    assert.equal(isValidBlobKey('2026/11/photo.jpg'), true);
    assert.equal(isValidBlobKey('photo.jpg'), true);
    for (const key of ['', '../secret', '2026/../../etc/passwd', '/etc/passwd', '2026//x.jpg', './x.jpg', 'a\\b.jpg', 'C:/x.jpg', 'a\u0000b.jpg', '2026/11/']) {
      assert.equal(isValidBlobKey(key), false, JSON.stringify(key));
    }
  });
});

let folder: string;
before(async () => {
  folder = await mkdtemp(join(tmpdir(), 'quire-blobs-'));
});
after(async () => {
  await rm(folder, { recursive: true, force: true });
});

runBlobStoreConformance('memory blob store', async () => createMemoryBlobStore());
let counter = 0;
runBlobStoreConformance('filesystem blob store', async () => createFilesystemBlobStore({ root: join(folder, `store-${counter++}`) }));

describe('filesystem blob store layout', () => {
  it('keeps files at their keys below the root, with types from their extension, and no temporary files', async () => {
    const root = join(folder, 'layout');
    const store = createFilesystemBlobStore({ root });
    await store.put('2026/11/photo.png', bytes('png bytes'), { contentType: 'image/png' });
    assert.equal(await readFile(join(root, '2026', '11', 'photo.png'), 'utf8'), 'png bytes');
    assert.deepEqual(await readdir(join(root, '2026', '11')), ['photo.png']);
    assert.equal((await store.get('2026/11/photo.png'))!.contentType, 'image/png');
    await writeFile(join(root, 'outside.txt'), 'not reachable through ..');
    await assert.rejects(store.get('2026/../outside.txt'));
  });

  it('lets exactly one of many writers create a key at once, and leaves no temporary files', async () => {
    const root = join(folder, 'create-race');
    const stores = Array.from({ length: 8 }, () => createFilesystemBlobStore({ root }));
    const results = await Promise.allSettled(stores.map((store, index) => store.create!('2026/11/dup.txt', bytes(`writer ${index}`), { contentType: 'text/plain' })));
    const winners = results.flatMap((result, index) => (result.status === 'fulfilled' ? [index] : []));
    assert.equal(winners.length, 1);
    for (const result of results) if (result.status === 'rejected') assert.ok(result.reason instanceof BlobExistsError);
    assert.equal(await readFile(join(root, '2026', '11', 'dup.txt'), 'utf8'), `writer ${winners[0]}`);
    assert.deepEqual(await readdir(join(root, '2026', '11')), ['dup.txt']);
  });
});

describe('serveUpload', () => {
  it('serves a stored file with its type, length, validator and caching headers', async () => {
    const store = createMemoryBlobStore();
    await store.put('2026/11/one two.png', bytes('PNGDATA'), { contentType: 'image/png' });
    const response = await serveUpload(store, '/2026/11/one%20two.png');
    assert.equal(response.status, 200);
    assert.equal(response.headers['Content-Type'], 'image/png');
    assert.equal(response.headers['Content-Length'], '7');
    assert.match(response.headers['Cache-Control']!, /public, max-age=\d+/);
    assert.equal(response.headers['X-Content-Type-Options'], 'nosniff');
    assert.match(response.headers['Content-Security-Policy']!, /sandbox/);
    assert.equal(new TextDecoder().decode(response.body as Uint8Array), 'PNGDATA');

    const again = await serveUpload(store, '/2026/11/one%20two.png', { headers: { 'if-none-match': response.headers.ETag } });
    assert.equal(again.status, 304);
    assert.equal(again.body, null);
    const head = await serveUpload(store, '/2026/11/one%20two.png', { method: 'HEAD' });
    assert.equal(head.status, 200);
    assert.equal(head.body, null);
  });

  it('answers 404 for missing files and unsafe paths, 405 for writes', async () => {
    const store = createMemoryBlobStore();
    assert.equal((await serveUpload(store, '/2026/11/none.png')).status, 404);
    assert.equal((await serveUpload(store, '/../../etc/passwd')).status, 404);
    assert.equal((await serveUpload(store, '/2026/%2e%2e/%2e%2e/etc/passwd')).status, 404);
    assert.equal((await serveUpload(store, '/2026/11/x.png', { method: 'DELETE' })).status, 405);
  });
});
