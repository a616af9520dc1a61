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
 *   node --import tsx test/bench/after-write.ts [rounds] [--store memory|sqlite] [--built]
 *
 * `--store`: the memory store (default) or SQLite in a throwaway file. `--built`: the built package (dist/js, as
 * hosts and the standalone server run it; build it first with `node .ci/build.mjs --js`) instead of the sources.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { CmsRequest } from '../../src/core/types.js';

type Index = typeof import('../../src/index.js');
type Sqlite = typeof import('../../src/storage/sqlite/index.js');

const args = process.argv.slice(2);
const option = (name: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const store = option('--store') ?? 'memory';
if (store !== 'memory' && store !== 'sqlite') throw new Error(`--store must be memory or sqlite, not ${store}`);
const built = args.includes('--built');
const rounds = Number(args.find((arg, index) => /^\d+$/.test(arg) && args[index - 1] !== '--store') ?? 100);

const root = built ? '../../dist/js' : '../../src';
const { createCms, createMemoryStorage, encodeResponse } = await import(`${root}/index.js`) as Index;
const { sqliteStorage } = await import(built ? `${root}/sqlite.js` : `${root}/storage/sqlite/index.js`) as Sqlite;

const folder = store === 'sqlite' ? mkdtempSync(join(tmpdir(), 'quire-after-write-')) : null;
const storage = folder ? sqliteStorage({ path: join(folder, 'bench.db') }) : createMemoryStorage();
const cms = createCms({ storage, responseCache: false });
const admin = await cms.users.create({ login: 'admin', email: 'admin@site.test', roles: ['administrator'] });
await cms.users.createApplicationPassword(admin.id, { name: 'bench', password: 'adminpassword12345' });
const auth = { authorization: `Basic ${Buffer.from('admin:adminpassword12345').toString('base64')}` };

async function call(method: string, path: string, query = '', json?: unknown) {
  const request: CmsRequest = { method, path: `/cms/v2${path}`, query, headers: json === undefined ? {} : { ...auth, 'content-type': 'application/json' } };
  if (json !== undefined) request.body = JSON.stringify(json);
  const answer = await cms.handle(request);
  if (answer.status >= 300) throw new Error(`${method} ${path}: ${answer.status}`);
  return answer;
}

const paragraph = 'It\'s a "typical" paragraph -- with some <em>emphasis</em>, a <a href="https://example.com/">link</a> and an ellipsis...';
const tags: number[] = [];
for (let index = 0; index < 3; index += 1) tags.push(((await call('POST', '/tags', '', { name: `Tag ${index}` })).body as { id: number }).id);
const ids: number[] = [];
for (let index = 0; index < 30; index += 1) {
  const date = new Date(Date.UTC(2024, 0, 1 + index)).toISOString().slice(0, 19);
  const body = await call('POST', '/posts', '', {
    title: `Post ${index}`, content: Array.from({ length: 6 }, () => `<p>${paragraph}</p>`).join('\n\n'), status: 'publish', date, tags,
  });
  ids.push((body.body as { id: number }).id);
}
const oldest = ids[0]!;
const newest = ids[ids.length - 1]!;

const list = () => call('GET', '/posts', 'per_page=10');
const timed = async (action: () => Promise<unknown>) => {
  const start = performance.now();
  await action();
  return (performance.now() - start) * 1000;
};
const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

for (let index = 0; index < 50; index += 1) await list();
const body = JSON.parse(Buffer.from(encodeResponse(await list()).body ?? new Uint8Array(0)).toString('utf8')) as unknown;
const results: Record<string, number[]> = {
  repeated: [], 'after write (other post)': [], 'after edit (other post)': [], 'after edit (listed post)': [],
  'after other reads, no write': [], 'after a store write (other post)': [], 'JSON.stringify': [],
};
for (let round = 0; round < rounds; round += 1) {
  // A setting that makes no revision, then edits that do (the post's revision history grows by one).
  await call('POST', `/posts/${oldest}`, '', { comment_status: round % 2 === 0 ? 'closed' : 'open' });
  results['after write (other post)']!.push(await timed(list));
  results.repeated!.push(await timed(list));
  await call('POST', `/posts/${oldest}`, '', { excerpt: `Round ${round}` });
  results['after edit (other post)']!.push(await timed(list));
  await call('POST', `/posts/${newest}`, '', { excerpt: `Round ${round}` });
  results['after edit (listed post)']!.push(await timed(list));
  await list();
  await call('GET', `/posts/${oldest}`);
  await call('GET', '/tags');
  await call('GET', '/users', 'per_page=5');
  results['after other reads, no write']!.push(await timed(list));
  await storage.update('posts', oldest, { comment_status: round % 2 === 0 ? 'open' : 'closed' });
  results['after a store write (other post)']!.push(await timed(list));
  results['JSON.stringify']!.push(await timed(async () => JSON.stringify(body)));
}
const repeated = median([...results.repeated!]);
console.log(`${store}, ${built ? 'built package (dist/js)' : 'sources'}, median of ${rounds} rounds`);
for (const [name, values] of Object.entries(results)) {
  const value = median(values);
  console.log(`${name.padEnd(32)} ${value.toFixed(0).padStart(6)} µs ${(value / repeated).toFixed(2).padStart(6)}x`);
}
if (folder) {
  await storage.close?.();
  rmSync(folder, { recursive: true, force: true });
}
