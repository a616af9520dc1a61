/**
 * Two processes, one PostgreSQL database: a write made by the other process is seen by this one's very next
 * read, though this process keeps answers.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import { createCms } from '../../../src/cms.js';
import { isFromKeptBytes } from '../../../src/core/encode.js';
import { postgresStorage } from '../../../src/storage/postgres/index.js';
import { postgresForTests } from '../../storage/postgres-setup.js';

const postgres = await postgresForTests('response cache on postgres', { schemaPrefix: 'quire_cache' });

if (postgres) {
  const { server, freshSchema, closeFirst } = postgres;
  const schema = freshSchema();
  const storage = await postgresStorage({ connectionString: server.connectionString, schema, max: 4 });
  closeFirst(() => storage.close());

  const renameElsewhere = (postId: number, title: string) => new Promise<void>((resolve, reject) => {
    const script = fileURLToPath(new URL('./postgres-writer.ts', import.meta.url));
    const child = spawn(process.execPath, ['--import', 'tsx', script, server.connectionString, schema, String(postId), title], { stdio: ['ignore', 'ignore', 'pipe'] });
    let errors = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => { errors += chunk; });
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`writer exited with ${code}: ${errors}`))));
  });

  describe('the response cache on PostgreSQL', () => {
    it('sees a write made by another process on the very next read', async () => {
      assert.equal(typeof storage.changeToken, 'function', 'the store has a change token');
      const cms = createCms({ storage, site: { url: 'http://site.test' } });
      const admin = await cms.users.create({ login: 'admin', email: 'admin@site.test', roles: ['administrator'] });
      const created = await cms.handle({
        method: 'POST', path: '/cms/v2/posts', user: { id: admin.id }, headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ title: 'Before', status: 'publish' }),
      });
      const id = (created.body as { id: number }).id;
      const read = () => cms.handle({ method: 'GET', path: `/cms/v2/posts/${id}`, query: '' });
      await read();
      const kept = await read();
      assert.ok(isFromKeptBytes(kept), 'reads are kept while nothing changes');
      assert.equal((kept.body as { title: { rendered: string } }).title.rendered, 'Before');

      await renameElsewhere(id, 'Renamed by the other process');
      const after = await read();
      assert.equal(isFromKeptBytes(after), false);
      assert.equal((after.body as { title: { rendered: string } }).title.rendered, 'Renamed by the other process');
      assert.notEqual(after.headers.ETag, kept.headers.ETag);
      assert.ok(isFromKeptBytes(await read()), 'and kept again');
    });
  });
}
