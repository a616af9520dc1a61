/**
 * Hostile-input measurements: `npm run bench:hostile` (or `node --import tsx test/bench/hostile-bodies.ts`).
 * A server (the node adapter over the in-memory store) runs in a child process; each request of the hardening
 * report is sent to it over loopback while a probe asks `GET /` every 5 ms. Printed per request: status and
 * code, the time to the answer, the longest the server's event loop stalled, the slowest probe, and the
 * server's resident memory after it.
 */
import { fork, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { toNodeListener } from '../../adapters/node.js';
import { createCms } from '../../src/index.js';

const PASSWORD = 'benchPassword1234';

interface Stats { loopMaxMs: number; rssMb: number }

/** Child process: the server, answering `stats` messages with its loop stall and memory since the last ones. */
async function serve(): Promise<void> {
  const cms = createCms({ site: { url: 'http://bench.test' } });
  const admin = await cms.users.create({ login: 'admin', email: 'admin@bench.test', roles: ['administrator'] });
  await cms.users.createApplicationPassword(admin.id, { name: 'bench', password: PASSWORD });
  await cms.handle({ method: 'POST', path: '/cms/v2/posts', user: { id: admin.id }, headers: { 'content-type': 'application/json' }, body: '{"title":"Kept","status":"publish"}' });
  const server = http.createServer(toNodeListener(cms));
  server.listen(0, '127.0.0.1', () => process.send!({ port: (server.address() as AddressInfo).port }));
  const loop = monitorEventLoopDelay({ resolution: 5 });
  loop.enable();
  process.on('message', (message) => {
    if (message !== 'stats') return;
    global.gc?.();
    process.send!({ loopMaxMs: loop.max / 1e6, rssMb: process.memoryUsage().rss / 2 ** 20 } satisfies Stats);
    loop.reset();
  });
}

interface Hostile { label: string; method: string; path: string; headers?: Record<string, string>; body?: () => Buffer; admin?: boolean }

const nested = (levels: number) => `x${'[a]'.repeat(levels)}=1`;
const multipart = (name: string) => Buffer.from(`--b\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n1\r\n--b--\r\n`);
const json = { 'content-type': 'application/json' };
const form = { 'content-type': 'application/x-www-form-urlencoded' };

const REQUESTS: Hostile[] = [
  { label: 'GET ?__proto__[_method]=DELETE (anonymous)', method: 'GET', path: '/cms/v2/posts?__proto__[_method]=DELETE' },
  { label: '  then GET /posts/1 as administrator', method: 'GET', path: '/cms/v2/posts/1?context=edit', admin: true },
  { label: 'GET ?__proto__[rest_route]=/cms/v2/users/me', method: 'GET', path: '/cms/v2/posts?__proto__[rest_route]=/cms/v2/users/me' },
  { label: 'GET ?__proto__[_jsonp]=evil', method: 'GET', path: '/cms/v2/posts?__proto__[_jsonp]=evil' },
  { label: '  then GET /posts (anonymous)', method: 'GET', path: '/cms/v2/posts' },
  ...[64000, 32000, 8000].map((levels) => ({
    label: `PUT urlencoded x[a]x${levels} (anonymous)`, method: 'PUT', path: '/cms/v2/posts/1', headers: form, body: () => Buffer.from(nested(levels)),
  })),
  {
    label: 'POST multipart name x[a]x64000 (anonymous)', method: 'POST', path: '/cms/v2/posts/1',
    headers: { 'content-type': 'multipart/form-data; boundary=b' }, body: () => multipart(`x${'[a]'.repeat(64000)}`),
  },
  { label: 'GET /?context[toString]', method: 'GET', path: '/?context[toString]' },
  { label: 'GET /cms/v2?namespace[toString]=x', method: 'GET', path: '/cms/v2?namespace[toString]=x' },
  { label: 'POST autosaves?id[toString]=x (anonymous)', method: 'POST', path: '/cms/v2/posts/1/autosaves?id[toString]=x', headers: json, body: () => Buffer.from('{}') },
  {
    label: 'POST 20 MB JSON nested 10,000,000 (anonymous)', method: 'POST', path: '/cms/v2/posts', headers: json,
    body: () => Buffer.from('['.repeat(1e7) + ']'.repeat(1e7)),
  },
  {
    label: 'POST 20 MB JSON nested 10,000,000 (administrator)', method: 'POST', path: '/cms/v2/posts', headers: json, admin: true,
    body: () => Buffer.from('['.repeat(1e7) + ']'.repeat(1e7)),
  },
  {
    label: 'POST 7 MB JSON nested 3,500,000 (administrator)', method: 'POST', path: '/cms/v2/posts', headers: json, admin: true,
    body: () => Buffer.from('['.repeat(3.5e6) + ']'.repeat(3.5e6)),
  },
  {
    label: 'POST 10 MB urlencoded, 1,000,000 vars (anonymous)', method: 'POST', path: '/cms/v2/posts', headers: form,
    body: () => Buffer.from(Array.from({ length: 1e6 }, (_, index) => `v${index}=1`).join('&')),
  },
  {
    label: 'PUT 10 MB urlencoded, 1,000,000 vars (administrator)', method: 'PUT', path: '/cms/v2/posts/1', headers: form, admin: true,
    body: () => Buffer.from(Array.from({ length: 1e6 }, (_, index) => `v${index}=1`).join('&')),
  },
  {
    label: 'POST 31 MB post (administrator)', method: 'POST', path: '/cms/v2/posts', headers: json, admin: true,
    body: () => Buffer.from(JSON.stringify({ title: 'Large', content: 'word '.repeat(31 * 2 ** 20 / 5 - 10) })),
  },
  { label: '  then GET /posts/1 as administrator', method: 'GET', path: '/cms/v2/posts/1?context=edit', admin: true },
  {
    label: 'POST 7.5 MB post, under the limit (administrator)', method: 'POST', path: '/cms/v2/posts', headers: json, admin: true,
    body: () => Buffer.from(JSON.stringify({ title: 'Large', content: 'word '.repeat(7.5 * 2 ** 20 / 5) })),
  },
];

function request(port: number, hostile: Hostile, body: Buffer | undefined): Promise<{ status: number; code: string; ms: number }> {
  const headers: Record<string, string | number> = { ...hostile.headers };
  if (body) headers['content-length'] = body.length;
  if (hostile.admin) headers.authorization = `Basic ${Buffer.from(`admin:${PASSWORD}`).toString('base64')}`;
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const outgoing = http.request({ host: '127.0.0.1', port, method: hostile.method, path: `/cms-json${hostile.path}`, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        const text = Buffer.concat(chunks).toString();
        let code = '';
        try {
          const parsed = JSON.parse(text) as { code?: string } | unknown[];
          code = Array.isArray(parsed) ? `list of ${parsed.length}` : parsed.code ?? '';
        } catch {
          code = text.slice(0, 20);
        }
        resolve({ status: response.statusCode ?? 0, code, ms: performance.now() - started });
      });
    });
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

/** `GET /` every 5 ms until stopped; resolves with the slowest answer. */
function probe(port: number): { stop: () => Promise<number> } {
  let slowest = 0;
  let running = true;
  const loop = (async () => {
    while (running) {
      const started = performance.now();
      await new Promise<void>((resolve) => http.get({ host: '127.0.0.1', port, path: '/cms-json/', agent: false }, (response) => {
        response.resume().on('end', resolve);
      }).on('error', () => resolve()));
      slowest = Math.max(slowest, performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  })();
  return { stop: async () => { running = false; await loop; return slowest; } };
}

function ask(child: ChildProcess): Promise<Stats> {
  return new Promise((resolve) => {
    child.once('message', (message) => resolve(message as Stats));
    child.send('stats');
  });
}

async function main(): Promise<void> {
  const child = fork(fileURLToPath(import.meta.url), ['--serve'], { execArgv: [...process.execArgv, '--expose-gc'] });
  const { port } = await new Promise<{ port: number }>((resolve) => child.once('message', (message) => resolve(message as { port: number })));
  await ask(child);
  console.log(`${'request'.padEnd(52)} ${'status'.padEnd(30)} ${'answer ms'.padStart(9)} ${'loop stall ms'.padStart(13)} ${'probe ms'.padStart(8)} ${'rss MB'.padStart(7)}`);
  for (const hostile of REQUESTS) {
    const body = hostile.body?.();
    const pinger = probe(port);
    const answer = await request(port, hostile, body);
    const slowestProbe = await pinger.stop();
    const stats = await ask(child);
    const status = `${answer.status} ${answer.code}`.slice(0, 30);
    console.log(`${hostile.label.padEnd(52)} ${status.padEnd(30)} ${answer.ms.toFixed(0).padStart(9)} ${stats.loopMaxMs.toFixed(0).padStart(13)} ${slowestProbe.toFixed(0).padStart(8)} ${stats.rssMb.toFixed(0).padStart(7)}`);
  }
  child.kill();
}

if (process.argv.includes('--serve')) await serve();
else await main();
