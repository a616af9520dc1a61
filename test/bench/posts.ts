/**
 * Posts through the whole pipeline (`cms.handle`) at 10,000 and 100,000 stored posts: the default list (page 1
 * and page 500), a filtered list (author + status), a slug lookup, a search for a rare word, a create, an
 * update, and the memory the records take per 1,000 posts.
 *
 *   node --expose-gc --import tsx test/bench/posts.ts
 */
import { performance } from 'node:perf_hooks';
import { createCms, type Cms } from '../../src/cms.js';
import { fixedClock } from '../../src/ports/clock.js';
import type { NewRecord } from '../../src/ports/storage.js';
import { send } from '../helpers/request.js';

const SIZES = [10_000, 100_000];
const WARMUP_SIZE = 2_000;
const RUNS = 400;
const SEARCH_RUNS = 20;
const AUTHORS = 20;
const RARE_WORD = 'quetzalcoatl';

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

async function site(size: number): Promise<{ cms: Cms; admin: number; bytesPerThousand: number }> {
  const cms = createCms({ clock: fixedClock('2026-06-01T00:00:00Z'), site: { url: 'http://example.test' } });
  const admin = await cms.users.create({ login: 'admin', email: 'admin@example.test', roles: ['administrator'] });
  for (let author = 0; author < AUTHORS; author++) {
    await cms.users.create({ login: `author${author}`, email: `author${author}@example.test`, roles: ['author'] });
  }
  collectGarbage?.();
  const before = process.memoryUsage().heapUsed;
  await cms.services.storage.transaction(async (tx) => {
    for (let index = 0; index < size; index++) await tx.insert('posts', record(index, size));
  });
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

// A first, unrecorded round on a small site lets the JIT settle, so the first column is not penalised.
for (const size of [WARMUP_SIZE, ...SIZES]) {
  recording = size !== WARMUP_SIZE;
  const { cms, admin, bytesPerThousand } = await site(size);
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
  note('memory per 1,000 posts', collectGarbage ? `${(bytesPerThousand / 1024).toFixed(0)} KiB` : 'run with --expose-gc');
}

const labelWidth = Math.max(...[...rows.keys()].map((label) => label.length)) + 2;
const columnWidth = 30;
console.log(`${'posts via cms.handle'.padEnd(labelWidth)}${SIZES.map((size) => `${size.toLocaleString('en')} posts`.padEnd(columnWidth)).join('')}`);
for (const [label, values] of rows) {
  console.log(`${label.padEnd(labelWidth)}${values.map((value) => value.padEnd(columnWidth)).join('')}`);
}
