/**
 * View fragments: two sites on one store, one answering post and page reads from kept fragments and one
 * preparing every record, get the same requests — lists and single reads in every context, as callers of
 * different roles, with `_fields`, `_embed`, `_envelope`, `_jsonp`, `_pretty`, passwords, private, draft and
 * scheduled posts, under two site addresses and both name schemes — between writes of every kind. Every answer is
 * the same byte for byte, and the fragment site does read less from the store (the fragments are used).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createCms, type Cms, type CmsOptions } from '../../../src/cms.js';
import { FragmentCache, listKey } from '../../../src/core/cache/fragments.js';
import { Generation } from '../../../src/core/cache/generation.js';
import { EncodedJson, encodeResponse } from '../../../src/core/encode.js';
import type { CmsRequest } from '../../../src/core/types.js';
import { fixedClock } from '../../../src/ports/clock.js';
import type { StoragePort } from '../../../src/ports/storage.js';
import { createMemoryStorage } from '../../../src/storage/memory/index.js';

const GIF = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');
type Who = 'admin' | 'editor' | 'author' | null;

/** A store that counts the reads made through it. */
function counted(storage: StoragePort): StoragePort & { reads: number } {
  const wrapper = Object.create(storage) as StoragePort & { reads: number };
  wrapper.reads = 0;
  wrapper.get = (collection, id) => (wrapper.reads += 1, storage.get(collection, id));
  wrapper.list = (collection, query) => (wrapper.reads += 1, storage.list(collection, query));
  return wrapper;
}

async function pair(options: Partial<CmsOptions> = {}) {
  const storage = counted(createMemoryStorage());
  const clock = fixedClock('2024-05-01T12:00:00Z');
  const base = { storage, clock, responseCache: false as const, ...options };
  const fast = createCms(base);
  const slow = createCms({ ...base, viewFragments: false });
  const api = options.names === 'wordpress' ? '/wp/v2' : '/cms/v2';
  const auth: Record<string, Record<string, string>> = {};
  for (const [login, role] of [['admin', 'administrator'], ['editor', 'editor'], ['author', 'author']] as const) {
    const user = await fast.users.create({ login, email: `${login}@site.test`, roles: [role] });
    await fast.users.createApplicationPassword(user.id, { name: 'tests', password: `${login}password12345` });
    auth[login] = { authorization: `Basic ${Buffer.from(`${login}:${login}password12345`).toString('base64')}` };
  }
  const headersOf = (who: Who) => (who === null ? {} : auth[who]!);
  /** A write through the fast site; `both`: through the slow one too (each site reads stored settings anew only then). */
  const write = async (method: string, target: string, json: unknown, who: Who = 'admin', both = false) => {
    const [path, query = ''] = target.split('?') as [string, string?];
    if (both) await slow.handle({ method, path: `${api}${path}`, query, headers: { ...headersOf(who), 'content-type': 'application/json' }, body: JSON.stringify(json) });
    const answer = await fast.handle({ method, path: `${api}${path}`, query, headers: { ...headersOf(who), 'content-type': 'application/json' }, body: JSON.stringify(json) });
    assert.ok(answer.status < 300, `${method} ${target}: ${answer.status} ${JSON.stringify(answer.body)}`);
    return answer.body as { id: number };
  };
  let fastReads = 0;
  let slowReads = 0;
  /** The read on the slow site, then twice on the fast one (the second from fragments); all three agree. */
  const read = async (target: string, who: Who = null, baseUrl?: string) => {
    const [path, query = ''] = target.split('?') as [string, string?];
    const request = (): CmsRequest => ({ method: 'GET', path: `${api}${path}`, query, headers: { ...headersOf(who) }, ...(baseUrl ? { baseUrl } : {}) });
    const wire = async (cms: Cms) => {
      const encoded = encodeResponse(await cms.handle(request()));
      return `${encoded.status} ${JSON.stringify(encoded.headers)}\n${Buffer.from(encoded.body ?? new Uint8Array(0)).toString('latin1')}`;
    };
    await wire(fast);
    const before = storage.reads;
    const expected = await wire(slow);
    slowReads += storage.reads - before;
    const middle = storage.reads;
    const actual = await wire(fast);
    fastReads += storage.reads - middle;
    assert.equal(actual, expected, `${who ?? 'anonymous'} GET ${target}`);
    const body = actual.slice(actual.indexOf('\n') + 1);
    return body.startsWith('[') || body.startsWith('{') ? JSON.parse(body) : body;
  };
  return { fast, clock, write, read, reads: () => ({ fastReads, slowReads }) };
}

type Site = Awaited<ReturnType<typeof pair>>;

/** Media, terms, a public, a protected, a private, a draft and a sticky post, a parent and a child page. */
async function seed(site: Site) {
  const media = await site.fast.handle({
    method: 'POST', path: '/cms/v2/media', body: GIF,
    headers: { authorization: `Basic ${Buffer.from('admin:adminpassword12345').toString('base64')}`, 'content-type': 'image/gif', 'content-disposition': 'attachment; filename="pixel.gif"' },
  });
  const featured = (media.body as { id: number }).id;
  const news = (await site.write('POST', '/categories', { name: 'News' })).id;
  const alpha = (await site.write('POST', '/tags', { name: 'alpha' })).id;
  const beta = (await site.write('POST', '/tags', { name: 'beta' })).id;
  const content = '<!-- wp:paragraph --><p>Hello "world" -- see <a href="https://example.com">this</a>.</p><!-- /wp:paragraph -->';
  const ids = {
    featured, news, alpha, beta,
    open: (await site.write('POST', '/posts', { title: 'Open', content, status: 'publish', categories: [news], tags: [beta, alpha], featured_media: featured })).id,
    locked: (await site.write('POST', '/posts', { title: 'Locked', content, status: 'publish', password: 'secret' })).id,
    hidden: (await site.write('POST', '/posts', { title: 'Hidden', content, status: 'private' })).id,
    draft: (await site.write('POST', '/posts', { title: 'Draft', content, status: 'draft' }, 'author')).id,
    pinned: (await site.write('POST', '/posts', { title: 'Pinned', content, status: 'publish', sticky: true }, 'editor')).id,
    later: (await site.write('POST', '/posts', { title: 'Later', content, status: 'future', date_gmt: '2024-05-01T12:30:00' })).id,
    parent: (await site.write('POST', '/pages', { title: 'Parent', status: 'publish' })).id,
    child: 0,
  };
  ids.child = (await site.write('POST', '/pages', { title: 'Child', status: 'publish', parent: ids.parent })).id;
  return ids;
}

type Ids = Awaited<ReturnType<typeof seed>>;

/** Every shape of post and page read, as every kind of caller. */
async function readAll(site: Site, ids: Ids): Promise<void> {
  for (const who of [null, 'author', 'editor', 'admin'] as const) {
    await site.read('/posts', who);
    await site.read('/posts?context=embed', who);
    await site.read('/posts?context=edit', who);
    await site.read('/posts?status=private,draft,publish,future&context=edit', who);
    for (const id of [ids.open, ids.locked, ids.hidden, ids.draft, ids.later]) {
      await site.read(`/posts/${id}`, who);
      await site.read(`/posts/${id}?context=edit`, who);
    }
    await site.read('/pages', who);
    await site.read(`/pages/${ids.child}?context=edit`, who);
  }
  await site.read(`/posts/${ids.locked}?password=secret`);
  await site.read(`/posts/${ids.locked}?password=wrong`);
  await site.read(`/posts/${ids.open}?excerpt_length=3`);
  for (const output of ['_fields=id,title,_links', '_fields=content.rendered', '_embed', '_embed=author', '_envelope', '_jsonp=cb', '_pretty', 'per_page=2&page=2', 'search=open', `include=${ids.open},${ids.pinned}&orderby=include`]) {
    await site.read(`/posts?${output}`);
    await site.read(`/posts/${ids.open}?${output}`, 'editor');
  }
}

describe('view fragments', () => {
  it('answer byte for byte as records prepared afresh, across reads and writes of every kind', async () => {
    const site = await pair({ site: { url: 'http://site.test' } });
    const ids = await seed(site);
    await readAll(site, ids);

    await site.write('POST', `/posts/${ids.open}`, { title: 'Open, renamed', excerpt: 'Short.' });
    assert.equal((await site.read(`/posts/${ids.open}`)).title.rendered, 'Open, renamed');
    await site.write('POST', `/posts/${ids.open}`, { meta: { footnotes: '[{"id":"1","content":"Note"}]' } });
    assert.equal((await site.read(`/posts/${ids.open}?context=edit`, 'admin')).meta.footnotes, '[{"id":"1","content":"Note"}]');
    // Renaming a tag changes the order a post lists its tags in (by name), though the post itself is unchanged.
    assert.deepEqual((await site.read(`/posts/${ids.open}`)).tags, [ids.alpha, ids.beta]);
    await site.write('POST', `/tags/${ids.alpha}`, { name: 'zeta' });
    assert.deepEqual((await site.read(`/posts/${ids.open}`)).tags, [ids.beta, ids.alpha]);
    // A new parent slug moves the child page's address.
    await site.write('POST', `/pages/${ids.parent}`, { slug: 'moved' });
    assert.match((await site.read(`/pages/${ids.child}`)).link, /moved/);
    await readAll(site, ids);

    // The scheduled post's date passes: it reads as published, then is published.
    assert.equal((await site.read('/posts')).some((post: { id: number }) => post.id === ids.later), false);
    site.clock.advance(45 * 60 * 1000);
    assert.equal((await site.read(`/posts/${ids.later}`)).status, 'publish');
    await readAll(site, ids);

    // A deleted featured image, a role change, a password removed, a settings change, a trashed post.
    await site.write('DELETE', `/media/${ids.featured}?force=true`, {});
    await site.fast.users.update(2, { roles: ['author'] });
    await site.write('POST', `/posts/${ids.locked}`, { password: '' });
    assert.notEqual((await site.read(`/posts/${ids.locked}`)).content.rendered, '');
    await site.write('POST', '/settings', { title: 'Renamed', timezone: 'Europe/Paris' }, 'admin', true);
    await site.write('DELETE', `/posts/${ids.pinned}`, {});
    await readAll(site, ids);

    const { fastReads, slowReads } = site.reads();
    assert.ok(fastReads < slowReads * 0.75, `fragments spare store reads (${fastReads} against ${slowReads})`);
  });

  it('follow the address each request reached the site by, and the WordPress names', async () => {
    const site = await pair({ names: 'wordpress' });
    const ids = await seed(site);
    for (const host of ['http://one.test/wp-json', 'https://two.test:8443/wp-json', 'http://one.test/wp-json']) {
      const list = await site.read('/posts', null, host);
      assert.ok(list[0]._links.self[0].href.startsWith(`${host}/wp/v2/posts/`));
      await site.read(`/posts/${ids.open}`, 'editor', host);
      await site.read('/posts?context=edit', 'admin', host);
    }
  });
  it('hand in-process callers their own copy of the body', async () => {
    const site = await pair({ site: { url: 'http://site.test' } });
    const ids = await seed(site);
    const read = () => site.fast.handle({ method: 'GET', path: '/cms/v2/posts', query: '' });
    await read();
    const first = await read();
    const body = first.body as { id: number; title: { rendered: string } }[];
    assert.ok(body.some((post) => post.id === ids.open));
    for (const post of body) post.title.rendered = 'changed by the caller';
    const again = (await read()).body as { title: { rendered: string } }[];
    assert.ok(again.every((post) => post.title.rendered !== 'changed by the caller'));
    assert.equal(Buffer.from(encodeResponse(await read()).body!).toString(), JSON.stringify(again));
  });
});

describe('FragmentCache', () => {
  it('keys a joined list by the very fragments it joins', () => {
    const [a, b] = [new EncodedJson(new Uint8Array([0x31])), new EncodedJson(new Uint8Array([0x32]))];
    const again = new EncodedJson(new Uint8Array([0x31]));
    assert.notEqual(listKey([a, b]), listKey([b, a]));
    assert.notEqual(listKey([a, b]), listKey([again, b]));
    assert.notEqual(listKey([]), listKey([a]));
    assert.ok(listKey([a]).startsWith('['));
  });

  const generation = (serial: number) => new Generation(`token ${serial}`, {}, 1, Infinity, serial);

  it('serves a fragment within its generation only, and drops older ones when a newer comes', () => {
    const cache = new FragmentCache();
    const [first, second] = [generation(1), generation(2)];
    const fragment = new EncodedJson(new Uint8Array([0x31]));
    cache.set(first, 'k', fragment);
    assert.equal(cache.get(first, 'k'), fragment);
    assert.equal(cache.get(second, 'k'), undefined);
    assert.equal(cache.size, 0);
    // A request still holding the older generation neither reads nor keeps anything.
    cache.set(first, 'k', fragment);
    assert.equal(cache.get(first, 'k'), undefined);
    assert.equal(cache.size, 0);
  });

  it('keeps within its bounds', () => {
    const cache = new FragmentCache({ maxEntries: 2, maxBytes: 1_000_000 });
    const current = generation(1);
    for (const key of ['a', 'b', 'c']) cache.set(current, key, new EncodedJson(new Uint8Array(10)));
    assert.equal(cache.size, 2);
    assert.equal(cache.get(current, 'a'), undefined);
    const small = new FragmentCache({ maxBytes: 500 });
    small.set(current, 'big', new EncodedJson(new Uint8Array(1_000)));
    assert.equal(small.size, 0);
  });
});
