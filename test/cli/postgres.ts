/** A private PostgreSQL server for `quire serve` child processes, with a folder for their files; both go after the file. */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';
import { startTestPostgres } from '../storage/postgres-server.js';

export async function postgresForServe(folderPrefix: string): Promise<{ skip: string } | { url: string; folder: string }> {
  const outcome = await startTestPostgres();
  if ('skip' in outcome) return outcome;
  const { server } = outcome;
  const folder = await mkdtemp(join(tmpdir(), folderPrefix));
  after(async () => {
    await server.stop();
    await rm(folder, { recursive: true, force: true });
  });
  // The command line wants a host in the URL; the private server's socket folder (`?host=`) still decides.
  return { url: server.connectionString.replace('@/', '@localhost/'), folder };
}
