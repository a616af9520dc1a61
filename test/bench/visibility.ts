/**
 * Lists whose rows depend on who asks, through the whole pipeline (`cms.handle`), at 100,000 posts (8% drafts,
 * 2% private, 20 authors) and 5,000 media items attached to random posts (a tenth of them to hidden ones):
 * anonymous and subscriber media lists and searches, a contributor's list of published posts and own drafts, a
 * subscriber's post search, and the anonymous post list for comparison. Memory and SQLite stores.
 *
 *   node --import tsx test/bench/visibility.ts [posts] [media]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createCms, type Cms } from '../../src/cms.js';
import { fixedClock } from '../../src/ports/clock.js';
import type { NewRecord, StoragePort } from '../../src/ports/storage.js';
import { createMemoryStorage } from '../../src/storage/memory/index.js';
import { sqliteStorage } from '../../src/storage/sqlite/index.js';
import { send } from '../helpers/request.js';

const POSTS = Number(process.argv[2] ?? 100_000);
const MEDIA = Number(process.argv[3] ?? 5_000);
const RUNS = 200;
const SEARCH_RUNS = 20;
const AUTHORS = 20;
const RARE_WORD = 'quetzalcoatl';

function stamp(index: number, size: number): string {
  return new Date(Date.UTC(2016, 0, 1) + Math.floor((index / size) * 10 * 365 * 86_400_000)).toISOString().slice(0, 19);
}

function post(index: number): NewRecord {
  const date = stamp(index, POSTS);
  const status = index % 50 === 0 ? 'private' : index % 12 === 0 ? 'draft' : 'publish';
  return {
    type: 'post', status, date, date_gmt: date, modified: date, modified_gmt: date, author: 10 + (index % AUTHORS), parent: 0,
    slug: `post-number-${index}`, menu_order: 0, title: `Post number ${index}`,
    content: `Lorem ipsum dolor sit amet ${index}. ${index % 997 === 0 ? RARE_WORD : 'Sed do'} eiusmod tempor.`,
    excerpt: '', password: '', comment_status: 'open', ping_status: 'open', guid: `http://example.test/?p=${index + 1}`,
    template: '', featured_media: 0, meta: {}, sticky: false, format: 'standard', categories: [1], tags: [],
  };
}

function attachment(index: number, parent: number): NewRecord {
  const date = stamp(index, MEDIA);
  return {
    type: 'attachment', status: 'inherit', date, date_gmt: date, modified: date, modified_gmt: date, author: 1, parent,
    slug: `picture-${index}`, menu_order: 0, title: `Picture ${index}`, content: '',
    excerpt: index % 499 === 0 ? `A ${RARE_WORD} caption` : 'A caption', password: '', comment_status: 'open', ping_status: 'closed',
    guid: `http://example.test/uploads/picture-${index}.png`, template: '', featured_media: 0, meta: {},
    mime_type: 'image/png', file: `2026/01/picture-${index}.png`, media_details: {}, alt_text: '',
  };
}

async function site(storage: StoragePort): Promise<{ cms: Cms; users: Record<string, number> }> {
  const cms = createCms({ storage, clock: fixedClock('2026-06-01T00:00:00Z'), site: { url: 'http://example.test' } });
  const users: Record<string, number> = {};
  for (const role of ['administrator', 'subscriber', 'contributor']) {
    users[role] = (await cms.users.create({ login: role, email: `${role}@example.test`, roles: [role] })).id;
  }
  await storage.transaction(async (tx) => {
    const ids: number[] = [];
    for (let index = 0; index < POSTS; index++) {
      const record = post(index);
      // The contributor writes a few drafts of their own.
      if (index % 1000 === 12) record.author = users.contributor!;
      ids.push((await tx.insert('posts', record)).id);
    }
    for (let index = 0; index < MEDIA; index++) {
      const parent = index % 5 === 0 ? 0 : ids[(index * 7919) % ids.length]!;
      await tx.insert('posts', attachment(index, parent));
    }
  });
  return { cms, users };
}

async function time(runs: number, operation: () => Promise<{ status: number; headers: Record<string, unknown> }>) {
  const samples: number[] = [];
  let total = '';
  for (let run = 0; run < runs + 10; run++) {
    const start = performance.now();
    const response = await operation();
    const elapsed = performance.now() - start;
    if (response.status !== 200) throw new Error(`status ${response.status}`);
    total = String(response.headers['X-WP-Total']);
    if (run >= 10) samples.push(elapsed);
  }
  samples.sort((a, b) => a - b);
  const p50 = samples[Math.floor(samples.length / 2)]!;
  const p99 = samples[Math.min(samples.length - 1, Math.floor(samples.length * 0.99))]!;
  return `${p50.toFixed(2)} ms (p99 ${p99.toFixed(2)}), total ${total}`;
}

const rows = new Map<string, string[]>();
async function measure(storage: StoragePort): Promise<void> {
  const { cms, users } = await site(storage);
  const as = (role: string | null) => (path: string) => () => send(cms, 'GET', path, role === null ? {} : { user: { id: users[role]! } });
  const cases: [string, () => Promise<{ status: number; headers: Record<string, unknown> }>, number][] = [
    ['anonymous posts, page 1', as(null)('/cms/v2/posts'), RUNS],
    ['anonymous media, page 1', as(null)('/cms/v2/media'), RUNS],
    ['subscriber media, page 1', as('subscriber')('/cms/v2/media'), RUNS],
    ['administrator media, page 1', as('administrator')('/cms/v2/media'), RUNS],
    ['anonymous media search', as(null)(`/cms/v2/media?search=${RARE_WORD}`), SEARCH_RUNS],
    ['contributor posts, publish + draft', as('contributor')('/cms/v2/posts?status=publish,draft'), RUNS],
    ['contributor own drafts', as('contributor')('/cms/v2/posts?status=draft'), RUNS],
    ['subscriber post search', as('subscriber')(`/cms/v2/posts?search=${RARE_WORD}`), SEARCH_RUNS],
  ];
  for (const [label, operation, runs] of cases) {
    await operation();
    rows.set(label, [...(rows.get(label) ?? []), await time(runs, operation)]);
  }
}

const folder = mkdtempSync(join(tmpdir(), 'quire-bench-'));
try {
  await measure(createMemoryStorage());
  const sqlite = sqliteStorage({ path: join(folder, 'bench.db') });
  await measure(sqlite);
  await sqlite.close();
} finally {
  rmSync(folder, { recursive: true, force: true });
}
const width = Math.max(...[...rows.keys()].map((label) => label.length)) + 2;
console.log(`${`${POSTS.toLocaleString('en')} posts, ${MEDIA.toLocaleString('en')} media`.padEnd(width)}${'memory'.padEnd(44)}SQLite`);
for (const [label, values] of rows) console.log(`${label.padEnd(width)}${values.map((value) => value.padEnd(44)).join('')}`);
