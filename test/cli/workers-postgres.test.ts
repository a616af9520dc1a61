import { join } from 'node:path';
import { describe, test } from 'node:test';
import { postgresForServe } from './postgres.js';
import { exerciseTwoWorkers } from './workers.js';

/** `quire serve --workers 2` on one new PostgreSQL database. */
const outcome = await postgresForServe('quire-workers-pg-');

if ('skip' in outcome) {
  test('quire serve --workers on PostgreSQL', { skip: outcome.skip }, () => {});
} else {
  const { url, folder } = outcome;

  describe('quire serve --workers on PostgreSQL', () => {
    test('two workers: one password, writes seen everywhere, shared throttles, replaced workers, one SIGTERM ends all', async () => {
      await exerciseTwoWorkers(['--postgres', url, '--uploads', join(folder, 'uploads')]);
    });
  });
}
