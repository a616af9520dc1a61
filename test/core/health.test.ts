import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { createCms, createMemoryStorage, encodeResponse } from '../../src/index.js';
import { checkHealth } from '../../src/core/health.js';
import { sqliteStorage } from '../../src/storage/sqlite/index.js';

describe('health', () => {
  test('a store that answers: ok, and 200 {"status":"ok"} not to be cached', async () => {
    const cms = createCms({ storage: createMemoryStorage() });
    assert.deepEqual(await cms.health(), { status: 'ok' });
    const answer = encodeResponse(await cms.healthResponse());
    assert.equal(answer.status, 200);
    assert.equal(answer.headers['Cache-Control'], 'no-store');
    assert.equal(new TextDecoder().decode(answer.body!), '{"status":"ok"}');
  });

  test('a SQLite store at the current schema is ok; one past it (a newer version migrated it) is not', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'quire-health-'));
    const storage = sqliteStorage({ path: join(folder, 'site.db') });
    try {
      assert.deepEqual(await createCms({ storage }).health(), { status: 'ok' });
      storage.database.prepare("INSERT INTO quire_migrations (version, name, applied_at) VALUES (9999, 'later', '')").run();
      const cms = createCms({ storage });
      assert.deepEqual(await cms.health(), { status: 'unavailable', reason: 'schema_not_current' });
      assert.equal((await cms.healthResponse()).status, 503);
    } finally {
      await storage.close();
      rmSync(folder, { recursive: true, force: true });
    }
  });

  test('a store that fails or hangs: 503 with a reason, never the error text, within the deadline', async () => {
    const failing = { ...createMemoryStorage(), changeToken: () => Promise.reject(new Error('connection refused to 10.0.0.1')) };
    const report = await createCms({ storage: failing }).health();
    assert.deepEqual(report, { status: 'unavailable', reason: 'store_unreachable' });
    const answer = encodeResponse(await createCms({ storage: failing }).healthResponse());
    assert.equal(answer.status, 503);
    assert.doesNotMatch(new TextDecoder().decode(answer.body!), /refused|10\.0/);

    const started = Date.now();
    const hanging = { schemaCurrent: () => new Promise<boolean>(() => {}), get: async () => null };
    assert.deepEqual(await checkHealth(hanging, 50), { status: 'unavailable', reason: 'store_timeout' });
    assert.ok(Date.now() - started < 1000);
  });

  test('a store without a change token is asked for one record', async () => {
    let asked = 0;
    const store = { get: async () => { asked += 1; return null; } };
    assert.deepEqual(await checkHealth(store), { status: 'ok' });
    assert.equal(asked, 1);
  });
});
