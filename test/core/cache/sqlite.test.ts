/**
 * Two connections to one SQLite file, as two processes would have: a write through one is seen by the next read
 * through the other, though that one keeps answers.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { createCms } from '../../../src/cms.js';
import { isFromKeptBytes } from '../../../src/core/encode.js';
import { sqliteStorage } from '../../../src/storage/sqlite/index.js';

describe('the response cache on a SQLite file shared by two connections', () => {
  const folder = mkdtempSync(join(tmpdir(), 'quire-cache-'));
  const writerStore = sqliteStorage({ path: join(folder, 'site.db') });
  const readerStore = sqliteStorage({ path: join(folder, 'site.db') });
  after(async () => {
    await writerStore.close?.();
    await readerStore.close?.();
    rmSync(folder, { recursive: true, force: true });
  });

  it('sees the other connection\'s write on the very next read', async () => {
    const writer = createCms({ storage: writerStore, site: { url: 'http://site.test' } });
    const reader = createCms({ storage: readerStore, site: { url: 'http://site.test' } });
    const admin = await writer.users.create({ login: 'admin', email: 'admin@site.test', roles: ['administrator'] });
    const write = (method: string, path: string, json: unknown) => writer.handle({
      method, path, user: { id: admin.id }, headers: { 'content-type': 'application/json' }, body: JSON.stringify(json),
    });
    const id = ((await write('POST', '/cms/v2/posts', { title: 'Before', status: 'publish' })).body as { id: number }).id;
    const read = () => reader.handle({ method: 'GET', path: '/cms/v2/posts', query: '' });
    const titles = (response: { body: unknown }) => (response.body as { title: { rendered: string } }[]).map((post) => post.title.rendered);

    assert.deepEqual(titles(await read()), ['Before']);
    assert.ok(isFromKeptBytes(await read()), 'kept while nothing changes');
    await write('POST', `/cms/v2/posts/${id}`, { title: 'After' });
    const after = await read();
    assert.equal(isFromKeptBytes(after), false);
    assert.deepEqual(titles(after), ['After']);
    await write('POST', '/cms/v2/posts', { title: 'Another', status: 'publish' });
    assert.deepEqual(titles(await read()), ['Another', 'After']);
  });
});
