import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { startTestPostgres } from '../storage/postgres-server.js';
import { exerciseTwoWorkers } from './workers.js';

/** `quire serve --workers 2` on one new PostgreSQL database. */
const outcome = await startTestPostgres();

if ('skip' in outcome) {
  test('quire serve --workers on PostgreSQL', { skip: outcome.skip }, () => {});
} else {
  const { server } = outcome;
  const folder = await mkdtemp(join(tmpdir(), 'quire-workers-pg-'));
  after(async () => {
    await server.stop();
    await rm(folder, { recursive: true, force: true });
  });
  // The command line wants a host in the URL; the private server's socket folder (`?host=`) still decides.
  const url = server.connectionString.replace('@/', '@localhost/');

  describe('quire serve --workers on PostgreSQL', () => {
    test('two workers: one password, writes seen everywhere, shared throttles, replaced workers, one SIGTERM ends all', async () => {
      await exerciseTwoWorkers(['--postgres', url, '--uploads', join(folder, 'uploads')]);
    });
  });
}
