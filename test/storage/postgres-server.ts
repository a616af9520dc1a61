/**
 * A throwaway PostgreSQL server for the tests.
 *
 * - With `QUIRE_TEST_POSTGRES_URL` set, tests use that database (it should be empty or disposable).
 * - Otherwise, when Debian's server binaries are present (/usr/lib/postgresql/<version>/bin), a private cluster
 *   is created with `initdb` in a temporary folder and started with `pg_ctl`, listening only on a unix socket in
 *   that folder (so no port can clash). As root the server runs as the `postgres` system user, since PostgreSQL
 *   refuses to run as root. `stop()` shuts it down and removes the folder.
 * - Without either, `startTestPostgres` resolves to a reason for skipping — unless `CI` is set, where a missing
 *   server is an error.
 */
import { spawnSync } from 'node:child_process';
import { appendFileSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';

export interface TestPostgres {
  connectionString: string;
  stop(): Promise<void>;
  /** Private clusters only: stops the server (`pg_ctl stop -m fast`), waits `downMs`, starts it again. */
  restart?(downMs?: number): Promise<void>;
}

export type TestPostgresOutcome = { server: TestPostgres } | { skip: string };

const POSTGRES_ROOT = '/usr/lib/postgresql';
const SOCKET_PORT = 5432;

function findBinaries(): string | null {
  if (!existsSync(POSTGRES_ROOT)) return null;
  const versions = readdirSync(POSTGRES_ROOT)
    .filter((name) => existsSync(path.join(POSTGRES_ROOT, name, 'bin', 'pg_ctl')))
    .sort((a, b) => Number(b) - Number(a));
  return versions.length > 0 ? path.join(POSTGRES_ROOT, versions[0]!, 'bin') : null;
}

/** Runs a server binary, as the `postgres` system user when we are root. */
function runServerCommand(command: string, args: string[]): void {
  const asRoot = userInfo().uid === 0;
  const [program, programArgs] = asRoot ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args];
  const result = spawnSync(program, programArgs, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], cwd: tmpdir() });
  if (result.status !== 0) {
    throw new Error(`${path.basename(command)} failed (${result.status ?? result.signal}): ${result.stderr || result.stdout}`);
  }
}

function postgresIds(): { uid: number; gid: number } {
  const id = (flag: string) => Number(spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' }).stdout.trim());
  return { uid: id('-u'), gid: id('-g') };
}

function startPrivateCluster(binaries: string): TestPostgres {
  const folder = mkdtempSync(path.join(tmpdir(), 'quire-pg-'));
  const dataDir = path.join(folder, 'data');
  if (userInfo().uid === 0) {
    const { uid, gid } = postgresIds();
    chownSync(folder, uid, gid);
  }
  let started = false;
  const stopNow = () => {
    if (started) {
      started = false;
      try {
        runServerCommand(path.join(binaries, 'pg_ctl'), ['stop', '-D', dataDir, '-m', 'immediate', '-w']);
      } catch {
        // Already gone.
      }
    }
    rmSync(folder, { recursive: true, force: true });
  };
  try {
    runServerCommand(path.join(binaries, 'initdb'), [
      '-D', dataDir, '-U', 'postgres', '--auth=trust', '--encoding=UTF8', '--locale=C.UTF-8', '--no-sync',
    ]);
    const settings = [
      "listen_addresses = ''",
      `unix_socket_directories = '${folder}'`,
      `port = ${SOCKET_PORT}`,
      'fsync = off',
      'synchronous_commit = off',
      'full_page_writes = off',
      'max_connections = 100',
    ];
    appendFileSync(path.join(dataDir, 'postgresql.conf'), `\n${settings.join('\n')}\n`);
    runServerCommand(path.join(binaries, 'pg_ctl'), ['start', '-D', dataDir, '-w', '-t', '60', '-l', path.join(folder, 'server.log')]);
    started = true;
  } catch (error) {
    stopNow();
    throw error;
  }
  process.once('exit', stopNow);
  const host = encodeURIComponent(folder);
  return {
    connectionString: `postgresql://postgres@/postgres?host=${host}&port=${SOCKET_PORT}`,
    async stop() {
      process.removeListener('exit', stopNow);
      stopNow();
    },
    async restart(downMs = 0) {
      runServerCommand(path.join(binaries, 'pg_ctl'), ['stop', '-D', dataDir, '-m', 'fast', '-w']);
      if (downMs > 0) await new Promise((resolve) => setTimeout(resolve, downMs));
      runServerCommand(path.join(binaries, 'pg_ctl'), ['start', '-D', dataDir, '-w', '-t', '60', '-l', path.join(folder, 'server.log')]);
    },
  };
}

export async function startTestPostgres(): Promise<TestPostgresOutcome> {
  const url = process.env.QUIRE_TEST_POSTGRES_URL;
  if (url) return { server: { connectionString: url, stop: async () => {} } };
  const binaries = findBinaries();
  if (binaries === null) {
    const reason = `no PostgreSQL server binaries under ${POSTGRES_ROOT} and QUIRE_TEST_POSTGRES_URL is not set`;
    if (process.env.CI) throw new Error(`PostgreSQL tests cannot run under CI: ${reason}`);
    return { skip: reason };
  }
  return { server: startPrivateCluster(binaries) };
}
