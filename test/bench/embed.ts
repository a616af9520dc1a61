/**
 * oEmbed through the whole pipeline (`cms.handle`): the embed route in JSON and XML (a pretty permalink among
 * 10,000 posts, and `?p=`), the proxy answering from its cache (memory and store-backed), and discovery of a
 * link in a 150 KB page head by the tokenizer.
 *
 *   node --import tsx test/bench/embed.ts
 */
import { performance } from 'node:perf_hooks';
import { createCms } from '../../src/cms.js';
import { findEndpointLink } from '../../src/embed/discovery.js';
import { fixedClock } from '../../src/ports/clock.js';
import type { HttpClient } from '../../src/ports/http-client.js';
import { createMemoryStorage } from '../../src/storage/memory/index.js';
import { send } from '../helpers/request.js';

const POSTS = 10_000;
const RUNS = 2_000;

async function timed(label: string, runs: number, work: () => Promise<unknown> | unknown): Promise<void> {
  for (let index = 0; index < Math.min(50, runs); index++) await work();
  const started = performance.now();
  for (let index = 0; index < runs; index++) await work();
  const perCall = (performance.now() - started) / runs;
  console.log(`${label.padEnd(58)} ${(perCall * 1000).toFixed(0).padStart(7)} µs/request  ${(1000 / perCall).toFixed(0).padStart(7)} /s`);
}

/** A provider that answers at once, counting calls; the bench measures the service, not a network. */
function instantProvider(): HttpClient & { calls: number } {
  const body = new TextEncoder().encode(JSON.stringify({ type: 'video', title: 'Clip', html: '<iframe src="https://v.example/1"></iframe>' }));
  const client = {
    calls: 0,
    async fetch(request: { url: string }) {
      client.calls++;
      return { status: 200, headers: { 'content-type': 'application/json' }, body, url: request.url };
    },
  };
  return client;
}

async function main(): Promise<void> {
  const storage = createMemoryStorage();
  const http = instantProvider();
  const options = { clock: fixedClock('2026-11-21T17:11:35Z'), storage, httpClient: http, site: { url: 'http://example.test' } };
  const cms = createCms(options);
  const admin = await cms.users.create({ login: 'admin', email: 'admin@example.test', roles: ['administrator'] });
  for (let index = 0; index < POSTS; index++) {
    await storage.insert('posts', {
      type: 'post', status: 'publish', date: '2026-01-02T03:04:05', date_gmt: '2026-01-02T03:04:05', modified: '2026-01-02T03:04:05',
      modified_gmt: '2026-01-02T03:04:05', author: admin.id, parent: 0, slug: `post-${index}`, menu_order: 0, title: `Post ${index}`,
      content: '', excerpt: '', password: '', comment_status: 'open', ping_status: 'open', guid: '', template: '', featured_media: 0,
      meta: {}, categories: [], tags: [],
    });
  }
  const pretty = encodeURIComponent('http://example.test/2026/01/02/post-7777/');
  const embed = (query: string) => cms.handle({ method: 'GET', path: '/oembed/1.0/embed', query });
  console.log(`${POSTS} posts, ${RUNS} requests each`);
  await timed('warm-up (not a figure)', RUNS, () => embed(`url=${pretty}`));
  await timed('embed, pretty permalink, JSON', RUNS, () => embed(`url=${pretty}`));
  await timed('embed, pretty permalink, XML', RUNS, () => embed(`url=${pretty}&format=xml`));
  await timed('embed, ?p=ID, JSON', RUNS, () => embed(`url=${encodeURIComponent('http://example.test/?p=5000')}`));
  await timed('embed, unknown URL (404)', RUNS, () => embed(`url=${encodeURIComponent('http://example.test/2026/01/02/none/')}`));

  for (const store of ['memory', 'storage'] as const) {
    const cached = createCms({ ...options, oembed: { cache: { store } } });
    const proxy = () => send(cached, 'GET', '/oembed/1.0/proxy?url=https%3A%2F%2Fwww.youtube.com%2Fwatch%3Fv%3Dx', { user: { id: admin.id } });
    const before = http.calls;
    await timed(`proxy, trusted provider, cache hit (${store})`, RUNS, proxy);
    console.log(`  provider calls during the run: ${http.calls - before}`);
  }

  const page = `<html><head>${'<meta name="filler" content="x">'.repeat(4_500)}`
    + '<link rel="alternate" type="application/json+oembed" href="/o"></head><body></body></html>';
  console.log(`discovery page: ${(page.length / 1024).toFixed(0)} KB`);
  await timed('discovery: tokenize the head, find the link', 200, () => findEndpointLink(page, 'https://a.example/p'));
}

await main();
