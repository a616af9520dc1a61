/** The health check on PostgreSQL: ok at the current schema, 503 past it, and 503 once the server is gone. */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { createCms } from '../../src/cms.js';
import { postgresStorage } from '../../src/storage/postgres/index.js';
import { startTestPostgres } from '../storage/postgres-server.js';

const outcome = await startTestPostgres();

if ('skip' in outcome) {
  it('health on postgres', { skip: outcome.skip }, () => {});
} else {
  const { server } = outcome;
  const schema = `quire_health_${Date.now().toString(36)}_${process.pid}`;
  const storage = await postgresStorage({ connectionString: server.connectionString, schema, max: 2 });
  let stopped = false;
  after(async () => {
    await storage.close();
    if (!stopped) await server.stop();
  });

  describe('health on PostgreSQL', () => {
    it('ok at the current schema; schema_not_current once a newer version migrated it; unavailable when the server is gone', async () => {
      const cms = createCms({ storage });
      assert.deepEqual(await cms.health(), { status: 'ok' });
      await storage.pool.query(`INSERT INTO "${schema}".quire_migrations (version, name) VALUES (9999, 'later')`);
      assert.deepEqual(await cms.health(), { status: 'unavailable', reason: 'schema_not_current' });
      await server.stop();
      stopped = true;
      const report = await cms.health();
      assert.equal(report.status, 'unavailable');
      assert.ok(report.reason === 'store_unreachable' || report.reason === 'store_timeout', String(report.reason));
      assert.equal((await cms.healthResponse()).status, 503);
    });
  });
}
