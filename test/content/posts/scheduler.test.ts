import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { StoragePort } from '../../../src/ports/storage.js';
import { createMemoryStorage } from '../../../src/storage/memory/index.js';
import { ids, makeSite } from './helpers.js';

/** A memory store that records every write, transactions' included. */
function recordingStorage(): { storage: StoragePort; writes: string[] } {
  const writes: string[] = [];
  const wrap = (port: StoragePort): StoragePort => ({
    get: (collection, id) => port.get(collection, id),
    list: (collection, query) => port.list(collection, query),
    insert: (collection, record) => {
      writes.push(`insert ${collection}`);
      return port.insert(collection, record);
    },
    update: (collection, id, patch) => {
      writes.push(`update ${collection} ${id} ${JSON.stringify(patch)}`);
      return port.update(collection, id, patch);
    },
    remove: (collection, id) => {
      writes.push(`remove ${collection} ${id}`);
      return port.remove(collection, id);
    },
    transaction: (work) => port.transaction((tx) => work(wrap(tx))),
  });
  return { storage: wrap(createMemoryStorage()), writes };
}

describe('posts: scheduled publishing', () => {
  it('publishes a scheduled post once the clock passes its date, on the next request', async () => {
    const site = await makeSite();
    const post = await site.create({ title: 'Tomorrow', status: 'publish', date: '2026-11-22T09:00:00' });
    assert.equal(post.status, 'future');
    assert.equal((await site.anonymous('GET', `/cms/v2/posts/${post.id}`)).status, 401);
    assert.deepEqual(ids((await site.anonymous('GET', '/cms/v2/posts')).json), []);

    site.clock.set('2026-11-22T08:59:59Z');
    assert.equal((await site.anonymous('GET', `/cms/v2/posts/${post.id}`)).status, 401);

    site.clock.set('2026-11-22T09:00:00Z');
    const read = await site.anonymous('GET', `/cms/v2/posts/${post.id}`);
    assert.equal(read.status, 200);
    assert.equal(read.json.status, 'publish');
    assert.equal(read.json.date, '2026-11-22T09:00:00');
    assert.equal(read.json.link, 'http://example.test/2026/11/22/tomorrow/');
    assert.deepEqual(ids((await site.anonymous('GET', '/cms/v2/posts')).json), [post.id]);
  });

  it('publishes due pages and posts on lists and writes too, and tells listeners', async () => {
    const site = await makeSite({ site: { timezone: 'America/New_York' } });
    const heard: string[] = [];
    site.cms.deps.postEvents.onPostSaved((event) => {
      heard.push(`${event.reason}:${event.post.id}:${event.previous?.status ?? 'new'}->${event.post.status}`);
    });
    const page = await site.create({ title: 'Page later', status: 'future', date: '2026-11-21T13:00:00' }, { base: 'pages' });
    const post = await site.create({ title: 'Post later', status: 'future', date: '2026-11-21T14:00:00' });
    // 12:11:35 in New York now; the page is due at 18:00 UTC, the post at 19:00 UTC.
    site.clock.set('2026-11-21T18:30:00Z');
    const created = await site.create({ title: 'Unrelated' });
    assert.equal((await site.admin('GET', `/cms/v2/pages/${page.id}`)).json.status, 'publish');
    assert.equal((await site.admin('GET', `/cms/v2/posts/${post.id}`)).json.status, 'future');
    assert.ok(heard.includes(`scheduled-publish:${page.id}:future->publish`));
    assert.ok(heard.indexOf(`scheduled-publish:${page.id}:future->publish`) < heard.indexOf(`create:${created.id}:new->draft`));

    site.clock.advance(3_600_000);
    const list = await site.anonymous('GET', '/cms/v2/posts');
    assert.deepEqual(ids(list.json), [post.id]);
  });

  it('keeps a rescheduled post waiting for its new date', async () => {
    const site = await makeSite();
    const post = await site.create({ title: 'Moving', status: 'future', date: '2026-11-22T00:00:00' });
    await site.admin('POST', `/cms/v2/posts/${post.id}`, { json: { date: '2026-11-23T00:00:00' } });
    site.clock.set('2026-11-22T12:00:00Z');
    assert.equal((await site.admin('GET', `/cms/v2/posts/${post.id}`)).json.status, 'future');
    site.clock.set('2026-11-23T00:00:01Z');
    assert.equal((await site.admin('GET', `/cms/v2/posts/${post.id}`)).json.status, 'publish');
  });

  it('reads a due post as published in permission checks, which never write', async () => {
    const { storage, writes } = recordingStorage();
    const site = await makeSite({ storage });
    const post = await site.create({ title: 'Due soon', status: 'publish', date: '2026-11-22T09:00:00' });
    site.clock.set('2026-11-22T09:00:01Z');
    writes.length = 0;

    // Refused by their permission checks: no handler runs, so nothing is written.
    assert.equal((await site.anonymous('POST', `/cms/v2/posts/${post.id}`, { json: { title: 'Mine' } })).status, 401);
    assert.equal((await site.as('subscriber')('DELETE', `/cms/v2/posts/${post.id}`)).status, 403);
    assert.equal((await site.anonymous('GET', `/cms/v2/posts/${post.id}?context=edit`)).status, 401);
    assert.equal((await site.anonymous('GET', `/cms/v2/posts/${post.id}/revisions`)).status, 401);
    assert.deepEqual(writes, []);
    assert.equal((await storage.get('posts', post.id))?.status, 'future');

    // The next read answers it as published and stores the new status.
    const read = await site.anonymous('GET', `/cms/v2/posts/${post.id}`);
    assert.equal(read.status, 200);
    assert.equal(read.json.status, 'publish');
    // The post's new status, then its category's count (a `saved` listener).
    assert.deepEqual(writes, [`update posts ${post.id} {"status":"publish"}`, 'update terms 1 {"count":1}']);
    assert.equal((await storage.get('posts', post.id))?.status, 'publish');
  });

  it('publishes due posts before a list answers, counting them in the totals', async () => {
    const site = await makeSite();
    const first = await site.create({ title: 'First', status: 'publish', date: '2026-11-22T09:00:00' });
    const second = await site.create({ title: 'Second', status: 'publish', date: '2026-11-23T09:00:00' });
    site.clock.set('2026-11-23T09:00:00Z');
    const list = await site.anonymous('GET', '/cms/v2/posts');
    assert.deepEqual(ids(list.json), [second.id, first.id]);
    assert.equal(list.headers['X-WP-Total'], '2');
  });
});
