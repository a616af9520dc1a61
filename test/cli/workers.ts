/** `quire serve --workers 2` on a store, exercised end to end (SQLite and PostgreSQL run the same checks). */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { serve } from './helpers.js';

interface Answer { status: number; body: string }

/** One request on a connection of its own: the cluster hands each new connection to the next worker. */
export function onNewConnection(url: URL, options: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: options.method ?? 'GET', headers: options.headers ?? {}, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (chunk: string) => { body += chunk; }).on('end', () => resolve({ status: res.statusCode!, body }));
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

const childrenOf = (pid: number): number[] => {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
};
const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** The pids of the request log's lines for GETs of `path`: which workers answered. */
function answeringPids(stdout: string, path: string): Set<number> {
  const pids = new Set<number>();
  for (const line of stdout.split('\n')) {
    if (!line.startsWith('{')) continue;
    const entry = JSON.parse(line) as { msg?: string; method?: string; path?: string; pid: number };
    if (entry.msg === 'request' && entry.method === 'GET' && entry.path === path) pids.add(entry.pid);
  }
  return pids;
}

async function waitFor(condition: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Two workers on a new store: one password printed, writes through one connection seen by reads on new ones
 * (which the cluster hands to both workers), throttle counters shared, a killed worker logged and replaced, a
 * worker stopped by SIGTERM logged as such and replaced, and one SIGTERM to the primary ending every process.
 */
export async function exerciseTwoWorkers(storeArgs: string[]): Promise<void> {
  const started = await serve([...storeArgs, '--workers', '2']);
  const primary = started.child.pid!;
  try {
    const workers = childrenOf(primary);
    assert.equal(workers.length, 2, 'two worker processes');

    const api = new URL(started.apiUrl);
    const health = await onNewConnection(new URL('/health', api));
    assert.deepEqual({ status: health.status, body: JSON.parse(health.body) as unknown }, { status: 200, body: { status: 'ok' } });

    // Each worker answers (and keeps) the empty list before the write.
    const list = new URL('cms/v2/posts?per_page=5', api);
    for (let index = 0; index < 4; index++) assert.equal((await onNewConnection(list)).body, '[]');

    const { output } = started;
    const passwords = [...output.stdout.matchAll(/^quire application password \(shown once; keep it\): (.+)$/gm)];
    assert.equal(passwords.length, 1, output.stdout);
    assert.match(output.stdout, /^quire workers: 2$/m);
    const authorization = `Basic ${Buffer.from(`admin:${passwords[0]![1]}`).toString('base64')}`;

    const created = await onNewConnection(new URL('cms/v2/posts', api), {
      method: 'POST',
      headers: { authorization, 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Seen by every worker', status: 'publish' }),
    });
    assert.equal(created.status, 201, created.body);
    const { id } = JSON.parse(created.body) as { id: number };
    for (let index = 0; index < 6; index++) {
      const read = await onNewConnection(list);
      assert.deepEqual((JSON.parse(read.body) as { id: number }[]).map((post) => post.id), [id], `read ${index}`);
      assert.equal((await onNewConnection(new URL(`cms/v2/posts/${id}`, api))).status, 200);
    }
    await waitFor(() => answeringPids(output.stdout, '/cms-json/cms/v2/posts?per_page=5').size === 2, 'request log lines from both workers');
    assert.deepEqual([...answeringPids(output.stdout, '/cms-json/cms/v2/posts?per_page=5')].sort(), [...workers].sort());

    // Past five failures for one login from one client it is blocked, whichever worker counted them.
    const wrong = `Basic ${Buffer.from('admin:wron gpas swor dwro ngpa sswo').toString('base64')}`;
    const me = new URL('cms/v2/users/me', api);
    for (let attempt = 0; attempt < 6; attempt++) assert.equal((await onNewConnection(me, { headers: { authorization: wrong } })).status, 401);
    const blocked = await Promise.all([onNewConnection(me, { headers: { authorization: wrong } }), onNewConnection(me, { headers: { authorization: wrong } })]);
    assert.deepEqual(blocked.map((answer) => answer.status), [429, 429]);

    // A worker that dies is logged and replaced; the service keeps answering meanwhile.
    process.kill(workers[0]!, 'SIGKILL');
    await waitFor(() => /"msg":"worker exited unexpectedly"/.test(output.stdout), 'the exit to be logged');
    const exited = JSON.parse(output.stdout.split('\n').find((line) => line.includes('"worker exited unexpectedly"'))!) as Record<string, unknown>;
    assert.equal(exited.worker, workers[0]);
    assert.equal(exited.signal, 'SIGKILL');
    assert.equal(exited.level, 50);
    await waitFor(() => /"msg":"worker replaced"/.test(output.stdout), 'the replacement to listen');
    const now = childrenOf(primary);
    assert.equal(now.length, 2);
    assert.ok(!now.includes(workers[0]!));
    for (let index = 0; index < 4; index++) assert.equal((await onNewConnection(list)).status, 200);
    assert.equal([...output.stdout.matchAll(/^quire application password/gm)].length, 1, 'a replacement prints no password');

    // A worker an operator stops with SIGTERM shuts down, and is replaced, logged as stopped by the signal.
    const stopped = now[0]!;
    process.kill(stopped, 'SIGTERM');
    await waitFor(() => /"msg":"worker stopped by signal"/.test(output.stdout), 'the stop to be logged');
    const stop = JSON.parse(output.stdout.split('\n').find((line) => line.includes('"worker stopped by signal"'))!) as Record<string, unknown>;
    assert.equal(stop.worker, stopped);
    assert.equal(stop.signal, 'SIGTERM');
    assert.equal(stop.level, 40);
    assert.equal(stop.restartInMs, 250, 'a stop is no crash: the pause does not grow');
    assert.equal(output.stdout.match(/"worker exited unexpectedly"/g)?.length, 1, 'logged once, for the SIGKILL');
    await waitFor(() => (output.stdout.match(/"msg":"worker replaced"/g)?.length ?? 0) === 2, 'the second replacement to listen');
    assert.equal(childrenOf(primary).length, 2);
    assert.ok(!childrenOf(primary).includes(stopped));

    const everyWorker = childrenOf(primary);
    started.child.kill('SIGTERM');
    const finished = await started.finished;
    assert.equal(finished.code, 0, finished.stderr);
    assert.equal(finished.stderr, '');
    await waitFor(() => everyWorker.every((pid) => !isAlive(pid)), 'every worker to exit', 5000);
  } finally {
    for (const pid of [primary, ...childrenOf(primary)]) if (isAlive(pid)) process.kill(pid, 'SIGKILL');
  }
}
