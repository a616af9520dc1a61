/**
 * HTTP benchmark: `node --import tsx test/bench/http.ts` (or `npm run bench`).
 * Prints, for `GET /` and `GET /cms/v2`: in-process requests/s of `cms.handle()`, then requests/s and p99 latency
 * through the node adapter and through a bare `http.createServer` that writes the same bytes, and their ratio.
 * The servers run in a child process so that the load generator does not share their CPU.
 * BENCH_SECONDS (default 5) sets the length of each HTTP run; BENCH_CONNECTIONS (default 10) the concurrency.
 */
import { spawn } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { toNodeListener } from '../../adapters/node.js';
import { createCms, encodeResponse, type CmsRequest } from '../../src/index.js';

const HTTP_SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const IN_PROCESS_SECONDS = Math.min(HTTP_SECONDS, 2);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const HOST = 'bench.test';
const API_ROOT = '/cms-json';
const ROUTES = [
  { label: 'GET /', path: '/' },
  { label: 'GET /cms/v2', path: '/cms/v2' },
];

const requestFor = (path: string): CmsRequest => ({ method: 'GET', path, headers: { host: HOST }, baseUrl: `http://${HOST}${API_ROOT}` });

/** Child process: the node adapter and the bare server, announcing their ports on stdout. */
async function serveTargets(): Promise<void> {
  const cms = createCms();
  const prepared = new Map<string, { status: number; headers: http.OutgoingHttpHeaders; body: Uint8Array }>();
  for (const route of ROUTES) {
    const encoded = encodeResponse(await cms.handle(requestFor(route.path)));
    const body = encoded.body ?? new Uint8Array(0);
    prepared.set(`${API_ROOT}${route.path === '/' ? '/' : route.path}`, { status: encoded.status, headers: { ...encoded.headers, 'Content-Length': body.byteLength }, body });
  }
  const bare = http.createServer((req, res) => {
    const answer = prepared.get(req.url ?? '');
    if (!answer) return void res.writeHead(404).end();
    res.writeHead(answer.status, answer.headers);
    res.end(answer.body);
  });
  const adapter = http.createServer(toNodeListener(cms));
  const portOf = (server: http.Server) => new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
  process.stdout.write(`${JSON.stringify({ adapter: await portOf(adapter), bare: await portOf(bare) })}\n`);
}

async function startTargets(): Promise<{ ports: { adapter: number; bare: number }; stop: () => void }> {
  const child = spawn(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), '--serve'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const ports = await new Promise<{ adapter: number; bare: number }>((resolve, reject) => {
    let text = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      text += chunk;
      if (text.includes('\n')) resolve(JSON.parse(text.slice(0, text.indexOf('\n'))));
    });
    child.once('exit', (code) => reject(new Error(`benchmark servers exited with code ${code}`)));
  });
  return { ports, stop: () => child.kill() };
}

async function inProcessRate(path: string): Promise<number> {
  const cms = createCms();
  const request = requestFor(path);
  for (let i = 0; i < 500; i += 1) await cms.handle(request);
  const started = performance.now();
  const deadline = started + IN_PROCESS_SECONDS * 1000;
  let count = 0;
  while (performance.now() < deadline) {
    for (let i = 0; i < 100; i += 1) await cms.handle(request);
    count += 100;
  }
  return count / ((performance.now() - started) / 1000);
}

async function load(port: number, path: string): Promise<{ rate: number; p99: number }> {
  const result = await autocannon({
    url: `http://127.0.0.1:${port}${API_ROOT}${path === '/' ? '/' : path}`,
    headers: { host: HOST },
    connections: CONNECTIONS,
    duration: HTTP_SECONDS,
  });
  if (result.errors > 0 || result.non2xx > 0) {
    process.stderr.write(`warning: ${result.errors} errors and ${result.non2xx} non-2xx answers on port ${port}\n`);
  }
  return { rate: result.requests.average, p99: result.latency.p99 };
}

/** The adapter and the bare server must answer the same bytes, or the comparison means nothing. */
async function assertSameBytes(ports: { adapter: number; bare: number }, path: string): Promise<void> {
  const body = (port: number) => new Promise<string>((resolve, reject) => {
    http.get({ host: '127.0.0.1', port, path: `${API_ROOT}${path === '/' ? '/' : path}`, headers: { host: HOST } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk)).on('end', () => resolve(Buffer.concat(chunks).toString('base64')));
    }).on('error', reject);
  });
  if ((await body(ports.adapter)) !== (await body(ports.bare))) throw new Error(`the bare server does not mirror ${path}`);
}

async function main(): Promise<void> {
  const { ports, stop } = await startTargets();
  const rows: string[][] = [];
  try {
    for (const route of ROUTES) {
      await assertSameBytes(ports, route.path);
      const inProcess = await inProcessRate(route.path);
      const adapter = await load(ports.adapter, route.path);
      const bare = await load(ports.bare, route.path);
      rows.push([
        route.label, whole(inProcess), whole(adapter.rate), `${adapter.p99}`, whole(bare.rate), `${bare.p99}`,
        (adapter.rate / bare.rate).toFixed(2),
      ]);
    }
  } finally {
    stop();
  }
  const header = ['request', 'in-process req/s', 'node adapter req/s', 'p99 ms', 'bare http req/s', 'p99 ms', 'adapter/bare'];
  process.stdout.write(`quire HTTP benchmark: node ${process.version}, loopback, ${CONNECTIONS} connections, ${HTTP_SECONDS} s per HTTP run, ${IN_PROCESS_SECONDS} s in-process\n\n`);
  process.stdout.write(`${table([header, ...rows])}\n`);
}

function whole(value: number): string {
  return Math.round(value).toLocaleString('en-US');
}

function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  const line = (row: string[]) => row.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!))).join('  ');
  return [line(rows[0]!), widths.map((width) => '-'.repeat(width)).join('  '), ...rows.slice(1).map(line)].join('\n');
}

if (process.argv.includes('--serve')) await serveTargets();
else await main();
