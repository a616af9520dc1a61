/**
 * `quire serve --workers N` throughput: `npm run bench:workers` (builds dist/js, then runs
 * `node --import tsx test/bench/workers.ts`).
 *
 * Seeds a SQLite file with 100 posts of several paragraphs through the API of the built `quire serve`, then loads
 * four servers in turn, each with wrk (`-t1 -c16 -d5s --latency`): `quire serve --quiet` with 1 worker (no
 * cluster: the process serves alone) and with `--workers 2`, and beside them a bare `node:http` server writing
 * the very status, headers and bytes quire answered, alone and under node:cluster with 2 workers. Before loading,
 * each bare server's answers are checked against quire's (every header but `Date`, and the body, byte for byte).
 * Rows: the anonymous list `/cms/v2/posts?per_page=10` and an anonymous single post. `--quiet` leaves the request
 * log out, as the bare server has none.
 *
 * Beside req/s and p99: the CPU time per request of every process of the server (primary and workers, user +
 * system, from /proc around each run). On a shared machine the rates swing with the neighbours' load; the CPU cost
 * per request less so (though it too grows when more processes than cores are runnable), so the load average
 * is printed beside them. BENCH_ROUNDS (default 3) repeats all four in turn; the figures are medians.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import cluster from 'node:cluster';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runWrk } from './wrk.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 3));
const POSTS = 100;
const PASSWORD = 'benc hmar kpas swor dabc defg';
const AUTHORIZATION = `Basic ${Buffer.from(`admin:${PASSWORD}`).toString('base64')}`;
const bin = fileURLToPath(new URL('../../dist/js/cli.js', import.meta.url));
const self = fileURLToPath(import.meta.url);
const CLOCK_TICKS_PER_SECOND = 100;
/** Headers a node server adds itself, or that differ per answer. */
const OWN_HEADERS = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);

interface Prepared { status: number; headers: [string, string][]; body: string }

/** The bare server: `workers.ts --bare <answers.json> <workers>`; prints its port once every worker listens. */
function serveBare(file: string, workers: number): void {
  if (workers > 1 && cluster.isPrimary) {
    let listening = 0;
    for (let index = 0; index < workers; index++) {
      cluster.fork().on('message', (port: number) => {
        if (++listening === workers) process.stdout.write(`listening ${port}\n`);
      });
    }
    process.once('SIGTERM', () => {
      for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGTERM');
      process.exit(0);
    });
    return;
  }
  const answers = new Map(Object.entries(JSON.parse(readFileSync(file, 'utf8')) as Record<string, Prepared>)
    .map(([path, answer]) => [path, { ...answer, body: Buffer.from(answer.body, 'base64') }]));
  const server = http.createServer((req, res) => {
    const answer = answers.get(req.url ?? '');
    if (!answer) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(answer.status, answer.headers.flat());
    res.end(answer.body);
  });
  server.listen(0, '127.0.0.1', () => {
    const { port } = server.address() as AddressInfo;
    if (cluster.isWorker) process.send!(port);
    else process.stdout.write(`listening ${port}\n`);
  });
  process.once('SIGTERM', () => process.exit(0));
}

interface Server { child: ChildProcess; port: number; apiRoot: string }

async function start(command: string[], announced: RegExp): Promise<Server> {
  const child = spawn(process.execPath, command, { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, QUIRE_ADMIN_APP_PASSWORD: '' } });
  let text = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => { text += chunk; });
  for (const deadline = Date.now() + 20_000; ;) {
    const match = announced.exec(text);
    if (match) return { child, port: Number(match[1]), apiRoot: match[2] ?? '' };
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`server did not start: ${command.join(' ')}\n${text}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const startQuire = (data: string, workers: number, extra: string[] = []) =>
  start([bin, 'serve', '--port', '0', '--data', data, '--quiet', '--workers', String(workers), ...extra], /^quire listening: http:\/\/127\.0\.0\.1:(\d+)(\/[^\s]*?)\/$/m);

async function stop(server: Server): Promise<void> {
  const exited = new Promise((resolve) => server.child.once('exit', resolve));
  server.child.kill('SIGTERM');
  await exited;
}

function paragraphs(index: number): string {
  const sentence = 'Quire serves content from inside any application, with the interface existing clients already speak.';
  return Array.from({ length: 5 }, (_, paragraph) =>
    `<!-- wp:paragraph -->\n<p>${sentence} Paragraph ${paragraph + 1} of post ${index}, with <a href="https://example.com/${index}">a link</a> and <strong>some emphasis</strong>.</p>\n<!-- /wp:paragraph -->`)
    .join('\n\n');
}

async function seed(data: string): Promise<number> {
  const server = await startQuire(data, 1, ['--admin-app-password', PASSWORD]);
  const base = `http://127.0.0.1:${server.port}${server.apiRoot}`;
  let first = 0;
  try {
    for (let index = 0; index < POSTS; index++) {
      const response = await fetch(`${base}/cms/v2/posts`, {
        method: 'POST',
        headers: { authorization: AUTHORIZATION, 'content-type': 'application/json' },
        body: JSON.stringify({ title: `Post number ${index}: notes on serving content`, content: paragraphs(index), status: 'publish' }),
      });
      if (response.status !== 201) throw new Error(`seeding: ${response.status} ${await response.text()}`);
      first ||= ((await response.json()) as { id: number }).id;
    }
  } finally {
    await stop(server);
  }
  return first;
}

async function fetchAnswer(port: number, path: string): Promise<Prepared> {
  const response = await fetch(`http://127.0.0.1:${port}${path}`);
  const headers = [...response.headers].filter(([name]) => !OWN_HEADERS.has(name));
  return { status: response.status, headers, body: Buffer.from(await response.arrayBuffer()).toString('base64') };
}

/** CPU seconds so far of a process and its children (the cluster's workers). */
function cpuSeconds(pid: number): number {
  const children = (() => {
    try {
      return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
    } catch {
      return [];
    }
  })();
  return [pid, ...children].reduce((sum, one) => {
    const fields = readFileSync(`/proc/${one}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return sum + (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND;
  }, 0);
}

async function load(server: Server, path: string): Promise<{ rate: number; p99: number; cpuPerRequestUs: number }> {
  const before = cpuSeconds(server.child.pid!);
  const { rate, p99, total } = await runWrk(['-t1', `-c${CONNECTIONS}`, `-d${SECONDS}s`], `http://127.0.0.1:${server.port}${path}`, '/usr/bin/wrk');
  const used = cpuSeconds(server.child.pid!) - before;
  return { rate, p99, cpuPerRequestUs: (used / total) * 1e6 };
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

async function main(): Promise<void> {
  const folder = mkdtempSync(join(tmpdir(), 'quire-bench-workers-'));
  try {
    const data = join(folder, 'bench.db');
    const loadAtStart = loadavg()[0]!.toFixed(1);
    const firstPost = await seed(data);
    const probe = await startQuire(data, 1);
    const rows = [
      { label: 'anonymous list ?per_page=10', path: `${probe.apiRoot}/cms/v2/posts?per_page=10` },
      { label: 'anonymous single post', path: `${probe.apiRoot}/cms/v2/posts/${firstPost}` },
    ];
    const answers: Record<string, Prepared> = {};
    for (const row of rows) {
      answers[row.path] = await fetchAnswer(probe.port, row.path);
      if (answers[row.path]!.status !== 200) throw new Error(`${row.label}: status ${answers[row.path]!.status}`);
    }
    await stop(probe);
    const answersFile = join(folder, 'answers.json');
    writeFileSync(answersFile, JSON.stringify(answers));

    const targets = [
      { label: 'bare node', start: () => start(['--import', 'tsx', self, '--bare', answersFile, '1'], /^listening (\d+)$/m) },
      { label: 'bare node, 2 workers', start: () => start(['--import', 'tsx', self, '--bare', answersFile, '2'], /^listening (\d+)$/m) },
      { label: 'quire, 1 worker', start: () => startQuire(data, 1) },
      { label: 'quire, --workers 2', start: () => startQuire(data, 2) },
    ];
    const results = new Map<string, { rate: number[]; p99: number[]; cpu: number[] }>();
    for (let round = 0; round < ROUNDS; round++) {
      for (const target of targets) {
        const server = await target.start();
        try {
          for (const row of rows) {
            if (target.label.startsWith('bare')) {
              const served = await fetchAnswer(server.port, row.path);
              if (JSON.stringify(served) !== JSON.stringify(answers[row.path])) throw new Error(`${target.label}: ${row.label} differs from quire's answer`);
            }
            const figures = await load(server, row.path);
            const key = `${row.label}\t${target.label}`;
            const entry = results.get(key) ?? { rate: [], p99: [], cpu: [] };
            entry.rate.push(figures.rate);
            entry.p99.push(figures.p99);
            entry.cpu.push(figures.cpuPerRequestUs);
            results.set(key, entry);
          }
        } finally {
          await stop(server);
        }
      }
    }
    process.stdout.write(`wrk -t1 -c${CONNECTIONS} -d${SECONDS}s --latency; medians of ${ROUNDS} rounds; SQLite store, ${POSTS} posts; `
      + `load average ${loadAtStart} at the start, ${loadavg()[0]!.toFixed(1)} at the end\n`);
    process.stdout.write('row | server | req/s | p99 ms | CPU µs/req | req/s vs bare node | CPU vs bare node\n');
    for (const row of rows) {
      const bare = results.get(`${row.label}\tbare node`)!;
      for (const target of targets) {
        const entry = results.get(`${row.label}\t${target.label}`)!;
        process.stdout.write(`${row.label} | ${target.label} | ${median(entry.rate).toFixed(0)} | ${median(entry.p99).toFixed(2)} | `
          + `${median(entry.cpu).toFixed(0)} | ${(median(entry.rate) / median(bare.rate)).toFixed(2)} | ${(median(entry.cpu) / median(bare.cpu)).toFixed(2)}\n`);
      }
    }
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

if (process.argv[2] === '--bare') serveBare(process.argv[3]!, Number(process.argv[4]));
else await main();
