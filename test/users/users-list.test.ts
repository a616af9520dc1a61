import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { addPost, siteWithMembers } from './setup.js';

async function siteWithAuthors() {
  const site = await siteWithMembers();
  const { cms, members } = site;
  // Published work by the author and the editor; only a draft by the contributor.
  await addPost(cms, { author: members.author.id });
  await addPost(cms, { author: members.editor.id, type: 'page' });
  await addPost(cms, { author: members.contributor.id, status: 'draft' });
  return site;
}

const ids = (body: { id: number }[]) => body.map((user) => user.id);

describe('GET /cms/v2/users', () => {
  it('shows anonymous callers and non-listers only users with published posts', async () => {
    const { request, members } = await siteWithAuthors();
    for (const actor of ['anonymous', 'subscriber', 'editor'] as const) {
      const response = await request(actor, 'GET', '/cms/v2/users');
      assert.equal(response.status, 200);
      assert.deepEqual(ids(response.json), [members.author.id, members.editor.id], actor);
      assert.equal(response.headers['X-WP-Total'], '2');
      assert.deepEqual(Object.keys(response.json[0]), ['id', 'name', 'url', 'description', 'link', 'slug', 'avatar_urls', 'meta', '_links']);
    }
  });

  it('lists everyone for those who may list users, ordered by display name ignoring case', async () => {
    const { cms, request } = await siteWithAuthors();
    await cms.users.create({ login: 'zed', email: 'zed@example.test', name: 'aardvark' });
    const response = await request('administrator', 'GET', '/cms/v2/users?per_page=100');
    assert.deepEqual(
      response.json.map((user: { name: string }) => user.name),
      ['aardvark', 'The administrator', 'The author', 'The contributor', 'The editor', 'The subscriber'],
    );
    const descending = await request('administrator', 'GET', '/cms/v2/users?order=desc&orderby=id');
    assert.deepEqual(ids(descending.json), [6, 5, 4, 3, 2, 1]);
  });

  it('pages with page, per_page and offset, and sends the totals', async () => {
    const { request } = await siteWithAuthors();
    const second = await request('administrator', 'GET', '/cms/v2/users?orderby=id&per_page=2&page=2');
    assert.deepEqual(ids(second.json), [3, 4]);
    assert.equal(second.headers['X-WP-Total'], '5');
    assert.equal(second.headers['X-WP-TotalPages'], '3');
    assert.match(second.headers.Link ?? '', /page=1>; rel="prev".*page=3>; rel="next"/);
    const offset = await request('administrator', 'GET', '/cms/v2/users?orderby=id&per_page=2&offset=3');
    assert.deepEqual(ids(offset.json), [4, 5]);
    const beyond = await request('administrator', 'GET', '/cms/v2/users?per_page=2&page=9');
    assert.deepEqual(beyond.json, []);
    assert.equal(beyond.headers['X-WP-Total'], '5');
  });

  it('filters by include, exclude, slug, roles and capabilities', async () => {
    const { cms, request, members } = await siteWithAuthors();
    const granted = await cms.users.create({ login: 'granted', email: 'granted@example.test', capabilities: { moderate_comments: true } });
    const get = async (query: string) => ids((await request('administrator', 'GET', `/cms/v2/users?orderby=id&${query}`)).json);
    assert.deepEqual(await get('include=4,2,3&orderby=include'), [4, 2, 3]);
    assert.deepEqual(await get('include=4,2,3&orderby=include&order=desc'), [3, 2, 4]);
    assert.deepEqual(await get('exclude[]=1&exclude[]=2'), [3, 4, 5, granted.id]);
    assert.deepEqual(await get('slug=subscriber,author&orderby=include_slugs'), [members.subscriber.id, members.author.id]);
    assert.deepEqual(await get('roles=editor,contributor'), [members.editor.id, members.contributor.id]);
    assert.deepEqual(await get('capabilities=moderate_comments'), [members.administrator.id, members.editor.id, granted.id]);
    assert.deepEqual(await get('capabilities=publish_posts&roles=subscriber'), [1, 2, 3, 5, granted.id]);
  });

  it('searches the columns the caller may search', async () => {
    const { request, members } = await siteWithAuthors();
    const search = async (actor: 'administrator' | 'anonymous', term: string) =>
      ids((await request(actor, 'GET', `/cms/v2/users?orderby=id&search=${encodeURIComponent(term)}`)).json);
    assert.deepEqual(await search('administrator', 'ADMIN'), [members.administrator.id]);
    assert.deepEqual(await search('administrator', 'editor@example'), [members.editor.id]);
    assert.deepEqual(await search('administrator', String(members.author.id)), [members.author.id]);
    assert.deepEqual(await search('anonymous', 'the'), [members.editor.id, members.author.id], 'ordered by id');
    assert.deepEqual(await search('anonymous', 'author@example.test'), [], 'emails are not searchable without list_users');
  });

  it('limits to authors with who=authors and to published authors with has_published_posts', async () => {
    const { request, members } = await siteWithAuthors();
    const authors = await request('contributor', 'GET', '/cms/v2/users?who=authors&orderby=id');
    assert.deepEqual(ids(authors.json), [1, 2, 3, 4]);
    const pagesOnly = await request('administrator', 'GET', '/cms/v2/users?has_published_posts[]=page');
    assert.deepEqual(ids(pagesOnly.json), [members.editor.id]);
    const anyType = await request('administrator', 'GET', '/cms/v2/users?has_published_posts=true&orderby=id');
    assert.deepEqual(ids(anyType.json), [members.editor.id, members.author.id]);
    const badType = await request('administrator', 'GET', '/cms/v2/users?has_published_posts[]=nonsense');
    assert.equal(badType.status, 400);
  });

  it('shows edit fields to list_users holders in the edit context', async () => {
    const { request } = await siteWithAuthors();
    const response = await request('administrator', 'GET', '/cms/v2/users?context=edit&orderby=id&per_page=1');
    assert.equal(response.json[0].username, 'administrator');
    assert.equal(response.json[0].email, 'administrator@example.test');
    assert.deepEqual(response.json[0].roles, ['administrator']);
  });
});

describe('GET /cms/v2/users/{id}', () => {
  it('shows a published author to anyone, embeddable for posts', async () => {
    const { request, members } = await siteWithAuthors();
    const response = await request('anonymous', 'GET', `/cms/v2/users/${members.author.id}?context=embed`);
    assert.equal(response.status, 200);
    assert.deepEqual(Object.keys(response.json), ['id', 'name', 'url', 'description', 'link', 'slug', 'avatar_urls', '_links']);
  });

  it('answers 404 for unknown users before any permission question', async () => {
    const { request } = await siteWithAuthors();
    const response = await request('anonymous', 'GET', '/cms/v2/users/999');
    assert.equal(response.status, 404);
    assert.equal(response.json.code, 'rest_user_invalid_id');
  });

  it('counts private posts only for viewers who may read them', async () => {
    const { cms, request, members } = await siteWithMembers();
    await addPost(cms, { author: members.contributor.id, status: 'private' });
    assert.equal((await request('anonymous', 'GET', `/cms/v2/users/${members.contributor.id}`)).status, 401);
    assert.equal((await request('author', 'GET', `/cms/v2/users/${members.contributor.id}`)).status, 403);
    assert.equal((await request('editor', 'GET', `/cms/v2/users/${members.contributor.id}`)).status, 200);
  });
});
