/**
 * Several quire processes on one PostgreSQL under a mixed write load, through a database restart and a killed
 * process: `npm run soak:postgres` (builds dist/js, then runs `node --import tsx test/bench/multiprocess.ts`).
 *
 * A private PostgreSQL server (test/storage/postgres-server.ts) and SOAK_PROCESSES (default 3) standalone servers
 * (`node dist/js/cli.js serve --postgres …`) on loopback ports. SOAK_CLIENTS (default 8) client loops run for
 * SOAK_SECONDS (default 30), each picking a process at random for every request: mostly creating posts (a unique
 * title each), sometimes updating one of its own posts, and one loop changing the site title. After every
 * acknowledged write, the same thing is read back through another process (a post by id, the settings through
 * the index): an answer without the write is a stale read. At a third of the run the database is restarted
 * (`pg_ctl stop -m fast`, SOAK_DOWN_MS down, default 1000); at two thirds one process is killed with SIGKILL and
 * started again on its port.
 *
 * Printed: acknowledged writes, lost writes (acknowledged but not in the database at the end), duplicates (one
 * title stored twice), writes in doubt (answered with an error but stored: the connection broke during COMMIT),
 * answers by status (503s separately from other 5xx, and those during the restart apart) and error answers by
 * code, refused connections (the killed process), stale reads (a 429 or 5xx to the read back is not counted as a
 * read), and whether every process other than the killed one stayed up. Requests go to 127.0.0.1 only; the run
 * is bounded.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as delay } from 'node:timers/promises';
import pg from 'pg';
import { startTestPostgres } from '../storage/postgres-server.js';

const PROCESSES = Number(process.env.SOAK_PROCESSES ?? 3);
const CLIENTS = Number(process.env.SOAK_CLIENTS ?? 8);
const SECONDS = Number(process.env.SOAK_SECONDS ?? 30);
const DOWN_MS = Number(process.env.SOAK_DOWN_MS ?? 1000);
const FIRST_PORT = Number(process.env.SOAK_PORT ?? 18_400);
const PASSWORD = 'soak soak soak soak soak soak';
const AUTHORIZATION = `Basic ${Buffer.from(`admin:${PASSWORD}`).toString('base64')}`;
const CLI = fileURLToPath(new URL('../../dist/js/cli.js', import.meta.url));

const outcome = await startTestPostgres();
if ('skip' in outcome || !outcome.server.restart) {
  console.error(`multiprocess soak: needs PostgreSQL server binaries for a private server (${'skip' in outcome ? outcome.skip : 'QUIRE_TEST_POSTGRES_URL cannot be restarted'})`);
  process.exit(1);
}
const { server } = outcome;
const uploads = mkdtempSync(join(tmpdir(), 'quire-soak-'));

interface Serving { port: number; child: ChildProcess; exitedUnexpectedly: boolean; killed: boolean }
const processes: Serving[] = [];

function startProcess(port: number): Serving {
  const child = spawn(process.execPath, [CLI, 'serve', '--postgres', server.connectionString, '--port', String(port), '--host', '127.0.0.1',
    '--uploads', uploads, '--admin-app-password', PASSWORD], { stdio: ['ignore', 'ignore', 'pipe'] });
  const serving: Serving = { port, child, exitedUnexpectedly: false, killed: false };
  let errors = '';
  child.stderr!.on('data', (chunk: Buffer) => { errors += chunk.toString(); });
  child.on('exit', (code, signal) => {
    if (!serving.killed) {
      serving.exitedUnexpectedly = true;
      console.error(`process on port ${port} exited (${code ?? signal}): ${errors.slice(-2000)}`);
    }
  });
  return serving;
}

async function waitUntilServing(port: number): Promise<void> {
  for (let attempt = 0; attempt < 300; attempt++) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/cms-json/`, { signal: AbortSignal.timeout(2000) })).ok) return;
    } catch {
      // Not listening yet.
    }
    await delay(100);
  }
  throw new Error(`the process on port ${port} did not start`);
}

const statuses = new Map<string, number>();
const figures = { acknowledged: 0, refused: 0, staleReads: 0, crossReads: 0, settingsAcknowledged: 0 };
const acknowledgedTitles = new Map<string, number>();
const attemptedTitles = new Set<string>();
/** Each post's last acknowledged content and the contents sent since without an answer (in doubt). */
const contents = new Map<number, { acknowledged: string; unanswered: Set<string> }>();

function count(status: string): void {
  statuses.set(status, (statuses.get(status) ?? 0) + 1);
}

/** 503 answers while the database restarts (until two seconds after it is back), and at other times. */
const unavailable = { restart: 0, other: [] as string[] };
let databaseDown = false;
let runStart = performance.now();

/** Error answers by status and code. */
const errorCodes = new Map<string, number>();
function countError(statusAndCode: string): void {
  errorCodes.set(statusAndCode, (errorCodes.get(statusAndCode) ?? 0) + 1);
}

const pick = (except?: number) => {
  const choices = processes.filter((serving) => serving.port !== except);
  return choices[Math.floor(Math.random() * choices.length)]!.port;
};

async function call(port: number, method: string, path: string, body?: unknown): Promise<{ status: number; json: any } | null> {
  try {
    const response = await fetch(`http://127.0.0.1:${port}/cms-json${path}`, {
      method,
      headers: { authorization: AUTHORIZATION, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(15_000),
    });
    const json = await response.json().catch(() => null);
    count(String(response.status));
    if (response.status === 503 && databaseDown) unavailable.restart++;
    else if (response.status === 503) unavailable.other.push(`${((performance.now() - runStart) / 1000).toFixed(1)} s ${method} ${path} through ${port}`);
    if (response.status >= 400) countError(`${response.status} ${typeof json?.code === 'string' ? json.code : '(no code)'}`);
    return { status: response.status, json };
  } catch {
    figures.refused++;
    count('no answer');
    return null;
  }
}

async function crossRead(writtenThrough: number, path: string, holds: (json: any) => boolean): Promise<void> {
  const answer = await call(pick(writtenThrough), 'GET', path);
  // No answer, a 5xx or a 429 says nothing about what the other process has seen.
  if (!answer || answer.status >= 500 || answer.status === 429) return;
  figures.crossReads++;
  if (answer.status !== 200 || !holds(answer.json)) figures.staleReads++;
}

async function postsClient(name: string, until: number): Promise<void> {
  const own: number[] = [];
  for (let round = 0; performance.now() < until; round++) {
    const port = pick();
    if (own.length > 0 && round % 4 === 3) {
      const id = own[Math.floor(Math.random() * own.length)]!;
      const content = `${name} revision ${round}`;
      const entry = contents.get(id)!;
      entry.unanswered.add(content);
      const answer = await call(port, 'POST', `/cms/v2/posts/${id}`, { content });
      if (answer?.status === 200) {
        entry.acknowledged = content;
        entry.unanswered.clear();
        figures.acknowledged++;
        await crossRead(port, `/cms/v2/posts/${id}?context=edit`, (json) => json.content?.raw === content);
      }
      continue;
    }
    const title = `soak ${name} ${round}`;
    attemptedTitles.add(title);
    const answer = await call(port, 'POST', '/cms/v2/posts', { title, content: `${name} first`, status: 'publish' });
    if (answer?.status === 201) {
      const id = answer.json.id as number;
      own.push(id);
      contents.set(id, { acknowledged: `${name} first`, unanswered: new Set() });
      acknowledgedTitles.set(title, id);
      figures.acknowledged++;
      await crossRead(port, `/cms/v2/posts/${id}`, (json) => json.title?.rendered === title);
    } else if (!answer || answer.status >= 500) {
      await delay(50);
    }
  }
}

async function settingsClient(until: number): Promise<void> {
  for (let round = 0; performance.now() < until; round++) {
    const port = pick();
    const title = `Soak site ${round}`;
    const answer = await call(port, 'POST', '/cms/v2/settings', { title });
    if (answer?.status === 200) {
      figures.settingsAcknowledged++;
      figures.acknowledged++;
      await crossRead(port, '/', (json) => json.name === title);
    }
    await delay(answer && answer.status < 500 ? 100 : 50);
  }
}

async function events(start: number): Promise<void> {
  const third = (SECONDS * 1000) / 3;
  await delay(Math.max(0, start + third - performance.now()));
  const restartStarted = performance.now();
  databaseDown = true;
  await server.restart!(DOWN_MS);
  setTimeout(() => { databaseDown = false; }, 2000);
  console.log(`database restarted (${DOWN_MS} ms down) at ${((restartStarted - start) / 1000).toFixed(1)} s`);
  await delay(Math.max(0, start + 2 * third - performance.now()));
  const victim = processes[processes.length - 1]!;
  victim.killed = true;
  victim.child.kill('SIGKILL');
  console.log(`process on port ${victim.port} killed with SIGKILL at ${((performance.now() - start) / 1000).toFixed(1)} s`);
  await delay(500);
  const again = startProcess(victim.port);
  processes[processes.length - 1] = again;
  await waitUntilServing(victim.port);
  console.log(`process on port ${victim.port} serving again at ${((performance.now() - start) / 1000).toFixed(1)} s`);
}

try {
  processes.push(startProcess(FIRST_PORT));
  await waitUntilServing(FIRST_PORT);
  for (let index = 1; index < PROCESSES; index++) processes.push(startProcess(FIRST_PORT + index));
  for (const serving of processes) await waitUntilServing(serving.port);
  console.log(`${PROCESSES} processes on one PostgreSQL, ${CLIENTS} clients, ${SECONDS} s`);

  const start = performance.now();
  runStart = start;
  const until = start + SECONDS * 1000;
  await Promise.all([
    events(start),
    settingsClient(until),
    ...Array.from({ length: CLIENTS - 1 }, (_, index) => postsClient(`c${index}`, until)),
  ]);

  const pool = new pg.Pool({ connectionString: server.connectionString, max: 1 });
  const { rows } = await pool.query<{ id: string; title: string; content: string }>(
    `SELECT id, data->>'title' AS title, data->>'content' AS content FROM quire_records WHERE collection = 'posts' AND data->>'type' = 'post'`);
  await pool.end();
  const stored = new Map<string, number>();
  for (const row of rows) stored.set(row.title, (stored.get(row.title) ?? 0) + 1);
  const lost = [...acknowledgedTitles.keys()].filter((title) => !stored.has(title));
  const duplicates = [...stored.values()].filter((times) => times > 1).length;
  const inDoubt = [...attemptedTitles].filter((title) => !acknowledgedTitles.has(title) && stored.has(title)).length;
  let lostUpdates = 0;
  for (const row of rows) {
    const entry = contents.get(Number(row.id));
    if (entry && row.content !== entry.acknowledged && !entry.unanswered.has(row.content)) lostUpdates++;
  }
  const survivors = processes.slice(0, -1).every((serving) => !serving.exitedUnexpectedly && serving.child.exitCode === null);
  const fiveHundreds = [...statuses].filter(([status]) => status.startsWith('5') && status !== '503').reduce((sum, [, n]) => sum + n, 0);

  console.log(`acknowledged writes: ${figures.acknowledged} (${acknowledgedTitles.size} creates, ${figures.settingsAcknowledged} settings, the rest updates)`);
  console.log(`lost writes: ${lost.length} creates, ${lostUpdates} updates`);
  console.log(`duplicates: ${duplicates}`);
  console.log(`in doubt (error answered, yet stored): ${inDoubt}`);
  console.log(`answers: ${[...statuses].sort().map(([status, n]) => `${status} ×${n}`).join(', ')}`);
  console.log(`error answers by code: ${[...errorCodes].sort().map(([code, n]) => `${code} ×${n}`).join(', ') || 'none'}`);
  console.log(`503 during the database restart (until 2 s after it): ${unavailable.restart}; at other times: ${unavailable.other.length}${unavailable.other.length > 0 ? ` (${unavailable.other.join('; ')})` : ''}`);
  console.log(`5xx other than 503: ${fiveHundreds}; refused or unanswered requests: ${figures.refused}`);
  console.log(`stale reads: ${figures.staleReads} of ${figures.crossReads} reads through another process after a write`);
  console.log(`processes not killed stayed up: ${survivors ? 'yes' : 'NO'}`);
} finally {
  for (const serving of processes) {
    serving.killed = true;
    serving.child.kill();
  }
  await delay(300);
  await server.stop();
  rmSync(uploads, { recursive: true, force: true });
}
