/**
 * Read path benchmark: `npm run bench:reads [-- --store memory|sqlite]` (builds dist/js, then runs
 * `node --import tsx test/bench/reads.ts`). The servers run the built package, as hosts and the standalone server do.
 *
 * A child process serves quire (node adapter) over a site of 100 realistic posts (several paragraphs of block
 * markup, categories, tags, featured images) twice — with the response cache, and with `responseCache: false` —
 * and, beside them, a bare `http.createServer` that writes the very bytes quire answered for each request. The
 * parent loads each server with autocannon, one after the other, and prints requests/s and p99 for each, and the
 * ratio to bare node. Before loading, the child checks that bare node answers each row with quire's status,
 * headers (all but `Date`) and body, byte for byte, so the bare server pays for the same headers and bytes.
 * The load generator is wrk (C, `-t1 --latency`) when `wrk` is on the PATH: it outruns both servers, so the ratio
 * is the servers' and not the generator's. Without wrk it falls back to autocannon, with a warning: autocannon is
 * JavaScript sharing the cores, caps the bare server more than quire and so flatters the ratio. Rows: anonymous list, an administrator's edit-context list (HTTP Basic with an application
 * password), anonymous single read. "uncached" is without the response cache; records still come from view
 * fragments, as they do whenever the response cache does not hold an answer. Also prints the in-process time of
 * one uncached list, with view fragments and without (`viewFragments: false`: every record prepared afresh).
 * Beside req/s, the servers' own CPU time per request (user + system, read from the child process around each
 * run): on a machine shared with other work the rates swing with it, the CPU cost per request much less, and the
 * ratio of costs is the ratio of rates a server with a core to itself would reach. BENCH_SECONDS (default 5) and
 * BENCH_CONNECTIONS (default 16) set the load; BENCH_ROUNDS (default 3) repeats bare, uncached and cached in turn
 * (alternating rounds, the order turned by one each round, after an unmeasured second of load on each server) and
 * prints medians (the ratio: the median of each round's ratio). BENCH_ROWS (`list,admin,single`) picks the rows
 * loaded. BENCH_LOG=1 serves with the
 * request log on, as `quire serve` writes it (pino, JSON lines; here into /dev/null), to compare against a run
 * without it.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import type { Cms, CmsRequest } from '../../src/index.js';
import type { StoragePort } from '../../src/ports/storage.js';
import { runWrk, type WrkResult } from './wrk.js';

// The servers run the built package (dist/js), as the standalone server and every host do.
const { toNodeListener } = await import('../../dist/js/node.js' as string) as typeof import('../../adapters/node.js');
const { createCms, createMemoryStorage, encodeResponse } = await import('../../dist/js/index.js' as string) as typeof import('../../src/index.js');
const { sqliteStorage } = await import('../../dist/js/sqlite.js' as string) as typeof import('../../src/storage/sqlite/index.js');

const HTTP_SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 3));
const HOST = 'bench.test';
const API_ROOT = '/cms-json';
const POSTS = 100;
const PASSWORD = 'benc hmar kpas swor dabc defg';
const AUTHORIZATION = `Basic ${Buffer.from(`admin:${PASSWORD}`).toString('base64')}`;
/** The request log as the standalone server routes it, when BENCH_LOG=1. */
const logOption = process.env.BENCH_LOG === '1' ? await (async () => {
  const { batchedDestination, createLogger, logRequest } = await import('../../src/cli/log.js');
  const logger = createLogger({ format: 'json', level: 'info' }, batchedDestination('/dev/null'));
  return { onRequest: (entry: Parameters<typeof logRequest>[1]) => logRequest(logger, entry) };
})() : {};
const chosenStore = process.argv.includes('--store') ? process.argv[process.argv.indexOf('--store') + 1]! : null;
if (chosenStore !== null && chosenStore !== 'memory' && chosenStore !== 'sqlite') throw new Error(`--store must be memory or sqlite, not ${chosenStore}`);
const store = chosenStore ?? 'memory';
const hasWrk = spawnSync('wrk', ['--version'], { stdio: 'ignore' }).error === undefined;

interface Row { name: RowName; label: string; path: string; headers: Record<string, string> }

const ROW_NAMES = ['list', 'admin', 'single'] as const;
type RowName = typeof ROW_NAMES[number];
/** BENCH_ROWS: the rows to load, by name (`list,admin,single`, the default); the servers check every row all the same. */
const chosenRows = (process.env.BENCH_ROWS ?? ROW_NAMES.join(',')).split(',').map((name) => name.trim());
for (const name of chosenRows) if (!ROW_NAMES.includes(name as RowName)) throw new Error(`BENCH_ROWS: ${name} is not one of ${ROW_NAMES.join(', ')}`);

function rows(firstPostId: number): Row[] {
  return [
    { name: 'list', label: 'anonymous GET /cms/v2/posts?per_page=10', path: '/cms/v2/posts?per_page=10', headers: {} },
    { name: 'admin', label: 'admin GET /cms/v2/posts?per_page=10&context=edit', path: '/cms/v2/posts?per_page=10&context=edit', headers: { authorization: AUTHORIZATION } },
    { name: 'single', label: `anonymous GET /cms/v2/posts/${firstPostId}`, path: `/cms/v2/posts/${firstPostId}`, headers: {} },
  ];
}

function paragraphs(index: number): string {
  const sentence = 'Quire serves content from inside any application, with the interface existing clients already speak.';
  return Array.from({ length: 5 }, (_, paragraph) =>
    `<!-- wp:paragraph -->\n<p>${sentence} Paragraph ${paragraph + 1} of post ${index}, with <a href="https://example.com/${index}">a link</a> and <strong>some emphasis</strong>.</p>\n<!-- /wp:paragraph -->`)
    .concat(`<!-- wp:heading -->\n<h2>Section of post ${index}</h2>\n<!-- /wp:heading -->`, '<!-- wp:list -->\n<ul><li>One</li><li>Two</li><li>Three</li></ul>\n<!-- /wp:list -->')
    .join('\n\n');
}

/** A site of realistic posts, seeded through the API as a client would. */
async function seededSite(storage: StoragePort): Promise<{ cms: Cms; firstPostId: number }> {
  const cms = createCms({ storage, site: { url: `http://${HOST}` }, responseCache: false, ...logOption });
  const admin = await cms.users.create({ login: 'admin', email: 'admin@bench.test', roles: ['administrator'] });
  await cms.users.createApplicationPassword(admin.id, { name: 'bench', password: PASSWORD });
  const call = async (method: string, path: string, body: unknown) => {
    const answer = await cms.handle({
      method, path, headers: { authorization: AUTHORIZATION, 'content-type': 'application/json' }, body: JSON.stringify(body),
    });
    if (answer.status >= 300) throw new Error(`${method} ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
    return answer.body as { id: number };
  };
  const categories = [];
  for (const name of ['News', 'Guides', 'Releases']) categories.push((await call('POST', '/cms/v2/categories', { name })).id);
  const tags = [];
  for (const name of ['node', 'cms', 'rest', 'typescript']) tags.push((await call('POST', '/cms/v2/tags', { name })).id);
  const image = await cms.handle({
    method: 'POST', path: '/cms/v2/media',
    headers: { authorization: AUTHORIZATION, 'content-type': 'image/gif', 'content-disposition': 'attachment; filename="cover.gif"' },
    body: Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64'),
  });
  const featured = (image.body as { id: number }).id;
  let firstPostId = 0;
  for (let index = 0; index < POSTS; index += 1) {
    const post = await call('POST', '/cms/v2/posts', {
      title: `Post number ${index}: notes on serving content`,
      content: paragraphs(index),
      excerpt: '',
      status: 'publish',
      categories: [categories[index % categories.length]],
      tags: [tags[index % tags.length], tags[(index + 1) % tags.length]],
      featured_media: featured,
    });
    firstPostId ||= post.id;
  }
  return { cms, firstPostId };
}

function requestFor(row: Row): CmsRequest {
  const [path, query] = row.path.split('?') as [string, string | undefined];
  return { method: 'GET', path, query: query ?? '', headers: { host: HOST, ...row.headers }, baseUrl: `http://${HOST}${API_ROOT}` };
}

/** Child process: quire and the bare server, announcing their ports on stdout. */
async function serveTargets(): Promise<void> {
  const folder = store === 'sqlite' ? mkdtempSync(join(tmpdir(), 'quire-bench-')) : null;
  const storage = folder ? sqliteStorage({ path: join(folder, 'bench.db') }) : createMemoryStorage();
  const { cms: uncached, firstPostId } = await seededSite(storage);
  const cached = createCms({ storage, site: { url: `http://${HOST}` }, ...logOption });
  const unshaped = createCms({ storage, site: { url: `http://${HOST}` }, responseCache: false, viewFragments: false });
  if (!(storage as { changeToken?: unknown }).changeToken) process.stderr.write('warning: this store has no change token, so the cache keeps nothing\n');
  const prepared = new Map<string, { status: number; headers: http.OutgoingHttpHeaders; body: Uint8Array }>();
  let uncachedListMs = 0;
  for (const [index, row] of rows(firstPostId).entries()) {
    const started = performance.now();
    const encoded = encodeResponse(await uncached.handle(requestFor(row)));
    if (index === 0) uncachedListMs = performance.now() - started;
    const again = encodeResponse(await cached.handle(requestFor(row)));
    if (Buffer.compare(again.body ?? new Uint8Array(0), encoded.body ?? new Uint8Array(0)) !== 0) throw new Error(`${row.label}: cached and uncached bytes differ`);
    const body = encoded.body ?? new Uint8Array(0);
    prepared.set(`${API_ROOT}${row.path}`, { status: encoded.status, headers: { ...encoded.headers, 'Content-Length': body.byteLength }, body });
  }
  const bare = http.createServer((req, res) => {
    const answer = prepared.get(req.url ?? '');
    if (!answer) return void res.writeHead(404).end();
    res.writeHead(answer.status, answer.headers);
    res.end(answer.body);
  });
  const portOf = (server: http.Server) => new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
  const ports = {
    cached: await portOf(http.createServer(toNodeListener(cached))),
    uncached: await portOf(http.createServer(toNodeListener(uncached))),
    bare: await portOf(bare),
  };
  for (const row of rows(firstPostId)) await assertSameAnswer(ports.cached, ports.bare, row);
  const inProcess = { inProcessListMs: await inProcessListMs(uncached), inProcessUnshapedListMs: await inProcessListMs(unshaped) };
  process.stdout.write(`${JSON.stringify({ ports, firstPostId, uncachedListMs, ...inProcess })}\n`);
  process.on('message', () => process.send?.(process.cpuUsage()));
  process.once('SIGTERM', () => {
    if (folder) rmSync(folder, { recursive: true, force: true });
    process.exit(0);
  });
}

function fetchRaw(port: number, row: Row): Promise<{ status: number; headers: string[]; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http.get({ host: '127.0.0.1', port, path: `${API_ROOT}${row.path}`, headers: { host: HOST, ...row.headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk)).on('end', () => {
        const headers: string[] = [];
        for (let index = 0; index < res.rawHeaders.length; index += 2) {
          if (res.rawHeaders[index]!.toLowerCase() !== 'date') headers.push(`${res.rawHeaders[index]}: ${res.rawHeaders[index + 1]}`);
        }
        resolve({ status: res.statusCode ?? 0, headers, body: Buffer.concat(chunks) });
      });
    }).on('error', reject);
  });
}

/** Bare node must answer with quire's status, headers and body, or the comparison is not like for like. */
async function assertSameAnswer(quirePort: number, barePort: number, row: Row): Promise<void> {
  const [quire, bare] = [await fetchRaw(quirePort, row), await fetchRaw(barePort, row)];
  if (quire.status !== bare.status || quire.headers.join('\n') !== bare.headers.join('\n') || !quire.body.equals(bare.body)) {
    throw new Error(`${row.label}: bare node does not answer as quire does\nquire: ${quire.headers.join(' | ')}\nbare:  ${bare.headers.join(' | ')}`);
  }
}

/** Median time of one anonymous list of 10 posts through `cms.handle()`, after warming up. */
async function inProcessListMs(cms: Cms): Promise<number> {
  const request = requestFor(rows(0)[0]!);
  for (let i = 0; i < 200; i += 1) await cms.handle(request);
  const times: number[] = [];
  for (let i = 0; i < 500; i += 1) {
    const started = performance.now();
    await cms.handle(request);
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b)[Math.floor(times.length / 2)]!;
}

interface Started {
  ports: { cached: number; uncached: number; bare: number };
  firstPostId: number;
  uncachedListMs: number;
  inProcessListMs: number;
  inProcessUnshapedListMs: number;
}

async function startTargets(storeName: string): Promise<Started & { stop: () => void; cpu: () => Promise<number> }> {
  const child = spawn(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), '--serve', '--store', storeName], { stdio: ['ignore', 'pipe', 'inherit', 'ipc'] });
  /** The servers' CPU time so far, in microseconds. */
  const cpu = () => new Promise<number>((resolve) => {
    child.once('message', (usage: NodeJS.CpuUsage) => resolve(usage.user + usage.system));
    child.send('cpu');
  });
  const started = await new Promise<Started>((resolve, reject) => {
    let text = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      text += chunk;
      if (text.includes('\n')) resolve(JSON.parse(text.slice(0, text.indexOf('\n'))));
    });
    child.once('exit', (code) => reject(new Error(`benchmark servers exited with code ${code}`)));
  });
  return { ...started, cpu, stop: () => child.kill('SIGTERM') };
}

interface Run { rate: number; p99: number; cpuPerRequest: number }

async function load(port: number, row: Row, cpu: () => Promise<number>): Promise<Run> {
  const before = await cpu();
  const { rate, p99, total } = hasWrk ? await wrk(port, row) : await autocannonRun(port, row);
  const used = (await cpu()) - before;
  return { rate, p99, cpuPerRequest: used / Math.max(1, total) };
}

/** wrk: one thread, CONNECTIONS connections, latency percentiles; p99 in milliseconds. */
function wrk(port: number, row: Row, seconds = HTTP_SECONDS): Promise<WrkResult> {
  const headers = Object.entries({ host: HOST, ...row.headers }).flatMap(([name, value]) => ['-H', `${name}: ${value}`]);
  return runWrk(['-t1', `-c${CONNECTIONS}`, `-d${seconds}s`, ...headers], `http://127.0.0.1:${port}${API_ROOT}${row.path}`);
}

async function autocannonRun(port: number, row: Row, seconds = HTTP_SECONDS): Promise<{ rate: number; p99: number; total: number }> {
  const result = await autocannon({
    url: `http://127.0.0.1:${port}${API_ROOT}${row.path}`,
    headers: { host: HOST, ...row.headers },
    connections: CONNECTIONS,
    duration: seconds,
  });
  if (result.errors > 0 || result.non2xx > 0) {
    process.stderr.write(`warning: ${result.errors} errors and ${result.non2xx} non-2xx answers on port ${port}\n`);
  }
  return { rate: result.requests.average, p99: result.latency.p99, total: result.requests.total };
}

type Target = 'bare' | 'uncached' | 'cached';
const TARGETS: readonly Target[] = ['bare', 'uncached', 'cached'];
const WARM_SECONDS = 1;

/**
 * The servers in the order of one round, turned by one each round: the three share a process, so what one run
 * leaves (garbage to collect, caches filled with its data) is met by the next, and no server always follows the same.
 */
function turnOrder(round: number): Target[] {
  return TARGETS.map((_, index) => TARGETS[(index + round) % TARGETS.length]!);
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function main(): Promise<void> {
  if (!hasWrk) process.stderr.write('warning: wrk is not installed; falling back to autocannon, which shares the cores and flatters quire/bare\n');
  for (const storeName of chosenStore ? [chosenStore] : ['memory', 'sqlite']) await benchStore(storeName);
}

async function benchStore(storeName: string): Promise<void> {
  const { ports, firstPostId, uncachedListMs, inProcessListMs, inProcessUnshapedListMs, stop, cpu } = await startTargets(storeName);
  const lines: string[][] = [];
  try {
    for (const row of rows(firstPostId).filter((candidate) => chosenRows.includes(candidate.name))) {
      const runs: Record<Target, Run[]> = { bare: [], uncached: [], cached: [] };
      // Each server is warmed on the row first (not measured), so no first round pays for compiling its path.
      for (const target of TARGETS) await (hasWrk ? wrk(ports[target], row, WARM_SECONDS) : autocannonRun(ports[target], row, WARM_SECONDS));
      for (let round = 0; round < ROUNDS; round += 1) {
        for (const target of turnOrder(round)) runs[target].push(await load(ports[target], row, cpu));
      }
      const summary = (list: Run[]) => ({ rate: median(list.map((run) => run.rate)), p99: median(list.map((run) => run.p99)), cpu: median(list.map((run) => run.cpuPerRequest)) });
      const bare = summary(runs.bare);
      for (const variant of ['uncached', 'cached'] as const) {
        const quire = summary(runs[variant]);
        const ratio = median(runs[variant].map((run, round) => run.rate / runs.bare[round]!.rate));
        lines.push([
          row.label, variant, whole(quire.rate), milliseconds(quire.p99), whole(bare.rate), milliseconds(bare.p99), `${Math.round(ratio * 100)}%`,
          quire.cpu.toFixed(0), bare.cpu.toFixed(0), `${Math.round((bare.cpu / quire.cpu) * 100)}%`,
        ]);
      }
    }
  } finally {
    stop();
  }
  const header = ['request', 'cache', 'quire req/s', 'p99 ms', 'bare node req/s', 'p99 ms', 'quire/bare', 'quire cpu µs/req', 'bare cpu µs/req', 'bare/quire cpu'];
  const generator = hasWrk ? `wrk -t1 -c${CONNECTIONS} --latency` : `autocannon (JavaScript; wrk not installed), ${CONNECTIONS} connections`;
  process.stdout.write(`quire read benchmark: ${storeName} store, ${POSTS} posts, node ${process.version}, loopback, ${generator}, ${HTTP_SECONDS} s per run, ${ROUNDS} alternating round(s)\n`);
  process.stdout.write(`in-process anonymous list of 10: first ${uncachedListMs.toFixed(2)} ms, median of 500 repeats ${inProcessListMs.toFixed(3)} ms`
    + ` (${inProcessUnshapedListMs.toFixed(3)} ms without view fragments)\n\n`);
  process.stdout.write(`${table([header, ...lines])}\n\n`);
}

function whole(value: number): string {
  return Math.round(value).toLocaleString('en-US');
}

/** A latency in milliseconds to the microsecond wrk reports it in. */
function milliseconds(value: number): string {
  return String(Number(value.toFixed(3)));
}

function table(data: string[][]): string {
  const widths = data[0]!.map((_, column) => Math.max(...data.map((row) => row[column]!.length)));
  const line = (row: string[]) => row.map((cell, column) => (column < 2 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!))).join('  ');
  return [line(data[0]!), widths.map((width) => '-'.repeat(width)).join('  '), ...data.slice(1).map(line)].join('\n');
}

if (process.argv.includes('--serve')) await serveTargets();
else await main();
