import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { startTestPostgres } from '../storage/postgres-server.js';
import { alike, answerQuizElsewhere, password, startTogether, stopAll, uploadTheSameNameEverywhere } from './multiprocess.js';

/** Several `quire serve` processes on one new PostgreSQL database, with their files in one folder. */
const outcome = await startTestPostgres();

if ('skip' in outcome) {
  test('several quire serve processes on PostgreSQL', { skip: outcome.skip }, () => {});
} else {
  const { server } = outcome;
  const folder = await mkdtemp(join(tmpdir(), 'quire-multiprocess-pg-'));
  after(async () => {
    await server.stop();
    await rm(folder, { recursive: true, force: true });
  });
  // The command line wants a host in the URL; the private server's socket folder (`?host=`) still decides.
  const url = server.connectionString.replace('@/', '@localhost/');
  const store = ['--postgres', url, '--uploads', join(folder, 'uploads')];

  describe('several quire serve processes on PostgreSQL', () => {
    test('start together on a new database: migrated and given an administrator once, all serve', async () => {
      const processes = await startTogether(alike(store));
      await stopAll(processes);
      const finished = await Promise.all(processes.map(({ finished }) => finished));
      assert.equal(finished.filter(({ stdout }) => /^quire application password \(shown once; keep it\): /m.test(stdout)).length, 1);
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
  });
}
