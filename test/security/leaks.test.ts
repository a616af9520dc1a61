/**
 * Nothing hidden reaches a caller who may not read it: content in every hidden state and the media attached to
 * it, read as anonymous, subscriber and contributor through every read path (lists under every status filter,
 * search, include, slug, parent, _embed, _fields, single reads, revisions, autosaves, batch, rest_route,
 * _method), shows neither its text nor its count. Run on the memory and the SQLite store.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { StoragePort } from '../../src/ports/storage.js';
import { sqliteStorage } from '../../src/storage/sqlite/index.js';
import { makeHiddenSite, VIEWERS, type HiddenSite, type Viewer } from './hidden-site.js';
import { LeakProbe } from './probe.js';

const POST_STATUSES = ['', 'publish', 'draft', 'pending', 'private', 'future', 'trash', 'any', 'auto-draft', 'inherit', 'publish,draft,pending,private,future,trash,any'];
const MEDIA_STATUSES = ['', 'inherit', 'private', 'trash', 'inherit,private,trash'];
const SHAPES = ['', '&context=embed', '&context=edit', '&_embed', '&_fields=id,title,content,excerpt,caption,description,alt_text,media_details', '&orderby=relevance&search=a'];

/** Every status filter in every response shape; searches for hidden words under the widest filters. */
async function probeLists(probe: LeakProbe, site: HiddenSite): Promise<void> {
  for (const [base, statuses] of [['posts', POST_STATUSES], ['pages', POST_STATUSES], ['media', MEDIA_STATUSES]] as const) {
    for (const status of statuses) {
      const filter = status === '' ? '' : `&status=${status}`;
      for (const shape of SHAPES) await probe.list(`/cms/v2/${base}?per_page=100${filter}${shape}`);
    }
    for (const filter of ['', `&status=${statuses.at(-1)}`]) {
      for (const word of site.markers) {
        await probe.nothing(`/cms/v2/${base}?search=${word}${filter}`);
        await probe.nothing(`/cms/v2/${base}?search=${word}&orderby=relevance${filter}`);
        await probe.nothing(`/cms/v2/${base}?search=${word}&search_columns=post_content${filter}`);
      }
    }
    // Leaving out a hidden word must not change what is counted (beside leaving out a word found nowhere).
    const plain = await probe.list(`/cms/v2/${base}?per_page=100&search=-nowhere`);
    for (const word of site.markers) {
      const without = await probe.list(`/cms/v2/${base}?per_page=100&search=-${word}`);
      if (without.headers['X-WP-Total'] !== plain.headers['X-WP-Total']) {
        probe.fail('GET', `/cms/v2/${base}?search=-${word}`, `total ${without.headers['X-WP-Total']}, leaving out another word ${plain.headers['X-WP-Total']}`);
      }
    }
  }
  const hidden = site.items.filter((item) => item.state !== 'protected');
  for (const base of ['posts', 'pages'] as const) {
    const own = hidden.filter((item) => item.base === base);
    for (const status of POST_STATUSES) {
      const filter = status === '' ? '' : `&status=${status}`;
      await probe.nothing(`/cms/v2/${base}?include=${own.map((item) => item.id).join(',')}${filter}`);
      await probe.nothing(`/cms/v2/${base}?slug=${own.map((item) => item.slug).join(',')}${filter}`);
      await probe.nothing(`/cms/v2/${base}?author=${site.ids.hiddenAuthor}${filter}`);
    }
    await probe.list(`/cms/v2/${base}?per_page=100&author=${site.ids.author}`);
    await probe.list(`/cms/v2/${base}?per_page=100&tags=${site.tag}`);
  }
  await probe.nothing(`/cms/v2/posts?tags=${site.tag}`);
  await probe.list('/cms/v2/posts?per_page=100&ignore_sticky=false');
  await probe.nothing('/cms/v2/posts?sticky=true');
  for (const status of MEDIA_STATUSES) {
    const filter = status === '' ? '' : `&status=${status}`;
    await probe.nothing(`/cms/v2/media?parent=${hidden.map((item) => item.id).join(',')}${filter}`);
    await probe.nothing(`/cms/v2/media?include=${hidden.map((item) => item.media).join(',')}${filter}`);
  }
}

async function probeItems(probe: LeakProbe, site: HiddenSite): Promise<void> {
  for (const item of site.items) {
    const path = `/cms/v2/${item.base}/${item.id}`;
    for (const query of ['', '?context=edit', '?context=embed', '?_fields=content,excerpt,title', '?_embed', '?password=wrong']) {
      if (item.state === 'protected') await probe.send('GET', `${path}${query}`);
      else await probe.refused('GET', `${path}${query}`);
    }
    for (const sub of ['revisions', 'autosaves']) await probe.refused('GET', `${path}/${sub}`);
    if (item.mediaMarker !== null) {
      for (const query of ['', '?context=edit', '?_fields=caption,alt_text', '?_embed']) await probe.refused('GET', `/cms/v2/media/${item.media}${query}`);
    }
    // The same reads through the routing fallbacks.
    await probe.send('GET', `/?rest_route=${encodeURIComponent(path)}`);
    await probe.send('GET', `/?rest_route=${encodeURIComponent(`/cms/v2/media/${item.media}`)}`);
    await probe.send('POST', `${path}?_method=GET`);
    await probe.send('POST', `${path}`, { headers: { 'X-HTTP-Method-Override': 'GET' } });
    await probe.list(`/?rest_route=${encodeURIComponent(`/cms/v2/${item.base}`)}&per_page=100&status=any`);
    await probe.list(`/cms/v2/${item.base}?_method=GET&per_page=100`, { method: 'POST' });
  }
  const history = `/cms/v2/posts/${site.history}`;
  for (const path of [
    `${history}/revisions`, ...site.historyRevisions.map((id) => `${history}/revisions/${id}`),
    `${history}/autosaves`, ...site.historyAutosaves.map((id) => `${history}/autosaves/${id}`),
  ]) {
    await probe.refused('GET', path);
    await probe.refused('GET', `${path}?context=edit`);
  }
  for (const path of [`/cms/v2/posts/${site.showcase}?_embed`, `/cms/v2/posts/${site.showcase}?_embed=wp:featuredmedia`, `/cms/v2/pages/${site.child}?_embed=up`, `${history}?_embed`]) {
    const answer = await probe.send('GET', path);
    assert.equal(answer.status, 200, path);
  }
  const featured = await probe.send('GET', `/cms/v2/posts/${site.showcase}?_embed=wp:featuredmedia`);
  assert.equal(featured.json._embedded['wp:featuredmedia'][0].code, 'rest_forbidden');
}

async function probeWritesAndBatch(probe: LeakProbe, site: HiddenSite): Promise<void> {
  const requests = site.items.flatMap((item) => [
    { method: 'POST', path: `/cms/v2/${item.base}/${item.id}`, body: { title: 'changed' } },
    { method: 'DELETE', path: `/cms/v2/${item.base}/${item.id}?force=true` },
    { method: 'POST', path: `/cms/v2/media/${item.media}`, body: { caption: 'changed' } },
  ]);
  for (let start = 0; start < requests.length; start += 25) {
    await probe.send('POST', '/batch/v1', { json: { requests: requests.slice(start, start + 25) } });
  }
  for (const item of site.items) {
    await probe.refused('POST', `/cms/v2/${item.base}/${item.id}`, { json: { title: 'changed' } });
    await probe.refused('POST', `/cms/v2/${item.base}/${item.id}/autosaves`, { json: { content: 'changed' } });
  }
}

async function probeUsersAndTerms(probe: LeakProbe, site: HiddenSite): Promise<void> {
  await probe.list('/cms/v2/users?per_page=100');
  await probe.nothing(`/cms/v2/users?search=${site.hiddenAuthorMarker}`);
  await probe.nothing(`/cms/v2/users?include=${site.ids.hiddenAuthor}`);
  for (const part of [site.commenterMarker, site.commenterMarker.slice(0, 3), '198.51.100', '100.23']) {
    await probe.nothing(`/cms/v2/comments?search=${part}`);
  }
  await probe.refused('GET', `/cms/v2/users/${site.ids.hiddenAuthor}`);
  const tags = await probe.list('/cms/v2/tags?per_page=100&hide_empty=false');
  const tag = tags.json.find((term: { id: number }) => term.id === site.tag);
  if (tag?.count !== 0) probe.fail('GET', '/cms/v2/tags', `the tag of hidden posts counts ${tag?.count}`);
  await probe.nothing('/cms/v2/tags?hide_empty=true');
}

/** What each viewer must still see, so the probes above cannot pass by refusing everything. */
async function checkControls(probe: LeakProbe, site: HiddenSite, viewer: Viewer): Promise<void> {
  const posts = await probe.list('/cms/v2/posts?per_page=100');
  const listed = (posts.json as { id: number }[]).map((post) => post.id);
  const protectedPost = site.items.find((item) => item.state === 'protected' && item.base === 'posts')!;
  assert.ok(listed.includes(site.showcase) && listed.includes(site.history) && listed.includes(protectedPost.id), `${viewer} sees published posts`);
  const media = await probe.list('/cms/v2/media?per_page=100');
  const mediaIds = (media.json as { id: number }[]).map((item) => item.id).sort((a, b) => a - b);
  assert.deepEqual(mediaIds, [protectedPost.media, site.items.find((item) => item.state === 'protected' && item.base === 'pages')!.media, site.publicMedia].sort((a, b) => a - b));
  assert.equal((await probe.send('GET', `/cms/v2/media/${protectedPost.media}`)).status, 200);
  const comments = await probe.list('/cms/v2/comments?search=public');
  assert.equal((comments.json as unknown[]).length, 1, `${viewer} finds the public comment by its words`);
  const title = await probe.list('/cms/v2/posts?search=Protected');
  assert.deepEqual((title.json as { id: number }[]).map((post) => post.id), viewer === 'anonymous' ? [] : [protectedPost.id]);
  if (viewer === 'contributor') {
    const drafts = await probe.list('/cms/v2/posts?status=draft&per_page=100');
    assert.deepEqual((drafts.json as { id: number }[]).map((post) => post.id), [site.contributorDraft]);
  }
}

for (const [storeName, makeStore] of [
  ['memory', () => undefined],
  ['sqlite', () => sqliteStorage({ path: ':memory:' })],
] as [string, () => StoragePort | undefined][]) {
  describe(`hidden content stays hidden (${storeName})`, () => {
    let storage: StoragePort | undefined;
    let site: HiddenSite;
    before(async () => {
      storage = makeStore();
      site = await makeHiddenSite(storage ? { storage } : {});
    });
    after(async () => {
      await storage?.close?.();
    });

    for (const viewer of VIEWERS) {
      it(`shows ${viewer} no hidden text and no hidden count`, async (context) => {
        const probe = new LeakProbe(site, viewer);
        await checkControls(probe, site, viewer);
        await probeLists(probe, site);
        await probeItems(probe, site);
        await probeUsersAndTerms(probe, site);
        await probeWritesAndBatch(probe, site);
        assert.ok(probe.requests > 1000);
        context.diagnostic(`${probe.requests} probes`);
        assert.deepEqual(probe.failures, []);
      });
    }
  });
}
