import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { postgresForServe } from './postgres.js';
import { alike, answerQuizElsewhere, password, startTogether, stopAll, uploadTheSameNameEverywhere } from './multiprocess.js';

/** Several `quire serve` processes on one new PostgreSQL database, with their files in one folder. */
const outcome = await postgresForServe('quire-multiprocess-pg-');

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
