/**
 * WXR figures: how fast a file is read (parse only, from a generated stream, with the heap it needs), imported
 * (memory and SQLite stores) and exported. Prints figures; asserts nothing.
 *
 *   node --import tsx test/bench/wxr.ts [posts=2000] [streamMegabytes=200]
 */
import { createCms } from '../../src/cms.js';
import { fixedClock } from '../../src/ports/clock.js';
import { sqliteStorage } from '../../src/storage/sqlite/index.js';
import { readWxr } from '../../src/wxr/reader.js';
import { item, wxr } from '../wxr/fixture.js';

const posts = Number(process.argv[2] ?? 2000);
const streamMegabytes = Number(process.argv[3] ?? 200);
const paragraph = `<!-- wp:paragraph --><p>${'Lorem ipsum dolor sit amet, consectetur adipiscing elit. '.repeat(30)}</p><!-- /wp:paragraph -->\n`;

function post(id: number): string {
  const comment = (commentId: number, parent: number) => `\t\t<wp:comment><wp:comment_id>${commentId}</wp:comment_id><wp:comment_author><![CDATA[Reader ${commentId}]]></wp:comment_author>`
    + `<wp:comment_date><![CDATA[2024-02-01 10:00:00]]></wp:comment_date><wp:comment_date_gmt><![CDATA[2024-02-01 10:00:00]]></wp:comment_date_gmt>`
    + `<wp:comment_content><![CDATA[Nice post number ${id}.]]></wp:comment_content><wp:comment_approved>1</wp:comment_approved><wp:comment_parent>${parent}</wp:comment_parent></wp:comment>\n`;
  return item({
    id, type: 'post', title: `Post ${id}`, slug: `post-${id}`, status: 'publish', date: `2024-01-${String(1 + (id % 28)).padStart(2, '0')} 12:00:00`,
    content: paragraph.repeat(3),
    extra: `\t\t<category domain="category" nicename="news"><![CDATA[News]]></category>\n\t\t<category domain="post_tag" nicename="tag-${id % 50}"><![CDATA[Tag ${id % 50}]]></category>\n`
      + comment(id * 10, 0) + comment(id * 10 + 1, id * 10),
  });
}

const file = wxr(Array.from({ length: posts }, (_, index) => post(index + 1)).join(''));
const megabytes = Buffer.byteLength(file) / 1024 / 1024;

async function* generated(totalMegabytes: number): AsyncGenerator<string> {
  const total = totalMegabytes * 1024 * 1024;
  yield file.slice(0, file.indexOf('\t<item>'));
  let written = 0;
  for (let id = 1; written < total; id++) {
    const piece = post(id);
    written += piece.length;
    yield piece;
  }
  yield '</channel>\n</rss>\n';
}

async function timed<T>(label: string, work: () => Promise<T>, amount: string): Promise<T> {
  const started = performance.now();
  const result = await work();
  const seconds = (performance.now() - started) / 1000;
  console.log(`${label.padEnd(34)} ${seconds.toFixed(2).padStart(7)} s   ${amount.replace('{s}', String(seconds))}`);
  return result;
}

const rate = (count: number, seconds: number) => Math.round(count / seconds);

console.log(`WXR bench: ${posts} posts with 2 comments each, ${megabytes.toFixed(1)} MB; stream of ${streamMegabytes} MB\n`);

let peakHeap = 0;
let streamed = 0;
const heapBefore = process.memoryUsage().heapUsed;
await timed('read only (generated stream)', async () => {
  for await (const record of readWxr(generated(streamMegabytes), { maxItems: 10_000_000 })) {
    if (record.kind === 'item') streamed++;
    if (streamed % 500 === 0) peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
  }
}, '');
console.log(`  ${streamed} items, peak heap ${((peakHeap - heapBefore) / 1024 / 1024).toFixed(0)} MB above the start for ${streamMegabytes} MB of input`);

for (const store of ['memory', 'sqlite'] as const) {
  const cms = createCms({ clock: fixedClock('2026-01-01T00:00:00Z'), ...(store === 'sqlite' ? { storage: sqliteStorage({ path: ':memory:' }) } : {}) });
  const started = performance.now();
  const summary = await cms.importWxr(file);
  const seconds = (performance.now() - started) / 1000;
  console.log(`${`import (${store})`.padEnd(34)} ${seconds.toFixed(2).padStart(7)} s   ${rate(posts, seconds)} posts/s, ${rate(summary.created.comments, seconds)} comments/s, ${(megabytes / seconds).toFixed(1)} MB/s`);
  let size = 0;
  const exportStarted = performance.now();
  for await (const piece of cms.exportWxr()) size += piece.length;
  const exportSeconds = (performance.now() - exportStarted) / 1000;
  console.log(`${`export (${store})`.padEnd(34)} ${exportSeconds.toFixed(2).padStart(7)} s   ${rate(posts, exportSeconds)} posts/s, ${(size / 1024 / 1024).toFixed(1)} MB`);
}
