/**
 * Site settings across two processes on one PostgreSQL database (two stores, each with its own pool): a write
 * through one is in the very next read through the other, as posts are, though each keeps settings and answers.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createCms } from '../../src/cms.js';
import { postgresStorage } from '../../src/storage/postgres/index.js';
import { postgresForTests } from '../storage/postgres-setup.js';

const postgres = await postgresForTests('settings on postgres', { schemaPrefix: 'quire_settings' });

if (postgres) {
  const { server, freshSchema, closeFirst } = postgres;
  const schema = freshSchema();
  const stores = [
    await postgresStorage({ connectionString: server.connectionString, schema, max: 2 }),
    await postgresStorage({ connectionString: server.connectionString, schema, max: 2 }),
  ];
  closeFirst(async () => {
    for (const store of stores) await store.close();
  });

  describe('settings on PostgreSQL', () => {
    it('a change through one process is seen by the next read through another, with nothing waited for', async () => {
      const [first, second] = stores.map((storage) => createCms({ storage, site: { url: 'http://site.test' } }));
      const admin = await first!.users.create({ login: 'admin', email: 'admin@site.test', roles: ['administrator'] });
      const write = (cms: typeof first, title: string) => cms!.handle({
        method: 'POST', path: '/cms/v2/settings', user: { id: admin.id }, headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ title }),
      });
      const index = async (cms: typeof first) => ((await cms!.handle({ method: 'GET', path: '/' })).body as { name: string }).name;
      const settings = async (cms: typeof first) =>
        ((await cms!.handle({ method: 'GET', path: '/cms/v2/settings', user: { id: admin.id } })).body as { title: string }).title;

      for (const cms of [first, second]) {
        assert.equal(await index(cms), 'quire');
        assert.equal(await index(cms), 'quire', 'kept while nothing changes');
      }
      for (let round = 0; round < 5; round++) {
        const [writer, reader] = round % 2 === 0 ? [first, second] : [second, first];
        const title = `Title ${round}`;
        assert.equal((await write(writer, title)).status, 200);
        assert.equal(await index(reader), title, `round ${round}: the index through the other process`);
        assert.equal(await settings(reader), title, `round ${round}: the settings route through the other process`);
        assert.equal(await index(writer), title);
      }
    });
  });
}
