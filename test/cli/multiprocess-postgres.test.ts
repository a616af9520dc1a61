import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import pg from 'pg';
import S3rver from 's3rver';
import { migrate } from '../../src/storage/postgres/migrate.js';
import { MIGRATIONS } from '../../src/storage/postgres/schema.js';
import { postgresForServe } from './postgres.js';
import { alike, answerQuizElsewhere, password, startTogether, stopAll, uploadTheSameNameEverywhere } from './multiprocess.js';

/** Several `quire serve` processes on one PostgreSQL database, with their files in one folder or one bucket. */
const outcome = await postgresForServe('quire-multiprocess-pg-');
const announcesPassword = ({ stdout }: { stdout: string }) => /^quire application password \(shown once; keep it\): /m.test(stdout);

if ('skip' in outcome) {
  test('several quire serve processes on PostgreSQL', { skip: outcome.skip }, () => {});
} else {
  const { url, folder } = outcome;
  const store = ['--postgres', url, '--uploads', join(folder, 'uploads')];

  describe('several quire serve processes on PostgreSQL', () => {
    test('start together on a new database: migrated and given an administrator once, all serve', async () => {
      const processes = await startTogether(alike(store));
      await stopAll(processes);
      const finished = await Promise.all(processes.map(({ finished }) => finished));
      assert.equal(finished.filter(announcesPassword).length, 1);
    });

    test('start together on a database of the first release: each migration applied once, one administrator', async () => {
      const admin = new pg.Pool({ connectionString: url, max: 1 });
      try {
        await admin.query('CREATE DATABASE quire_first_release');
        const oldUrl = url.replace(/\/postgres\?/, '/quire_first_release?');
        const old = new pg.Pool({ connectionString: oldUrl, max: 1 });
        try {
          await migrate(old, undefined, MIGRATIONS.slice(0, 1));
          const processes = await startTogether(alike(['--postgres', oldUrl, '--uploads', join(folder, 'old-uploads')]));
          const statuses = await Promise.all(processes.map(async ({ apiUrl }) => (await fetch(apiUrl)).status));
          assert.deepEqual(statuses, processes.map(() => 200));
          await stopAll(processes);
          const finished = await Promise.all(processes.map(({ finished }) => finished));
          assert.equal(finished.filter(announcesPassword).length, 1, 'the password is printed by the one process that made it');
          const { rows } = await old.query<{ version: number; times: number }>(
            'SELECT version, count(*)::int AS times FROM quire_migrations GROUP BY version ORDER BY version');
          assert.deepEqual(rows, MIGRATIONS.map(({ version }) => ({ version, times: 1 })));
          const administrators = await old.query(`SELECT id FROM quire_records WHERE collection = 'users' AND data->'roles' ? 'administrator'`);
          assert.equal(administrators.rowCount, 1);
        } finally {
          await old.end();
        }
      } finally {
        await admin.end();
      }
    });

    test('upload one file name at once, and answer a quiz through another process', async () => {
      const processes = await startTogether(alike([...store, '--admin-app-password', password]));
      try {
        await uploadTheSameNameEverywhere(processes);
        assert.equal(await answerQuizElsewhere(processes[1]!.apiUrl, processes[0]!.apiUrl), 'mail_sent');
      } finally {
        await stopAll(processes);
      }
    });

    test('upload one file name at once with files in a bucket: every upload keeps its own file', async () => {
      const s3 = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: join(folder, 's3'), configureBuckets: [{ name: 'shared', configs: [] }] });
      const endpoint = `http://127.0.0.1:${((await s3.run()) as AddressInfo).port}`;
      try {
        const environment = { AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER' };
        const blobs = `s3://shared?endpoint=${encodeURIComponent(endpoint)}&prefix=site/`;
        const processes = await startTogether(alike(['--postgres', url, '--blobs', blobs, '--admin-app-password', password], environment));
        try {
          await uploadTheSameNameEverywhere(processes);
        } finally {
          await stopAll(processes);
        }
      } finally {
        await s3.close();
      }
    });
  });
}
