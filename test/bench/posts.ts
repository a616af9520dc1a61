/**
 * Posts through the whole pipeline (`cms.handle`) at 10,000 and 100,000 stored posts: the default list (page 1
 * and page 500), a filtered list (author + status), a slug lookup, a search for a rare word, a create, an
 * update, and the memory the records take per 1,000 posts.
 *
 *   node --expose-gc --import tsx test/bench/posts.ts
 *
 * With `--stores`, the 100,000-post figures for each store instead, side by side (PostgreSQL: a private
 * throwaway server, or `QUIRE_TEST_POSTGRES_URL`):
 *
 *   node --expose-gc --import tsx test/bench/posts.ts --stores
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createCms, type Cms } from '../../src/cms.js';
import { fixedClock } from '../../src/ports/clock.js';
import type { NewRecord, StoragePort } from '../../src/ports/storage.js';
import { createMemoryStorage } from '../../src/storage/memory/index.js';
import { postgresStorage } from '../../src/storage/postgres/index.js';
import { sqliteStorage } from '../../src/storage/sqlite/index.js';
import { send } from '../helpers/request.js';
import { startTestPostgres } from '../storage/postgres-server.js';

const SIZES = [10_000, 100_000];
const WARMUP_SIZE = 2_000;
const RUNS = 400;
const SEARCH_RUNS = 20;
const AUTHORS = 20;
const RARE_WORD = 'quetzalcoatl';
/** Posts are stored in transactions of this many, as an import would. */
const BATCH = 1000;

const collectGarbage = (globalThis as { gc?: () => void }).gc;

function stamp(index: number, size: number): string {
  // Spread over ten years, newest last.
  const start = Date.UTC(2016, 0, 1);
  return new Date(start + Math.floor((index / size) * 10 * 365 * 86_400_000)).toISOString().slice(0, 19);
}

function record(index: number, size: number): NewRecord {
  const date = stamp(index, size);
  // Every tenth post is a draft; with twenty authors, those belong to authors 2 and 12.
  const status = index % 10 === 0 ? 'draft' : 'publish';
  return {
    type: 'post', status, date, date_gmt: date, modified: date, modified_gmt: date,
    author: 2 + (index % AUTHORS), parent: 0, slug: `post-number-${index}`, menu_order: 0,
    title: `Post number ${index}`,
    content: `Lorem ipsum dolor sit amet, consectetur adipiscing elit ${index}. ${index === Math.floor(size / 2) ? RARE_WORD : 'Sed do'} eiusmod tempor.\n\nUt enim ad minim veniam.`,
    excerpt: '', password: '', comment_status: 'open', ping_status: 'open', guid: `http://example.test/?p=${index + 1}`,
    template: '', featured_media: 0, meta: {}, sticky: false, format: 'standard', categories: [1], tags: [],
  };
}

async function site(size: number, storage: StoragePort = createMemoryStorage()): Promise<{ cms: Cms; admin: number; bytesPerThousand: number }> {
  const cms = createCms({ storage, clock: fixedClock('2026-06-01T00:00:00Z'), site: { url: 'http://example.test' } });
  const admin = await cms.users.create({ login: 'admin', email: 'admin@example.test', roles: ['administrator'] });
  for (let author = 0; author < AUTHORS; author++) {
    await cms.users.create({ login: `author${author}`, email: `author${author}@example.test`, roles: ['author'] });
  }
  collectGarbage?.();
  const before = process.memoryUsage().heapUsed;
  for (let first = 0; first < size; first += BATCH) {
    await cms.deps.storage.transaction(async (tx) => {
      for (let index = first; index < Math.min(size, first + BATCH); index++) await tx.insert('posts', record(index, size));
    });
  }
  collectGarbage?.();
  const bytesPerThousand = ((process.memoryUsage().heapUsed - before) / size) * 1000;
  return { cms, admin: admin.id, bytesPerThousand };
}

async function time(runs: number, operation: (run: number) => Promise<{ status: number }>): Promise<{ p50: number; p99: number }> {
  const samples: number[] = [];
  const warmup = Math.min(30, runs);
  for (let run = 0; run < runs + warmup; run++) {
    const start = performance.now();
    const response = await operation(run);
    const elapsed = performance.now() - start;
    if (response.status >= 300) throw new Error(`status ${response.status}`);
    if (run >= warmup) samples.push(elapsed);
  }
  samples.sort((a, b) => a - b);
  return { p50: samples[Math.floor(samples.length * 0.5)]!, p99: samples[Math.min(samples.length - 1, Math.floor(samples.length * 0.99))]! };
}

const format = (timing: { p50: number; p99: number }) => `${timing.p50.toFixed(3)} ms (p99 ${timing.p99.toFixed(3)})`;
const rows = new Map<string, string[]>();
let recording = false;
const note = (label: string, value: string) => {
  if (recording) rows.set(label, [...(rows.get(label) ?? []), value]);
};

interface Column {
  store: 'memory' | 'sqlite' | 'postgres';
  heading: string;
  size: number;
  open(): Promise<{ storage: StoragePort; close(): Promise<void> }>;
}

const memoryColumn = (size: number): Column => ({
  store: 'memory',
  heading: `${size.toLocaleString('en')} posts${process.argv.includes('--stores') ? ', memory' : ''}`,
  size,
  open: async () => ({ storage: createMemoryStorage(), close: async () => {} }),
});

async function columns(): Promise<Column[]> {
  if (!process.argv.includes('--stores')) return SIZES.map(memoryColumn);
  const size = SIZES[SIZES.length - 1]!;
  const postgres = await startTestPostgres();
  const list: Column[] = [
    memoryColumn(size),
    {
      store: 'sqlite',
      heading: `${size.toLocaleString('en')} posts, SQLite`,
      size,
      open: async () => {
        const folder = mkdtempSync(join(tmpdir(), 'quire-bench-'));
        const storage = sqliteStorage({ path: join(folder, 'bench.db') });
        return { storage, close: async () => { await storage.close(); rmSync(folder, { recursive: true, force: true }); } };
      },
    },
  ];
  if ('server' in postgres) {
    let schemaNumber = 0;
    list.push({
      store: 'postgres',
      heading: `${size.toLocaleString('en')} posts, PostgreSQL`,
      size,
      open: async () => {
        const storage = await postgresStorage({ connectionString: postgres.server.connectionString, schema: `bench_${++schemaNumber}_${process.pid}` });
        return { storage, close: () => storage.close() };
      },
    });
  } else {
    console.log(`PostgreSQL column left out: ${postgres.skip}`);
  }
  process.once('exit', () => void ('server' in postgres && postgres.server.stop()));
  return list;
}

async function measure(column: Column): Promise<void> {
  const { storage, close } = await column.open();
  const { size } = column;
  const { cms, admin, bytesPerThousand } = await site(size, storage);
  if (column.store === 'postgres') await analyze(storage);
  const user = { id: admin };
  const get = (path: string) => send(cms, 'GET', path);
  // Warm the indexes each query shape uses.
  await get('/cms/v2/posts');
  note('list, page 1', format(await time(RUNS, () => get('/cms/v2/posts'))));
  const deepPage = Math.min(500, Math.floor((size * 0.9) / 10));
  note('list, page 500', format(await time(RUNS, () => get(`/cms/v2/posts?page=${deepPage}`))));
  note('author + status filter', format(await time(RUNS, (run) => send(cms, 'GET', `/cms/v2/posts?author=${run % 2 === 0 ? 2 : 12}&status=draft`, { user }))));
  note('slug lookup', format(await time(RUNS, (run) => get(`/cms/v2/posts?slug=post-number-${(run * 7919) % size}`))));
  note('search, rare word', format(await time(SEARCH_RUNS, () => get(`/cms/v2/posts?search=${RARE_WORD}`))));
  note('create', format(await time(RUNS, (run) => send(cms, 'POST', '/cms/v2/posts', { json: { title: `Bench ${run}`, content: 'Body', status: 'publish' }, user }))));
  note('update (title)', format(await time(RUNS, (run) => send(cms, 'POST', `/cms/v2/posts/${1 + ((run * 104_729) % size)}`, { json: { title: `Renamed ${run}` }, user }))));
  const memory = collectGarbage ? `${(bytesPerThousand / 1024).toFixed(0)} KiB` : 'run with --expose-gc';
  note('memory per 1,000 posts', column.store === 'memory' ? memory : 'on disk');
  await close();
}

/** Planner statistics after a bulk load, as autovacuum would soon have them (the SQLite store gathers its own). */
async function analyze(storage: StoragePort): Promise<void> {
  await (storage as unknown as { pool: { query(sql: string): Promise<unknown> } }).pool.query('ANALYZE');
}

// A first, unrecorded round on a small site lets the JIT settle, so the first column is not penalised.
recording = false;
await measure(memoryColumn(WARMUP_SIZE));
recording = true;
const chosen = await columns();
for (const column of chosen) await measure(column);

const labelWidth = Math.max(...[...rows.keys()].map((label) => label.length)) + 2;
const columnWidth = 30;
console.log(`${'posts via cms.handle'.padEnd(labelWidth)}${chosen.map((column) => column.heading.padEnd(columnWidth)).join('')}`);
for (const [label, values] of rows) {
  console.log(`${label.padEnd(labelWidth)}${values.map((value) => value.padEnd(columnWidth)).join('')}`);
}
