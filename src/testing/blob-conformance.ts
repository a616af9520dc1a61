import assert from 'node:assert/strict';
import { describe, it, useRunner, type TestRunner } from './runner.js';
import { BlobExistsError, type BlobStore } from '../ports/blobs.js';

const bytes = (text: string) => new TextEncoder().encode(text);

/**
 * The blob-store suite: every blob store (memory, filesystem, S3, a host's own) must pass it. `make` returns an
 * empty store for each test; the tests register with node:test, or with `runner` (another runner's `describe`, `it`).
 */
export function runBlobStoreConformance(name: string, make: () => Promise<BlobStore>, runner?: TestRunner): void {
  useRunner(runner);
  describe(name, () => {
    it('puts, gets, lists by prefix and removes', async () => {
      const store = await make();
      await store.put('2026/11/a.jpg', bytes('A'), { contentType: 'image/jpeg' });
      await store.put('2026/11/a-150x150.jpg', bytes('AA'), { contentType: 'image/jpeg' });
      await store.put('2026/12/b.png', bytes('B'), { contentType: 'image/png' });
      const got = await store.get('2026/11/a.jpg');
      assert.equal(new TextDecoder().decode(got!.bytes), 'A');
      assert.equal(got!.contentType, 'image/jpeg');
      assert.equal(got!.size, 1);
      assert.equal(await store.exists('2026/11/a.jpg'), true);
      assert.equal(await store.exists('2026/11/zzz.jpg'), false);
      assert.deepEqual((await store.list('2026/11/')).map((blob) => blob.key), ['2026/11/a-150x150.jpg', '2026/11/a.jpg']);
      assert.deepEqual((await store.list('2026/11/a-')).map((blob) => blob.key), ['2026/11/a-150x150.jpg']);
      assert.deepEqual((await store.list('')).map((blob) => blob.key), ['2026/11/a-150x150.jpg', '2026/11/a.jpg', '2026/12/b.png']);
      assert.deepEqual(await store.list('2030/'), []);
      assert.equal(await store.remove('2026/11/a.jpg'), true);
      assert.equal(await store.remove('2026/11/a.jpg'), false);
      assert.equal(await store.get('2026/11/a.jpg'), null);
    });

    it('keeps binary content and keys with spaces, unicode and reserved characters', async () => {
      const store = await make();
      const binary = Uint8Array.from({ length: 256 }, (_, index) => index);
      const key = "2026/11/été photo+(1)&'x'=y.bin";
      await store.put(key, binary, { contentType: 'application/octet-stream' });
      assert.deepEqual((await store.get(key))!.bytes, binary);
      assert.deepEqual((await store.list('2026/11/été')).map((blob) => [blob.key, blob.size]), [[key, 256]]);
      assert.equal(await store.remove(key), true);
    });

    it('replaces a blob written twice', async () => {
      const store = await make();
      await store.put('x/y.txt', bytes('one'), { contentType: 'text/plain' });
      await store.put('x/y.txt', bytes('two'), { contentType: 'text/plain' });
      assert.equal(new TextDecoder().decode((await store.get('x/y.txt'))!.bytes), 'two');
    });

    it('creates a blob only where none is, leaving an existing one as it was', async () => {
      const store = await make();
      if (store.create === undefined) return;
      await store.create('2026/11/new.txt', bytes('first'), { contentType: 'text/plain' });
      assert.equal(new TextDecoder().decode((await store.get('2026/11/new.txt'))!.bytes), 'first');
      await assert.rejects(store.create('2026/11/new.txt', bytes('second'), { contentType: 'text/plain' }), BlobExistsError);
      assert.equal(new TextDecoder().decode((await store.get('2026/11/new.txt'))!.bytes), 'first');
      await store.put('2026/11/put.txt', bytes('put'), { contentType: 'text/plain' });
      await assert.rejects(store.create('2026/11/put.txt', bytes('other'), { contentType: 'text/plain' }), BlobExistsError);
      assert.deepEqual((await store.list('2026/11/')).map((blob) => blob.key), ['2026/11/new.txt', '2026/11/put.txt']);
      await assert.rejects(store.create('../escape.txt', bytes('x'), { contentType: 'text/plain' }), /Not a valid blob key/);
    });

    it('refuses traversal keys on every operation', async () => {
      const store = await make();
      await assert.rejects(store.put('../escape.txt', bytes('x'), { contentType: 'text/plain' }), /Not a valid blob key/);
      await assert.rejects(store.get('2026/../../escape.txt'), /Not a valid blob key/);
      await assert.rejects(store.remove('/etc/passwd'), /Not a valid blob key/);
      await assert.rejects(store.exists('a/../../b'), /Not a valid blob key/);
      await assert.rejects(store.list('../'), /Not a valid blob key/);
    });
  });
}

