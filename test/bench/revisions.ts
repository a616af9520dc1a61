/**
 * Revisions through the whole pipeline (`cms.handle`, memory store) at 10,000 and 100,000 stored posts, every
 * tenth of which already has three revisions: an update that creates a revision, an update that does not
 * (nothing it copies changed), the revision list of a post, and an autosave of a published post.
 *
 *   node --import tsx test/bench/revisions.ts
 */
import { performance } from 'node:perf_hooks';
import { createCms, type Cms } from '../../src/cms.js';
import { fixedClock } from '../../src/ports/clock.js';
import type { NewRecord } from '../../src/ports/storage.js';
import { send } from '../helpers/request.js';

const SIZES = [10_000, 100_000];
const RUNS = 400;
const REVISIONS_PER_REVISED_POST = 3;

function stamp(index: number, size: number): string {
  const start = Date.UTC(2016, 0, 1);
  return new Date(start + Math.floor((index / size) * 10 * 365 * 86_400_000)).toISOString().slice(0, 19);
}

function post(index: number, size: number): NewRecord {
  const date = stamp(index, size);
  return {
    type: 'post', status: 'publish', date, date_gmt: date, modified: date, modified_gmt: date,
    author: 1, parent: 0, slug: `post-number-${index}`, menu_order: 0, title: `Post number ${index}`,
    content: `Lorem ipsum dolor sit amet ${index}.\n\nUt enim ad minim veniam.`, excerpt: '', password: '',
    comment_status: 'open', ping_status: 'open', guid: '', template: '', featured_media: 0, meta: {},
    sticky: false, format: 'standard', categories: [1], tags: [],
  };
}

function revision(parent: NewRecord & { id: number }, version: number): NewRecord {
  return {
    type: 'revision', status: 'inherit', date: parent.date, date_gmt: parent.date_gmt, modified: parent.date,
    modified_gmt: parent.date_gmt, author: 1, parent: parent.id, slug: `${parent.id}-revision-v1`, menu_order: 0,
    title: `${String(parent.title)} v${version}`, content: parent.content, excerpt: '', password: '', comment_status: 'closed',
    ping_status: 'closed', guid: '', template: '', featured_media: 0, meta: {},
  };
}

/** A site with `size` posts; returns the ids of the posts. */
async function site(size: number): Promise<{ cms: Cms; admin: number; editor: number; postIds: number[] }> {
  const cms = createCms({ clock: fixedClock('2026-06-01T00:00:00Z'), site: { url: 'http://example.test' } });
  const admin = await cms.users.create({ login: 'admin', email: 'admin@example.test', roles: ['administrator'] });
  const editor = await cms.users.create({ login: 'editor', email: 'editor@example.test', roles: ['editor'] });
  const postIds: number[] = [];
  await cms.deps.storage.transaction(async (tx) => {
    for (let index = 0; index < size; index++) {
      const stored = await tx.insert('posts', post(index, size));
      postIds.push(stored.id);
      if (index % 10 !== 0) continue;
      for (let version = 1; version <= REVISIONS_PER_REVISED_POST; version++) {
        await tx.insert('posts', revision(stored as NewRecord & { id: number }, version));
      }
    }
  });
  return { cms, admin: admin.id, editor: editor.id, postIds };
}

async function time(runs: number, operation: (run: number) => Promise<{ status: number }>): Promise<{ p50: number; p99: number }> {
  const samples: number[] = [];
  for (let run = 0; run < runs + 5; run++) {
    const start = performance.now();
    const response = await operation(run);
    const elapsed = performance.now() - start;
    if (response.status >= 300) throw new Error(`status ${response.status}`);
    if (run >= 5) samples.push(elapsed);
  }
  samples.sort((a, b) => a - b);
  return { p50: samples[Math.floor(samples.length * 0.5)]!, p99: samples[Math.min(samples.length - 1, Math.floor(samples.length * 0.99))]! };
}

const format = (timing: { p50: number; p99: number }) => `${timing.p50.toFixed(3)} ms (p99 ${timing.p99.toFixed(3)})`;
const rows = new Map<string, string[]>();
const note = (label: string, value: string) => rows.set(label, [...(rows.get(label) ?? []), value]);

for (const size of SIZES) {
  const { cms, admin, editor, postIds } = await site(size);
  const user = { id: admin };
  const pick = (run: number, stride: number) => postIds[(run * stride) % postIds.length]!;
  const revisionsOf = async (id: number) => (await cms.deps.storage.list('posts', {
    where: [{ field: 'parent', op: 'eq', value: id }, { field: 'type', op: 'eq', value: 'revision' }], limit: 0, withTotal: true,
  })).total ?? 0;

  const sample = pick(1, 104_729);
  const before = await revisionsOf(sample);
  note('update creating a revision', format(await time(RUNS, (run) =>
    send(cms, 'POST', `/cms/v2/posts/${pick(run, 104_729)}`, { json: { title: `Renamed ${run}` }, user }))));
  if (await revisionsOf(sample) !== before + 1) throw new Error('the update did not create a revision');
  note('update without a new revision', format(await time(RUNS, (run) =>
    send(cms, 'POST', `/cms/v2/posts/${pick(run, 104_729)}`, { json: { comment_status: run % 2 === 0 ? 'closed' : 'open' }, user }))));
  note('revision list of a post', format(await time(RUNS, (run) => send(cms, 'GET', `/cms/v2/posts/${pick(run, 7919)}/revisions`, { user }))));
  note('autosave of a published post', format(await time(RUNS, (run) =>
    send(cms, 'POST', `/cms/v2/posts/${pick(run, 15_485_863)}/autosaves`, { json: { content: `Draft ${run}` }, user: { id: editor } }))));
}

const labelWidth = Math.max(...[...rows.keys()].map((label) => label.length)) + 2;
const columnWidth = 30;
console.log(`${'revisions via cms.handle'.padEnd(labelWidth)}${SIZES.map((size) => `${size.toLocaleString('en')} posts`.padEnd(columnWidth)).join('')}`);
for (const [label, values] of rows) {
  console.log(`${label.padEnd(labelWidth)}${values.map((value) => value.padEnd(columnWidth)).join('')}`);
}
