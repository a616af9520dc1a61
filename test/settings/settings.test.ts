import assert from 'node:assert/strict';
import { it } from 'node:test';
import { createCms } from '../../src/cms.js';
import { createSiteSettingsStore } from '../../src/settings/index.js';
import { send } from '../helpers/request.js';
import { ROLES, makeCommentSite, onEachStore } from '../comments/helpers.js';

const DEFAULTS = {
  title: 'quire', description: '', url: 'http://example.test', email: '', timezone: '', date_format: 'F j, Y', time_format: 'g:i a',
  start_of_week: 1, language: 'en_US', use_smilies: true, default_category: 1, default_post_format: '0', posts_per_page: 10,
  show_on_front: 'posts', page_on_front: 0, page_for_posts: 0, default_ping_status: 'open', default_comment_status: 'open',
  site_logo: null, site_icon: 0,
};

onEachStore('settings', (store) => {
  it('lets only those who manage options read and write', async () => {
    const site = await makeCommentSite(store);
    const reads: number[] = [];
    const writes: number[] = [];
    for (const role of [...ROLES, null]) {
      reads.push((await site.as(role)('GET', '/cms/v2/settings')).status);
      writes.push((await site.as(role)('POST', '/cms/v2/settings', { json: { title: `By ${role}` } })).status);
    }
    assert.deepEqual(reads, [200, 403, 403, 403, 403, 401]);
    assert.deepEqual(writes, [200, 403, 403, 403, 403, 401]);
    const refused = await site.anonymous('GET', '/cms/v2/settings');
    assert.deepEqual(refused.json, { code: 'rest_forbidden', message: 'Sorry, you are not allowed to do that.', data: { status: 401 } });
    assert.equal((await site.admin('GET', '/cms/v2/settings')).json.title, 'By administrator');
  });

  it('reads every setting in the reference\'s order, from the host\'s settings and the defaults', async () => {
    const site = await makeCommentSite(store);
    const response = await site.admin('GET', '/cms/v2/settings');
    assert.equal(response.status, 200);
    assert.deepEqual(response.json, DEFAULTS);
    assert.deepEqual(Object.keys(response.json), Object.keys(DEFAULTS));
    const hosted = await makeCommentSite(store, { site: { name: 'Hosted', timezone: 'Europe/Paris', showOnFront: 'page', pageOnFront: 4, siteLogo: 7 } });
    const values = (await hosted.admin('GET', '/cms/v2/settings')).json;
    assert.equal(values.title, 'Hosted');
    assert.equal(values.timezone, 'Europe/Paris');
    assert.equal(values.show_on_front, 'page');
    assert.equal(values.page_on_front, 4);
    assert.equal(values.site_logo, 7);
  });

  it('stores changes, cleans them, and resets a setting sent as null', async () => {
    const site = await makeCommentSite(store);
    const update = await site.admin('POST', '/cms/v2/settings', {
      json: {
        title: 'Tom & Jerry <3', description: 'News', email: 'admin@example.test', timezone: 'America/New_York', date_format: '<b>Y-m-d</b>',
        start_of_week: -3, posts_per_page: 0, default_comment_status: 'closed', site_icon: 12, unknown_setting: 'ignored',
      },
    });
    assert.equal(update.status, 200);
    assert.equal(update.json.title, 'Tom &amp; Jerry &lt;3');
    assert.equal(update.json.timezone, 'America/New_York');
    assert.equal(update.json.date_format, 'Y-m-d');
    assert.equal(update.json.start_of_week, 3);
    assert.equal(update.json.posts_per_page, 1);
    assert.equal(update.json.default_comment_status, 'closed');
    assert.equal(update.json.site_icon, 12);
    assert.equal(update.json.unknown_setting, undefined);
    assert.equal((await site.admin('GET', '/cms/v2/settings')).json.email, 'admin@example.test');

    const reset = await site.admin('PUT', '/cms/v2/settings', { json: { title: null, timezone: null } });
    assert.equal(reset.json.title, 'quire');
    assert.equal(reset.json.timezone, '');
    assert.equal(reset.json.description, 'News');
  });

  it('refuses values that cannot be stored, and stores nothing of that request', async () => {
    const site = await makeCommentSite(store);
    const cases: [Record<string, unknown>, string][] = [
      [{ default_ping_status: 'sometimes' }, 'default_ping_status'],
      [{ use_smilies: 'perhaps' }, 'use_smilies'],
      [{ page_on_front: 'front' }, 'page_on_front'],
      [{ email: 'not an email' }, 'email'],
      [{ url: 'ftp://example.test' }, 'url'],
      [{ timezone: 'Mars/Olympus' }, 'timezone'],
      [{ language: 'fr_FR' }, 'language'],
      [{ show_on_front: 'everything' }, 'show_on_front'],
      [{ title: 'Changed', timezone: 'Nowhere/Land' }, 'timezone'],
    ];
    for (const [json, field] of cases) {
      const response = await site.admin('POST', '/cms/v2/settings', { json });
      assert.equal(response.status, 400, JSON.stringify(json));
      assert.equal(response.json.code, 'rest_invalid_param');
      assert.ok(response.json.data.params[field], `${field} named in ${JSON.stringify(response.json)}`);
    }
    assert.deepEqual((await site.admin('GET', '/cms/v2/settings')).json, DEFAULTS);
  });

  it('changes the index, links and rendering at once, without a restart', async () => {
    const site = await makeCommentSite(store);
    const page = await site.create({ title: 'Front', status: 'publish' }, { base: 'pages' });
    const post = await site.create({ title: 'Hello', status: 'publish', content: 'Smile :)' });
    const before = await site.anonymous('GET', '/');
    assert.equal(before.json.name, 'quire');
    await site.admin('POST', '/cms/v2/settings', {
      json: { title: 'Renamed', description: 'A tagline', timezone: 'Asia/Tokyo', show_on_front: 'page', page_on_front: page.id, site_logo: 5, use_smilies: false },
    });
    const index = await site.anonymous('GET', '/');
    assert.equal(index.json.name, 'Renamed');
    assert.equal(index.json.description, 'A tagline');
    assert.equal(index.json.timezone_string, 'Asia/Tokyo');
    assert.equal(index.json.gmt_offset, '9');
    assert.equal(index.json.show_on_front, 'page');
    assert.equal(index.json.page_on_front, page.id);
    assert.equal(index.json.site_logo, 5);
    // The page on the front is linked at the site's root; post dates follow the time zone.
    assert.equal((await site.anonymous('GET', `/cms/v2/pages/${page.id}`)).json.link, 'http://example.test/');
    assert.equal((await site.anonymous('GET', `/cms/v2/posts/${post.id}`)).json.date_gmt, '2026-11-21T17:11:35');
    const comment = await site.cms.comments.create({ post: post.id, content: 'Nice :)' });
    assert.equal((await site.anonymous('GET', `/cms/v2/comments/${comment.id}`)).json.content.rendered, '<p>Nice :)</p>\n');
    await site.admin('POST', '/cms/v2/settings', { json: { use_smilies: true } });
    assert.equal((await site.anonymous('GET', `/cms/v2/comments/${comment.id}`)).json.content.rendered, '<p>Nice 🙂</p>\n');
  });

  it('moves the links when the site address changes', async () => {
    const site = await makeCommentSite(store);
    await site.admin('POST', '/cms/v2/settings', { json: { url: 'https://moved.example/' } });
    const index = await site.anonymous('GET', '/');
    assert.equal(index.json.url, 'https://moved.example');
    assert.equal(index.json.routes['/cms/v2/settings']._links.self[0].href, 'https://moved.example/cms-json/cms/v2/settings');
  });
});

it('a second process over the same store sees a change on its next read (the change token)', async () => {
  const first = createCms({ site: { url: 'http://example.test' } });
  const store = createSiteSettingsStore(first.deps.storage, {}, { refreshMs: 60_000, now: () => 0 });
  const before = await store.current();
  assert.equal(before.name, undefined);
  assert.equal(await store.current(), before, 'the same object while nothing changes');
  await first.users.create({ login: 'boss', email: 'boss@example.test', roles: ['administrator'] });
  assert.equal(await store.current(), before, 'other writes leave the settings object as it was');
  const boss = (await first.users.list()).find((user) => user.login === 'boss')!;
  const update = await send(first, 'POST', '/cms/v2/settings', { json: { title: 'Elsewhere' }, user: { id: boss.id } });
  assert.equal(update.status, 200);
  assert.equal((await store.current()).name, 'Elsewhere');
});

it('over a store without a change token, a second process follows a change after the refresh interval', async () => {
  const first = createCms({ site: { url: 'http://example.test' } });
  const { changeToken: _token, ...withoutToken } = first.deps.storage;
  let clock = 0;
  const store = createSiteSettingsStore(withoutToken, {}, { refreshMs: 1000, now: () => clock });
  assert.equal((await store.current()).name, undefined);
  await first.users.create({ login: 'boss', email: 'boss@example.test', roles: ['administrator'] });
  const boss = (await first.users.list()).find((user) => user.login === 'boss')!;
  const update = await send(first, 'POST', '/cms/v2/settings', { json: { title: 'Elsewhere' }, user: { id: boss.id } });
  assert.equal(update.status, 200);
  assert.equal((await store.current()).name, undefined);
  clock = 1500;
  assert.equal((await store.current()).name, 'Elsewhere');
});
