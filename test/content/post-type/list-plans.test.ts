/**
 * The plans of anonymous callers' lists are kept per parameters and site (query.ts: `keptListPlan`); the records
 * are still read from the store on every request. A kept plan must never answer for another query string, route,
 * caller or settings, nor hide a write.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ids, makeSite } from '../posts/helpers.js';

const UNCACHED = { responseCache: false } as const;

describe('post lists: kept plans', () => {
  it('asks the store on every read', async () => {
    const site = await makeSite(UNCACHED);
    const first = await site.create({ title: 'First', status: 'publish', date: '2026-01-01T10:00:00' });
    const second = await site.create({ title: 'Second', status: 'publish', date: '2026-01-02T10:00:00' });
    for (let round = 0; round < 2; round++) assert.deepEqual(ids((await site.anonymous('GET', '/cms/v2/posts?per_page=2')).json), [second.id, first.id]);
    const third = await site.create({ title: 'Third', status: 'publish', date: '2026-01-03T10:00:00' });
    const after = await site.anonymous('GET', '/cms/v2/posts?per_page=2');
    assert.deepEqual(ids(after.json), [third.id, second.id]);
    assert.equal(after.headers['X-WP-Total'], '3');
    await site.admin('DELETE', `/cms/v2/posts/${third.id}?force=true`);
    assert.deepEqual(ids((await site.anonymous('GET', '/cms/v2/posts?per_page=2')).json), [second.id, first.id]);
  });

  it('follows the query string and the route', async () => {
    const site = await makeSite(UNCACHED);
    const first = await site.create({ title: 'First', status: 'publish', date: '2026-01-01T10:00:00' });
    const second = await site.create({ title: 'Second', status: 'publish', date: '2026-01-02T10:00:00' });
    const page = await site.create({ title: 'A page', status: 'publish' }, { base: 'pages' });
    for (let round = 0; round < 2; round++) {
      assert.deepEqual(ids((await site.anonymous('GET', '/cms/v2/posts?per_page=2')).json), [second.id, first.id]);
      assert.deepEqual(ids((await site.anonymous('GET', '/cms/v2/posts?per_page=1')).json), [second.id]);
      assert.deepEqual(ids((await site.anonymous('GET', '/cms/v2/posts?per_page=2&order=asc')).json), [first.id, second.id]);
      assert.deepEqual(ids((await site.anonymous('GET', '/cms/v2/pages?per_page=2')).json), [page.id]);
      assert.deepEqual(ids((await site.anonymous('GET', `/cms/v2/posts?per_page=2&exclude=${second.id}`)).json), [first.id]);
      // Paging links follow the query string too.
      assert.equal((await site.anonymous('GET', '/cms/v2/posts?per_page=1')).headers.Link,
        '<http://example.test/cms-json/cms/v2/posts?per_page=1&page=2>; rel="next"');
      assert.equal((await site.anonymous('GET', '/cms/v2/posts?per_page=1&order=asc')).headers.Link,
        '<http://example.test/cms-json/cms/v2/posts?per_page=1&order=asc&page=2>; rel="next"');
      assert.doesNotMatch((await site.anonymous('GET', '/cms/v2/posts?per_page=2')).headers.Link ?? '', /rel="next"/);
    }
  });

  it('follows the caller', async () => {
    const site = await makeSite(UNCACHED);
    const open = await site.create({ title: 'Open sauce', status: 'publish', date: '2026-01-01T10:00:00' });
    const locked = await site.create({ title: 'Locked sauce', status: 'publish', password: 'secret', date: '2026-01-02T10:00:00' });
    for (let round = 0; round < 2; round++) {
      // Anonymous visitors never find password-protected posts by searching; an administrator does.
      assert.deepEqual(ids((await site.anonymous('GET', '/cms/v2/posts?search=sauce')).json), [open.id]);
      assert.deepEqual(ids((await site.admin('GET', '/cms/v2/posts?search=sauce')).json), [locked.id, open.id]);
    }
    const hidden = await site.create({ title: 'Hidden', status: 'private' });
    for (let round = 0; round < 2; round++) {
      assert.deepEqual(ids((await site.admin('GET', '/cms/v2/posts?status=publish,private')).json), [hidden.id, locked.id, open.id]);
      assert.equal((await site.anonymous('GET', '/cms/v2/posts?status=publish,private')).status, 400);
    }
  });

  it('follows the settings', async () => {
    const site = await makeSite(UNCACHED);
    const morning = await site.create({ title: 'Morning', status: 'publish', date: '2026-06-01T10:00:00' });
    const afternoon = await site.create({ title: 'Afternoon', status: 'publish', date: '2026-06-01T14:00:00' });
    // A date with an offset is compared in the site's own time: 09:30 UTC is 18:30 in Tokyo.
    const list = '/cms/v2/posts?after=2026-06-01T09:30:00%2B00:00';
    for (let round = 0; round < 2; round++) assert.deepEqual(ids((await site.anonymous('GET', list)).json), [afternoon.id, morning.id]);
    assert.equal((await site.admin('POST', '/cms/v2/settings', { json: { timezone: 'Asia/Tokyo' } })).status, 200);
    for (let round = 0; round < 2; round++) assert.deepEqual(ids((await site.anonymous('GET', list)).json), []);
    await site.admin('POST', '/cms/v2/settings', { json: { timezone: 'UTC' } });
    assert.deepEqual(ids((await site.anonymous('GET', list)).json), [afternoon.id, morning.id]);
  });

  it('shows records with the links of the settings in effect', async () => {
    const site = await makeSite(UNCACHED);
    const page = await site.create({ title: 'Front', status: 'publish' }, { base: 'pages' });
    const link = async () => ((await site.anonymous('GET', '/cms/v2/pages')).json as { link: string }[])[0]!.link;
    for (let round = 0; round < 2; round++) assert.notEqual(await link(), 'http://example.test/');
    await site.admin('POST', '/cms/v2/settings', { json: { show_on_front: 'page', page_on_front: page.id } });
    for (let round = 0; round < 2; round++) assert.equal(await link(), 'http://example.test/');
  });
});
