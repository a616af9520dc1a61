/** The health check on PostgreSQL: ok at the current schema, 503 past it, and 503 once the server is gone. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createCms } from '../../src/cms.js';
import { postgresStorage } from '../../src/storage/postgres/index.js';
import { postgresForTests } from '../storage/postgres-setup.js';

const postgres = await postgresForTests('health on postgres', { schemaPrefix: 'quire_health' });

if (postgres) {
  const { server, freshSchema, closeFirst } = postgres;
  const schema = freshSchema();
  const storage = await postgresStorage({ connectionString: server.connectionString, schema, max: 2 });
  closeFirst(() => storage.close());

  describe('health on PostgreSQL', () => {
    it('ok at the current schema; schema_not_current once a newer version migrated it; unavailable when the server is gone', async () => {
      const cms = createCms({ storage });
      assert.deepEqual(await cms.health(), { status: 'ok' });
      await storage.pool.query(`INSERT INTO "${schema}".quire_migrations (version, name) VALUES (9999, 'later')`);
      assert.deepEqual(await cms.health(), { status: 'unavailable', reason: 'schema_not_current' });
      await server.stop();
      const report = await cms.health();
      assert.equal(report.status, 'unavailable');
      assert.ok(report.reason === 'store_unreachable' || report.reason === 'store_timeout', String(report.reason));
      assert.equal((await cms.healthResponse()).status, 503);
    });
  });
}
