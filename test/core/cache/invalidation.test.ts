/**
 * Every write is seen by the very next read, whoever made it and however: routes, a batch, the in-process APIs,
 * a role change, a revoked password, a settings change, and the clock passing a scheduled post's date.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createCms, type Cms } from '../../../src/cms.js';
import { isFromKeptBytes } from '../../../src/core/encode.js';
import type { CmsRequest, CmsResponse } from '../../../src/core/types.js';

const START = Date.parse('2024-05-01T12:00:00Z');

interface Site {
  cms: Cms;
  clock: { at: number };
  admin: number;
  /** Basic credentials by login. */
  basic: Record<string, string>;
  /** A request as `login` (or anonymous), body as JSON. */
  as(login: string | null, method: string, target: string, json?: unknown): Promise<CmsResponse & { json: any }>;
  /** A GET sent twice: asserts the second answer was kept (the cache is in play), returns it. */
  warm(login: string | null, target: string): Promise<CmsResponse & { json: any }>;
}

async function makeSite(): Promise<Site> {
  const clock = { at: START };
  const cms = createCms({ clock: { now: () => new Date(clock.at) }, site: { url: 'http://site.test' } });
  const basic: Record<string, string> = {};
  const addUser = async (login: string, role: string) => {
    const user = await cms.users.create({ login, email: `${login}@site.test`, roles: [role] });
    const password = `${login}pass1234567890`;
    await cms.users.createApplicationPassword(user.id, { name: 'tests', password });
    basic[login] = `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}`;
    return user.id;
  };
  const admin = await addUser('admin', 'administrator');
  await addUser('eddie', 'editor');
  await addUser('sam', 'subscriber');
  const as: Site['as'] = async (login, method, target, json) => {
    const [path, query = ''] = target.split('?') as [string, string?];
    const request: CmsRequest = { method, path, query, headers: login ? { authorization: basic[login]! } : {} };
    if (json !== undefined) {
      request.headers = { ...request.headers, 'content-type': 'application/json' };
      request.body = JSON.stringify(json);
    }
    const response = await cms.handle(request);
    return { ...response, json: response.body, response } as CmsResponse & { json: any };
  };
  const warm: Site['warm'] = async (login, target) => {
    await as(login, 'GET', target);
    const [path, query = ''] = target.split('?') as [string, string?];
    const again = await cms.handle({ method: 'GET', path, query, headers: login ? { authorization: basic[login]! } : {} });
    assert.ok(isFromKeptBytes(again), `GET ${target} is kept`);
    return { ...again, json: again.body };
  };
  return { cms, clock, admin, basic, as, warm };
}

async function post(site: Site, fields: Record<string, unknown>): Promise<number> {
  const created = await site.as('admin', 'POST', '/cms/v2/posts', { status: 'publish', content: '<p>Words.</p>', ...fields });
  assert.equal(created.status, 201, JSON.stringify(created.json));
  return created.json.id;
}

const titles = (response: { json: any }) => (response.json as { title: { rendered: string } }[]).map((entry) => entry.title.rendered);

describe('every write is seen by the next read', () => {
  it('writes through routes: create, update, delete', async () => {
    const site = await makeSite();
    const first = await post(site, { title: 'First' });
    assert.deepEqual(titles(await site.warm(null, '/cms/v2/posts')), ['First']);
    await post(site, { title: 'Second' });
    assert.deepEqual(titles(await site.as(null, 'GET', '/cms/v2/posts')), ['Second', 'First']);
    await site.warm(null, `/cms/v2/posts/${first}`);
    await site.as('admin', 'POST', `/cms/v2/posts/${first}`, { title: 'First, renamed' });
    assert.equal((await site.as(null, 'GET', `/cms/v2/posts/${first}`)).json.title.rendered, 'First, renamed');
    await site.warm(null, `/cms/v2/posts/${first}`);
    assert.equal((await site.as('admin', 'DELETE', `/cms/v2/posts/${first}?force=true`)).status, 200);
    assert.equal((await site.as(null, 'GET', `/cms/v2/posts/${first}`)).status, 404);
  });

  it('writes inside a batch', async () => {
    const site = await makeSite();
    const id = await post(site, { title: 'Before' });
    await site.warm(null, '/cms/v2/posts');
    const batch = await site.as('admin', 'POST', '/batch/v1', { requests: [{ method: 'POST', path: `/cms/v2/posts/${id}`, body: { title: 'After' } }] });
    assert.equal(batch.status, 207);
    assert.deepEqual(titles(await site.as(null, 'GET', '/cms/v2/posts')), ['After']);
  });

  it('writes through the in-process APIs: users, comments, sliders', async () => {
    const site = await makeSite();
    const id = await post(site, { title: 'Commented' });
    assert.equal((await site.warm(null, `/cms/v2/users/${site.admin}`)).json.name, 'admin');
    await site.cms.users.update(site.admin, { name: 'The Administrator' });
    assert.equal((await site.as(null, 'GET', `/cms/v2/users/${site.admin}`)).json.name, 'The Administrator');

    assert.deepEqual((await site.warm(null, `/cms/v2/comments?post=${id}`)).json, []);
    await site.cms.comments.create({ post: id, content: 'First!', authorName: 'Visitor', authorEmail: 'v@site.test' });
    const comments = await site.as(null, 'GET', `/cms/v2/comments?post=${id}`);
    assert.deepEqual(comments.json.map((comment: any) => comment.content.rendered), ['<p>First!</p>\n']);

    // A write no kept answer shows still starts afresh: the store changed.
    await site.warm(null, '/cms/v2/posts');
    await site.cms.sliders.create({ alias: 'hero', title: 'Hero', slides: [{ slide: { title: 'Only' } }] });
    const list = await site.cms.handle({ method: 'GET', path: '/cms/v2/posts', query: '' });
    assert.equal(isFromKeptBytes(list), false);
  });

  it('a role change, both ways', async () => {
    const site = await makeSite();
    assert.equal((await site.as('sam', 'GET', '/cms/v2/users?context=edit')).status, 403);
    const sam = (await site.cms.users.find('sam'))!;
    await site.cms.users.update(sam.id, { roles: ['administrator'] });
    assert.equal((await site.as('sam', 'GET', '/cms/v2/users?context=edit')).status, 200);
    await site.warm('sam', '/cms/v2/users?context=edit');
    await site.cms.users.update(sam.id, { roles: ['subscriber'] });
    assert.equal((await site.as('sam', 'GET', '/cms/v2/users?context=edit')).status, 403);
  });

  it('a revoked application password, and a new one under the same name', async () => {
    const site = await makeSite();
    const sam = (await site.cms.users.find('sam'))!;
    assert.equal((await site.warm('sam', '/cms/v2/users/me')).json.id, sam.id);
    const [password] = await site.cms.users.listApplicationPasswords(sam.id);
    await site.cms.users.revokeApplicationPassword(sam.id, password!.uuid);
    const refused = await site.as('sam', 'GET', '/cms/v2/users/me');
    assert.equal(refused.status, 401);
    assert.equal(refused.json.code, 'incorrect_password');
    await site.cms.users.createApplicationPassword(sam.id, { name: 'tests', password: 'anotherpass1234567' });
    assert.equal((await site.as('sam', 'GET', '/cms/v2/users/me')).status, 401, 'the old credential stays refused');
  });

  it('the clock passing a scheduled post\'s date', async () => {
    const site = await makeSite();
    await post(site, { title: 'Now' });
    const scheduled = await post(site, { title: 'Later', date_gmt: '2024-05-01T13:00:00' });
    assert.equal((await site.as('admin', 'GET', `/cms/v2/posts/${scheduled}?context=edit`)).json.status, 'future');
    assert.deepEqual(titles(await site.warm(null, '/cms/v2/posts')), ['Now']);
    site.clock.at = Date.parse('2024-05-01T12:59:59Z');
    assert.deepEqual(titles(await site.warm(null, '/cms/v2/posts')), ['Now'], 'kept until the date');
    site.clock.at = Date.parse('2024-05-01T13:00:00Z');
    assert.deepEqual(titles(await site.as(null, 'GET', '/cms/v2/posts')), ['Later', 'Now']);
    assert.equal((await site.as(null, 'GET', `/cms/v2/posts/${scheduled}`)).status, 200);
  });

  it('a settings change', async () => {
    const site = await makeSite();
    assert.equal((await site.warm(null, '/')).json.name, 'quire');
    assert.equal((await site.warm('admin', '/cms/v2/settings')).json.title, 'quire');
    assert.equal((await site.as('admin', 'POST', '/cms/v2/settings', { title: 'Renamed' })).status, 200);
    assert.equal((await site.as(null, 'GET', '/')).json.name, 'Renamed');
    assert.equal((await site.as('admin', 'GET', '/cms/v2/settings')).json.title, 'Renamed');
  });
});

describe('kept answers never leak across callers', () => {
  it('a private post an editor read is not served to anyone else', async () => {
    const site = await makeSite();
    const secret = await post(site, { title: 'Private plans', status: 'private' });
    const editor = await site.warm('eddie', `/cms/v2/posts/${secret}`);
    assert.equal(editor.json.title.rendered, 'Private: Private plans');
    const anonymous = await site.as(null, 'GET', `/cms/v2/posts/${secret}`);
    assert.equal(anonymous.status, 401);
    assert.equal((await site.as('sam', 'GET', `/cms/v2/posts/${secret}`)).status, 403);
    const list = await site.warm('eddie', '/cms/v2/posts?status=private');
    assert.deepEqual(titles(list), ['Private: Private plans']);
    assert.equal((await site.as(null, 'GET', '/cms/v2/posts?status=private')).status, 400);
    assert.deepEqual(titles(await site.as(null, 'GET', '/cms/v2/posts')), []);
  });
});
