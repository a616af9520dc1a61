/**
 * Offsets and pages beyond any store behave as the reference's 64-bit integers do: a huge offset is simply past
 * the end (the totals still count what there is), a page past the last one is the reference's 400 for posts.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sqliteStorage } from '../../src/storage/sqlite/index.js';
import { makeSite } from '../content/posts/helpers.js';

/** The last one counts from the start as the reference's `absint` does (posts and media; users read it as 0). */
const HUGE_OFFSETS = ['9007199254740993', '9223372036854775807', '99999999999999999999999', '1e300', '-9007199254740993'];

for (const store of ['memory', 'sqlite'] as const) {
  describe(`huge offsets and pages (${store})`, () => {
    const site = () => makeSite(store === 'sqlite' ? { storage: sqliteStorage({ path: ':memory:' }) } : {});

    it('answers a huge offset with an empty page and the true totals on posts, pages, media and users', async () => {
      const { admin, anonymous, create } = await site();
      await create({ title: 'One', status: 'publish' });
      await create({ title: 'Two', status: 'publish' });
      for (const offset of HUGE_OFFSETS) {
        const posts = await anonymous('GET', `/cms/v2/posts?offset=${offset}`);
        assert.deepEqual([posts.status, posts.json, posts.headers['X-WP-Total'], posts.headers['X-WP-TotalPages']], [200, [], '2', '1'], `posts offset=${offset}`);
        const media = await anonymous('GET', `/cms/v2/media?offset=${offset}`);
        assert.deepEqual([media.status, media.json, media.headers['X-WP-Total']], [200, [], '0'], `media offset=${offset}`);
        const pages = await admin('GET', `/cms/v2/pages?offset=${offset}&status=any`);
        assert.deepEqual([pages.status, pages.json], [200, []], `pages offset=${offset}`);
        if (offset.startsWith('-')) continue;
        const users = await admin('GET', `/cms/v2/users?offset=${offset}`);
        assert.deepEqual([users.status, users.json, users.headers['X-WP-Total']], [200, [], '5'], `users offset=${offset}`);
      }
    });

    it('answers a page past the end with rest_post_invalid_page_number, or an empty page when there is nothing', async () => {
      const { anonymous, admin, create } = await site();
      for (const page of ['9007199254740992', '9223372036854775807', '1e300']) {
        const empty = await anonymous('GET', `/cms/v2/posts?page=${page}`);
        assert.deepEqual([empty.status, empty.json, empty.headers['X-WP-Total']], [200, [], '0'], `empty posts page=${page}`);
        const media = await anonymous('GET', `/cms/v2/media?page=${page}`);
        assert.deepEqual([media.status, media.json], [200, []], `media page=${page}`);
        const users = await admin('GET', `/cms/v2/users?page=${page}`);
        assert.deepEqual([users.status, users.json, users.headers['X-WP-Total']], [200, [], '5'], `users page=${page}`);
      }
      await create({ title: 'One', status: 'publish' });
      for (const page of ['9007199254740992', '9223372036854775807']) {
        const past = await anonymous('GET', `/cms/v2/posts?page=${page}`);
        assert.equal(past.status, 400);
        assert.equal(past.json.code, 'rest_post_invalid_page_number');
      }
    });
  });
}
