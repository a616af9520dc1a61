/**
 * The first read of a 10-post list after a write, against the same read repeated (the response cache off, so
 * both are computed; the repeated one is joined from kept view fragments), and against bare `JSON.stringify` of
 * the same body. The write changes a post outside the page without a revision (`write`), or edits one outside
 * the page or one of the ten, adding a revision (`edit`). For comparison, the list after reads of other routes
 * and no write: what the list costs when other work ran in between (the processor's caches hold less of it); and
 * after the same change as `write` made straight to the store: the read has the same state to move to, without
 * the interface's work for the write running just before it.
 * In-process; prints microseconds (median of `rounds`, default 100) and each case's ratio to the repeated read.
 *
 *   node --import tsx test/bench/after-write.ts [rounds] [--store memory|sqlite] [--built] [--http]
 *
 * `--store`: the memory store (default) or SQLite in a throwaway file. `--built`: the built package (dist/js, as
 * hosts and the standalone server run it; build it first with `node .ci/build.mjs --js`) instead of the sources.
 * `--http`: the same requests over HTTP to a child process serving quire with the node adapter (keep-alive, one at
 * a time); prints, per case, the round trip as this client sees it and the server's own wall and CPU time for the
 * request (from its listener being called to the response's `finish`), each with its ratio to the repeated read.
 */
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import type { CmsRequest } from '../../src/core/types.js';

type Index = typeof import('../../src/index.js');
type Sqlite = typeof import('../../src/storage/sqlite/index.js');
type NodeAdapter = typeof import('../../adapters/node.js');
/** What the parent asks the serving child over IPC, and what it answers. */
type ChildMessage = { kind: 'store-write'; id: number; fields: Record<string, unknown> } | { kind: 'timings' } | { kind: 'close' };
type ParentMessage = { kind: 'listening'; port: number } | { kind: 'written' } | { kind: 'timings'; timings: [number, number][] };

const args = process.argv.slice(2);
const option = (name: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const store = option('--store') ?? 'memory';
if (store !== 'memory' && store !== 'sqlite') throw new Error(`--store must be memory or sqlite, not ${store}`);
const built = args.includes('--built');
const overHttp = args.includes('--http');
const serving = args.includes('--serve');
const rounds = Number(args.find((arg, index) => /^\d+$/.test(arg) && args[index - 1] !== '--store') ?? 100);
const root = built ? '../../dist/js' : '../../src';
/** Where the node adapter serves the API by default. */
const API_ROOT = '/cms-json';

async function openSite() {
  const { createCms, createMemoryStorage } = await import(`${root}/index.js`) as Index;
  const { sqliteStorage } = await import(built ? `${root}/sqlite.js` : `${root}/storage/sqlite/index.js`) as Sqlite;
  const folder = store === 'sqlite' ? mkdtempSync(join(tmpdir(), 'quire-after-write-')) : null;
  const storage = folder ? sqliteStorage({ path: join(folder, 'bench.db') }) : createMemoryStorage();
  const cms = createCms({ storage, responseCache: false });
  const admin = await cms.users.create({ login: 'admin', email: 'admin@site.test', roles: ['administrator'] });
  await cms.users.createApplicationPassword(admin.id, { name: 'bench', password: 'adminpassword12345' });
  const close = async () => {
    await storage.close?.();
    if (folder) rmSync(folder, { recursive: true, force: true });
  };
  return { cms, storage, close };
}

/** The child of `--http`: serves the site, notes each request's own wall and CPU time, answers the parent's asks. */
async function serve() {
  const site = await openSite();
  const { toNodeListener } = await import(built ? `${root}/node.js` : '../../adapters/node.js') as NodeAdapter;
  const listener = toNodeListener(site.cms);
  const timings: [number, number][] = [];
  const server = http.createServer((req, res) => {
    const start = performance.now();
    const cpu = process.cpuUsage();
    res.on('finish', () => {
      const used = process.cpuUsage(cpu);
      timings.push([(performance.now() - start) * 1000, used.user + used.system]);
    });
    listener(req, res);
  });
  server.keepAliveTimeout = 600_000;
  process.on('disconnect', () => process.exit(1));
  const send = (message: ParentMessage) => process.send!(message);
  process.on('message', (message: ChildMessage) => {
    if (message.kind === 'store-write') void site.storage.update('posts', message.id, message.fields).then(() => send({ kind: 'written' }));
    else if (message.kind === 'timings') send({ kind: 'timings', timings: timings.splice(0) });
    else server.close(() => void site.close().then(() => process.exit(0)));
  });
  server.listen(0, '127.0.0.1', () => send({ kind: 'listening', port: (server.address() as AddressInfo).port }));
}

const auth = { authorization: `Basic ${Buffer.from('admin:adminpassword12345').toString('base64')}` };
const headersFor = (json: unknown) => (json === undefined ? {} : { ...auth, 'content-type': 'application/json' });

/** The site as the measuring side sees it: in this process, or over HTTP to a serving child. */
interface Site {
  /** Answers a way to read the body, read only when asked (in process, reading it decodes the JSON). */
  call(method: string, path: string, query?: string, json?: unknown): Promise<() => unknown>;
  storeWrite(id: number, fields: Record<string, unknown>): Promise<void>;
  /** Server-side [wall µs, CPU µs] of every request since the last ask, in order; null in process. */
  serverTimings(): Promise<[number, number][] | null>;
  close(): Promise<void>;
}

async function inProcessSite(): Promise<Site> {
  const site = await openSite();
  return {
    async call(method, path, query = '', json) {
      const request: CmsRequest = { method, path: `/cms/v2${path}`, query, headers: headersFor(json) };
      if (json !== undefined) request.body = JSON.stringify(json);
      const answer = await site.cms.handle(request);
      if (answer.status >= 300) throw new Error(`${method} ${path}: ${answer.status}`);
      return () => answer.body;
    },
    storeWrite: async (id, fields) => { await site.storage.update('posts', id, fields); },
    serverTimings: async () => null,
    close: site.close,
  };
}

async function httpSite(): Promise<Site> {
  const child = fork(fileURLToPath(import.meta.url), [...args.filter((arg) => arg !== '--http'), '--serve'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const next = (kind: ParentMessage['kind']) => new Promise<ParentMessage>((resolve) => {
    const heard = (message: ParentMessage) => {
      if (message.kind !== kind) return;
      child.off('message', heard);
      resolve(message);
    };
    child.on('message', heard);
  });
  const { port } = await next('listening') as { port: number };
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const call = (method: string, path: string, query = '', json?: unknown) => new Promise<() => unknown>((resolve, reject) => {
    const request = http.request({ agent, port, host: '127.0.0.1', method, path: `${API_ROOT}/cms/v2${path}${query ? `?${query}` : ''}`, headers: headersFor(json) }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        if ((response.statusCode ?? 500) >= 300) reject(new Error(`${method} ${path}: ${response.statusCode}`));
        else resolve(() => JSON.parse(Buffer.concat(chunks).toString('utf8')));
      });
    });
    request.on('error', reject);
    request.end(json === undefined ? undefined : JSON.stringify(json));
  });
  return {
    call,
    async storeWrite(id, fields) {
      const written = next('written');
      child.send({ kind: 'store-write', id, fields } satisfies ChildMessage);
      await written;
    },
    async serverTimings() {
      const answer = next('timings');
      child.send({ kind: 'timings' } satisfies ChildMessage);
      return (await answer as { timings: [number, number][] }).timings;
    },
    async close() {
      agent.destroy();
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.send({ kind: 'close' } satisfies ChildMessage);
      await exited;
    },
  };
}

async function measure() {
  const site = overHttp ? await httpSite() : await inProcessSite();
  const paragraph = 'It\'s a "typical" paragraph -- with some <em>emphasis</em>, a <a href="https://example.com/">link</a> and an ellipsis...';
  const tags: number[] = [];
  for (let index = 0; index < 3; index += 1) tags.push(((await site.call('POST', '/tags', '', { name: `Tag ${index}` }))() as { id: number }).id);
  const ids: number[] = [];
  for (let index = 0; index < 30; index += 1) {
    const date = new Date(Date.UTC(2024, 0, 1 + index)).toISOString().slice(0, 19);
    const created = await site.call('POST', '/posts', '', {
      title: `Post ${index}`, content: Array.from({ length: 6 }, () => `<p>${paragraph}</p>`).join('\n\n'), status: 'publish', date, tags,
    });
    ids.push((created() as { id: number }).id);
  }
  const oldest = ids[0]!;
  const newest = ids[ids.length - 1]!;

  // Each request's case in order, so the server's timings can be told apart; null for one not measured.
  const sent: (string | null)[] = [];
  const list = async (name: string | null = null) => {
    sent.push(name);
    const start = performance.now();
    const body = await site.call('GET', '/posts', 'per_page=10');
    if (name !== null) results[name]!.push((performance.now() - start) * 1000);
    return body;
  };
  const unmeasured = (method: string, path: string, query = '', json?: unknown) => {
    sent.push(null);
    return site.call(method, path, query, json);
  };
  const results: Record<string, number[]> = {
    repeated: [], 'after write (other post)': [], 'after edit (other post)': [], 'after edit (listed post)': [],
    'after other reads, no write': [], 'after a store write (other post)': [],
  };
  for (let index = 0; index < 50; index += 1) await list();
  const body = (await list())();
  await site.serverTimings();
  sent.length = 0;
  if (!overHttp) results['JSON.stringify'] = [];
  for (let round = 0; round < rounds; round += 1) {
    // A setting that makes no revision, then edits that do (the post's revision history grows by one).
    await unmeasured('POST', `/posts/${oldest}`, '', { comment_status: round % 2 === 0 ? 'closed' : 'open' });
    await list('after write (other post)');
    await list('repeated');
    await unmeasured('POST', `/posts/${oldest}`, '', { excerpt: `Round ${round}` });
    await list('after edit (other post)');
    await unmeasured('POST', `/posts/${newest}`, '', { excerpt: `Round ${round}` });
    await list('after edit (listed post)');
    await list();
    await unmeasured('GET', `/posts/${oldest}`);
    await unmeasured('GET', '/tags');
    await unmeasured('GET', '/users', 'per_page=5');
    await list('after other reads, no write');
    await site.storeWrite(oldest, { comment_status: round % 2 === 0 ? 'open' : 'closed' });
    await list('after a store write (other post)');
    if (!overHttp) {
      const start = performance.now();
      JSON.stringify(body);
      results['JSON.stringify']!.push((performance.now() - start) * 1000);
    }
  }
  const timings = await site.serverTimings();
  await site.close();
  return { results, sent, timings };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
/** One column per measure: each case's median and its ratio to the repeated read's. */
function table(columns: [string, Record<string, number[]>][]) {
  const names = Object.keys(columns[0]![1]);
  console.log(`${'case'.padEnd(32)}${columns.map(([title]) => title.padStart(22)).join('')}`);
  for (const name of names) {
    const cells = columns.map(([, values]) => {
      const value = median(values[name]!);
      return `${value.toFixed(0).padStart(6)} µs ${(value / median(values.repeated!)).toFixed(2).padStart(6)}x`.padStart(22);
    });
    console.log(`${name.padEnd(32)}${cells.join('')}`);
  }
}

if (serving) await serve();
else {
  const { results, sent, timings } = await measure();
  console.log(`${store}, ${built ? 'built package (dist/js)' : 'sources'}, ${overHttp ? 'over HTTP' : 'in process'}, median of ${rounds} rounds`);
  if (timings === null) table([['in process', results]]);
  else {
    if (timings.length !== sent.length) throw new Error(`the server timed ${timings.length} requests, ${sent.length} were sent`);
    const serverWall: Record<string, number[]> = Object.fromEntries(Object.keys(results).map((name) => [name, []]));
    const serverCpu: Record<string, number[]> = Object.fromEntries(Object.keys(results).map((name) => [name, []]));
    sent.forEach((name, index) => {
      if (name === null) return;
      serverWall[name]!.push(timings[index]![0]);
      serverCpu[name]!.push(timings[index]![1]);
    });
    table([['client round trip', results], ['server wall', serverWall], ['server CPU', serverCpu]]);
  }
}
