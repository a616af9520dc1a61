import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { NAME_RESERVATIONS_COLLECTION, reservationId, STALE_RESERVATION_MS, writeUnderFreeName } from '../../src/media/files/free-name.js';
import { createMemoryBlobStore } from '../../src/storage/blobs/index.js';
import { createMemoryStorage } from '../../src/storage/memory/index.js';

const text = (value: string) => new TextEncoder().encode(value);
const file = (body: string) => ({ folder: '2026/11', fileName: 'dup.txt', bytes: text(body), contentType: 'text/plain' });

describe('writeUnderFreeName', () => {
  it('skips a name another writer has reserved, and releases its own reservation', async () => {
    const storage = createMemoryStorage();
    const blobs = createMemoryBlobStore();
    await storage.insert(NAME_RESERVATIONS_COLLECTION, { id: reservationId('2026/11/dup.txt'), key: '2026/11/dup.txt', holder: 'other', at: Date.now() });
    assert.equal(await writeUnderFreeName({ storage, blobs }, file('one')), '2026/11/dup-1.txt');
    assert.equal(await blobs.exists('2026/11/dup.txt'), false);
    assert.deepEqual((await storage.list(NAME_RESERVATIONS_COLLECTION)).items.map((record) => record.key), ['2026/11/dup.txt']);
  });

  it('takes over a stale reservation left by a writer that stopped', async () => {
    const storage = createMemoryStorage();
    const blobs = createMemoryBlobStore();
    const at = Date.now() - STALE_RESERVATION_MS - 1000;
    await storage.insert(NAME_RESERVATIONS_COLLECTION, { id: reservationId('2026/11/dup.txt'), key: '2026/11/dup.txt', holder: 'gone', at });
    assert.equal(await writeUnderFreeName({ storage, blobs }, file('one')), '2026/11/dup.txt');
    assert.equal((await storage.list(NAME_RESERVATIONS_COLLECTION)).items.length, 0);
  });

  it('skips a name whose file appeared after the folder was listed', async () => {
    const storage = createMemoryStorage();
    const memory = createMemoryBlobStore();
    let listed = false;
    const blobs = {
      ...memory,
      async list(prefix: string) {
        const found = await memory.list(prefix);
        if (!listed) {
          listed = true;
          await memory.put('2026/11/dup.txt', text('theirs'), { contentType: 'text/plain' });
        }
        return found;
      },
    };
    assert.equal(await writeUnderFreeName({ storage, blobs }, file('mine')), '2026/11/dup-1.txt');
    assert.equal(new TextDecoder().decode((await memory.get('2026/11/dup.txt'))!.bytes), 'theirs');
    assert.equal((await storage.list(NAME_RESERVATIONS_COLLECTION)).items.length, 0);
  });

  it('checks for the file itself when the blob store has no conditional create', async () => {
    const storage = createMemoryStorage();
    const memory = createMemoryBlobStore();
    let listed = false;
    const blobs = {
      put: memory.put, get: memory.get, exists: memory.exists, remove: memory.remove,
      async list(prefix: string) {
        const found = await memory.list(prefix);
        if (!listed) {
          listed = true;
          await memory.put('2026/11/dup.txt', text('theirs'), { contentType: 'text/plain' });
        }
        return found;
      },
    };
    assert.equal(await writeUnderFreeName({ storage, blobs }, file('mine')), '2026/11/dup-1.txt');
    assert.equal(new TextDecoder().decode((await memory.get('2026/11/dup.txt'))!.bytes), 'theirs');
  });

  it('gives concurrent writers of one name different names', async () => {
    const storage = createMemoryStorage();
    const blobs = createMemoryBlobStore();
    const keys = await Promise.all(['a', 'b', 'c'].map((body) => writeUnderFreeName({ storage, blobs }, file(body))));
    assert.deepEqual([...keys].sort(), ['2026/11/dup-1.txt', '2026/11/dup-2.txt', '2026/11/dup.txt']);
  });
});
