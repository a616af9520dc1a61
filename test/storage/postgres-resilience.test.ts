/**
 * The PostgreSQL store when the database goes away or its write lock stays taken: calls fail with
 * `store_unavailable` (503 through the core), the process lives on, and writing works again as soon as it can.
 * A private server of its own, since one test restarts it.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import pg from 'pg';
import { createCms } from '../../src/index.js';
import { isStorageError } from '../../src/ports/storage.js';
import { postgresStorage } from '../../src/storage/postgres/index.js';
import { postgresForTests } from './postgres-setup.js';

const postgres = await postgresForTests('postgres store: lost connections and lock waits', { schemaPrefix: 'quire_resilience', restarts: true });

if (postgres) {
  const { server, pool: admin, freshSchema } = postgres;
  const restart = server.restart!.bind(server);
  const unavailable = (error: unknown) => isStorageError(error, 'store_unavailable');

  describe('postgres store: a lost connection', () => {
    it('fails the transaction whose backend was terminated, and the process and the pool go on', async () => {
      const pool = new pg.Pool({ connectionString: server.connectionString, application_name: 'quire_victim', max: 2 });
      const store = await postgresStorage({ pool, schema: freshSchema() });
      try {
        const terminated = store.transaction(async (tx) => {
          await tx.insert('entries', { name: 'lost' });
          const { rows } = await admin.query(`SELECT pg_terminate_backend(pid) AS done FROM pg_stat_activity
            WHERE application_name = 'quire_victim' AND state LIKE 'idle in transaction%'`);
          assert.equal(rows.length, 1);
          await delay(200);
        });
        await assert.rejects(terminated, (error: Error) => unavailable(error) && /^PostgreSQL is unavailable: [^:]+$/.test(error.message));

        const failedInside = store.transaction(async (tx) => {
          await admin.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity
            WHERE application_name = 'quire_victim' AND state LIKE 'idle in transaction%'`);
          await delay(100);
          await tx.insert('entries', { name: 'never' });
        });
        await assert.rejects(failedInside, unavailable);

        const kept = await store.insert('entries', { name: 'kept' });
        assert.deepEqual((await store.list('entries')).items.map((item) => item.name), ['kept']);
        assert.equal(kept.id, 1, 'the rolled-back ids were not used');

        // Idle connections of the host's pool (which has no 'error' listener of its own) breaking.
        assert.ok(pool.idleCount > 0);
        await admin.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'quire_victim'`);
        await delay(100);
        assert.equal((await store.get('entries', 1))?.name, 'kept');
      } finally {
        await store.close();
        await pool.end();
      }
    });

    it('answers 503 with Retry-After while the server is down, and serves again once it is back', async () => {
      const store = await postgresStorage({ connectionString: server.connectionString, schema: freshSchema(), connectTimeoutMs: 2000 });
      const cms = createCms({ storage: store, responseCache: false });
      try {
        await store.insert('entries', { name: 'before' });
        assert.equal((await cms.handle({ method: 'GET', path: '/cms/v2/posts' })).status, 200);
        const down = restart(900);
        await delay(300);
        await assert.rejects(store.ping(), unavailable);
        await assert.rejects(store.get('entries', 1), unavailable);
        await assert.rejects(store.insert('entries', { name: 'during' }), unavailable);
        const answer = await cms.handle({ method: 'GET', path: '/cms/v2/posts' });
        assert.equal(answer.status, 503);
        assert.equal(answer.headers['Retry-After'], '5');
        const body = answer.body as { code: string; data: { status: number } };
        assert.equal(body.code, 'store_unavailable');
        assert.equal(body.data.status, 503);
        await down;
        await store.ping();
        assert.equal((await cms.handle({ method: 'GET', path: '/cms/v2/posts' })).status, 200);
        await store.insert('entries', { name: 'after' });
        assert.deepEqual((await store.list('entries')).items.map((item) => item.name), ['before', 'after']);
      } finally {
        await store.close();
      }
    });

    it('keeps every acknowledged write through a restart under a write load', async () => {
      const store = await postgresStorage({ connectionString: server.connectionString, schema: freshSchema(), max: 4 });
      const acknowledged: string[] = [];
      const failures: unknown[] = [];
      let stop = false;
      const writer = async (name: string) => {
        for (let round = 0; !stop; round++) {
          const marker = `${name}-${round}`;
          try {
            await store.transaction(async (tx) => {
              await tx.insert('entries', { marker });
              await tx.insert('audit', { marker });
            });
            acknowledged.push(marker);
          } catch (error) {
            failures.push(error);
            await delay(50);
          }
        }
      };
      try {
        const writers = ['a', 'b', 'c', 'd'].map(writer);
        await delay(300);
        const before = acknowledged.length;
        await restart(300);
        await delay(700);
        stop = true;
        await Promise.all(writers);
        assert.ok(before > 0 && acknowledged.length > before, 'writes went on after the restart');
        assert.ok(failures.length > 0, 'the restart interrupted writes');
        assert.ok(failures.every(unavailable), `failures were all store_unavailable: ${failures.filter((error) => !unavailable(error)).map(String).join('; ')}`);
        const stored = (await store.list('entries')).items.map((item) => item.marker as string);
        const audit = (await store.list('audit')).items.map((item) => item.marker as string);
        assert.equal(new Set(stored).size, stored.length, 'no duplicates');
        assert.deepEqual([...stored].sort(), [...audit].sort(), 'each transaction is all or nothing');
        const missing = acknowledged.filter((marker) => !stored.includes(marker));
        assert.deepEqual(missing, [], 'every acknowledged write is there');
      } finally {
        stop = true;
        await store.close();
      }
    });
  });

  describe('postgres store: bounded lock waits', () => {
    it('refuses wait options that are not milliseconds, before connecting', async () => {
      for (const bad of [{ lockTimeoutMs: -1 }, { idleTransactionTimeoutMs: Number.NaN }, { connectTimeoutMs: Infinity }, { lockTimeoutMs: '5' as unknown as number }]) {
        await assert.rejects(postgresStorage({ connectionString: 'postgres://nobody@127.0.0.1:1/none', ...bad }),
          /postgresStorage: \w+ must be a number of milliseconds of at least 0\./);
      }
    });


    it('fails a write queued behind a long one in the same process after lockTimeoutMs', async () => {
      const store = await postgresStorage({ connectionString: server.connectionString, schema: freshSchema(), lockTimeoutMs: 200 });
      try {
        const long = store.transaction(async (tx) => {
          await tx.insert('entries', { name: 'long' });
          await delay(700);
        });
        await delay(20);
        const started = performance.now();
        await assert.rejects(store.insert('entries', { name: 'queued' }), unavailable);
        assert.ok(performance.now() - started < 650, 'gave up without waiting for the long write');
        await long;
        await store.insert('entries', { name: 'later' });
        assert.deepEqual((await store.list('entries')).items.map((item) => item.name), ['long', 'later']);
      } finally {
        await store.close();
      }
    });

    it('fails writes with store_unavailable while another process is frozen mid-transaction, until the server ends it', async () => {
      const schema = freshSchema();
      const store = await postgresStorage({ connectionString: server.connectionString, schema, lockTimeoutMs: 400 });
      const holderScript = fileURLToPath(new URL('./postgres-holder.ts', import.meta.url));
      const holder = spawn(process.execPath, ['--import', 'tsx', holderScript, server.connectionString, schema, '1000'], {
        stdio: ['pipe', 'pipe', 'inherit'],
      });
      const output = createInterface({ input: holder.stdout! })[Symbol.asyncIterator]();
      const exited = new Promise<number | null>((resolve) => holder.on('exit', resolve));
      try {
        assert.equal((await output.next()).value, 'holding');
        holder.kill('SIGSTOP');
        const started = performance.now();
        await assert.rejects(store.insert('entries', { name: 'blocked' }), unavailable);
        const waited = performance.now() - started;
        assert.ok(waited >= 350 && waited < 2000, `gave up after the lock timeout (${Math.round(waited)} ms)`);
        assert.deepEqual((await store.list('held')).items, [], 'the frozen write is not visible');

        // The server ends the frozen transaction after its idle timeout, releasing the lock.
        let written = false;
        for (let attempt = 0; attempt < 20 && !written; attempt++) {
          try {
            await store.insert('entries', { name: 'after' });
            written = true;
          } catch (error) {
            assert.ok(unavailable(error));
            await delay(250);
          }
        }
        assert.ok(written, 'writes went through once the server ended the frozen transaction');

        holder.kill('SIGCONT');
        holder.stdin!.write('go on\n');
        assert.equal((await output.next()).value, 'store_unavailable', 'the resumed process learns its write failed');
        assert.equal(await exited, 0, 'and lives on to exit normally');
        assert.deepEqual((await store.list('held')).items, []);
        assert.deepEqual((await store.list('entries')).items.map((item) => item.name), ['after']);
      } finally {
        holder.kill('SIGCONT');
        holder.kill();
        await store.close();
      }
    });
  });
}
