import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { API, ids, makeSite, type Site } from './helpers.js';

/** A published post updated `count` times (one revision each), a minute apart; revisions oldest first. */
async function postWithRevisions(site: Site, count: number, base = 'posts') {
  const post = await site.create({ title: 'Version 0', content: 'Text 0', status: 'publish' }, { base });
  for (let version = 1; version <= count; version++) {
    site.clock.advance(60_000);
    await site.update(post.id, { title: `Version ${version}`, content: `Text ${version}` }, { base });
  }
  const revisions = await site.storedRevisions(post.id);
  return { post, revisionIds: revisions.map((revision) => revision.id) };
}

describe('revisions: the list', () => {
  it('lists every revision, newest first, on one page when per_page is absent', async () => {
    const site = await makeSite();
    const { post, revisionIds } = await postWithRevisions(site, 12);
    const response = await site.admin('GET', `/cms/v2/posts/${post.id}/revisions`);
    assert.equal(response.status, 200);
    assert.deepEqual(ids(response.json), [...revisionIds].reverse());
    assert.equal(response.headers['X-WP-Total'], '12');
    assert.equal(response.headers['X-WP-TotalPages'], '1');
    assert.doesNotMatch(response.headers.Link ?? '', /rel="(?:next|prev)"/);
    const [newest] = response.json;
    assert.deepEqual(Object.keys(newest), [
      'author', 'date', 'date_gmt', 'id', 'modified', 'modified_gmt', 'parent', 'slug', 'guid', 'title', 'content', 'excerpt', '_links',
    ]);
    assert.deepEqual(newest.title, { rendered: 'Version 12' });
    assert.deepEqual(newest._links, { parent: [{ href: `${API}/cms/v2/posts/${post.id}` }] });
  });

  it('pages with per_page and page, with paging headers and links', async () => {
    const site = await makeSite();
    const { post, revisionIds } = await postWithRevisions(site, 5);
    const newestFirst = [...revisionIds].reverse();
    const second = await site.admin('GET', `/cms/v2/posts/${post.id}/revisions?per_page=2&page=2`);
    assert.deepEqual(ids(second.json), newestFirst.slice(2, 4));
    assert.equal(second.headers['X-WP-Total'], '5');
    assert.equal(second.headers['X-WP-TotalPages'], '3');
    const base = `${API}/cms/v2/posts/${post.id}/revisions`;
    assert.equal(second.headers.Link, `<${base}?per_page=2&page=1>; rel="prev", <${base}?per_page=2&page=3>; rel="next"`);

    const beyond = await site.admin('GET', `/cms/v2/posts/${post.id}/revisions?per_page=2&page=4`);
    assert.equal(beyond.status, 400);
    assert.equal(beyond.json.code, 'rest_revision_invalid_page_number');
    const pageTwoOfAll = await site.admin('GET', `/cms/v2/posts/${post.id}/revisions?page=2`);
    assert.equal(pageTwoOfAll.json.code, 'rest_revision_invalid_page_number');

    for (const bad of ['0', '101', 'x']) {
      const response = await site.admin('GET', `/cms/v2/posts/${post.id}/revisions?per_page=${bad}`);
      assert.equal(response.status, 400, bad);
      assert.equal(response.json.code, 'rest_invalid_param');
      assert.deepEqual(Object.keys(response.json.data.params), ['per_page']);
    }
  });

  it('applies offset with per_page, checks it against the total, and ignores it without per_page', async () => {
    const site = await makeSite();
    const { post, revisionIds } = await postWithRevisions(site, 4);
    const newestFirst = [...revisionIds].reverse();
    const offset = await site.admin('GET', `/cms/v2/posts/${post.id}/revisions?per_page=2&offset=1`);
    assert.deepEqual(ids(offset.json), newestFirst.slice(1, 3));
    const unpaged = await site.admin('GET', `/cms/v2/posts/${post.id}/revisions?offset=3`);
    assert.deepEqual(ids(unpaged.json), newestFirst);
    const tooFar = await site.admin('GET', `/cms/v2/posts/${post.id}/revisions?per_page=2&offset=4`);
    assert.equal(tooFar.status, 400);
    assert.equal(tooFar.json.code, 'rest_revision_invalid_offset_number');
    // With an offset, the page number is not checked.
    const offsetAndPage = await site.admin('GET', `/cms/v2/posts/${post.id}/revisions?per_page=2&offset=2&page=9`);
    assert.equal(offsetAndPage.status, 200);
    assert.deepEqual(ids(offsetAndPage.json), newestFirst.slice(2, 4));
  });

  it('filters by include, exclude and search, and orders by id, title, include or relevance', async () => {
    const site = await makeSite();
    const { post, revisionIds } = await postWithRevisions(site, 4);
    const [r1, r2, r3, r4] = revisionIds as [number, number, number, number];
    const path = `/cms/v2/posts/${post.id}/revisions`;
    assert.deepEqual(ids((await site.admin('GET', `${path}?include=${r1},${r3}`)).json), [r3, r1]);
    assert.deepEqual(ids((await site.admin('GET', `${path}?exclude=${r4}`)).json), [r3, r2, r1]);
    assert.deepEqual(ids((await site.admin('GET', `${path}?orderby=id&order=asc`)).json), [r1, r2, r3, r4]);
    assert.deepEqual(ids((await site.admin('GET', `${path}?orderby=include&include=${r2},${r4},${r1}`)).json), [r2, r4, r1]);
    assert.deepEqual(ids((await site.admin('GET', `${path}?orderby=title&order=asc&per_page=2`)).json), [r1, r2]);
    const search = await site.admin('GET', `${path}?search=Text 3`);
    assert.deepEqual(ids(search.json), [r3]);
    assert.equal(search.headers['X-WP-Total'], '1');

    const relevance = await site.admin('GET', `${path}?orderby=relevance`);
    assert.equal(relevance.status, 400);
    assert.equal(relevance.json.code, 'rest_no_search_term_defined');
    const includeOrder = await site.admin('GET', `${path}?orderby=include`);
    assert.equal(includeOrder.status, 400);
    assert.equal(includeOrder.json.code, 'rest_orderby_include_missing_include');
    const badOrder = await site.admin('GET', `${path}?orderby=author`);
    assert.equal(badOrder.json.code, 'rest_invalid_param');
  });

  it('lists autosaves with the revisions; a post without any gives an empty list', async () => {
    const site = await makeSite();
    const { post, revisionIds } = await postWithRevisions(site, 1);
    site.clock.advance(60_000);
    const autosave = await site.as('editor')('POST', `/cms/v2/posts/${post.id}/autosaves`, { json: { title: 'Autosaved' } });
    const list = await site.admin('GET', `/cms/v2/posts/${post.id}/revisions`);
    assert.deepEqual(ids(list.json), [autosave.json.id, ...revisionIds]);

    const fresh = await site.create({ title: 'Fresh', status: 'publish' });
    const empty = await site.admin('GET', `/cms/v2/posts/${fresh.id}/revisions`);
    assert.deepEqual(empty.json, []);
    assert.equal(empty.headers['X-WP-Total'], '0');
    assert.equal(empty.headers['X-WP-TotalPages'], '0');
  });
});

describe('revisions: one revision', () => {
  it('shows the fields of each context', async () => {
    const site = await makeSite();
    const post = await site.create({ title: 'A "quoted" title', content: 'Para', excerpt: 'Ex', status: 'publish' });
    await site.update(post.id, { content: 'Para two' });
    const [revision] = await site.storedRevisions(post.id);
    const path = `/cms/v2/posts/${post.id}/revisions/${revision!.id}`;

    const view = await site.admin('GET', path);
    assert.equal(view.status, 200);
    assert.deepEqual(view.json, {
      author: site.ids.administrator,
      date: '2026-11-21T17:11:35',
      date_gmt: '2026-11-21T17:11:35',
      id: revision!.id,
      modified: '2026-11-21T17:11:35',
      modified_gmt: '2026-11-21T17:11:35',
      parent: post.id,
      slug: `${post.id}-revision-v1`,
      guid: { rendered: `http://example.test/?p=${revision!.id}` },
      title: { rendered: 'A &#8220;quoted&#8221; title' },
      content: { rendered: '<p>Para two</p>\n' },
      excerpt: { rendered: '<p>Ex</p>\n' },
      _links: { parent: [{ href: `${API}/cms/v2/posts/${post.id}` }] },
    });

    const edit = await site.admin('GET', `${path}?context=edit`);
    assert.deepEqual(edit.json.title, { raw: 'A "quoted" title', rendered: 'A &#8220;quoted&#8221; title' });
    assert.deepEqual(edit.json.content, { raw: 'Para two', rendered: '<p>Para two</p>\n' });
    assert.deepEqual(edit.json.guid, { rendered: `http://example.test/?p=${revision!.id}`, raw: `http://example.test/?p=${revision!.id}` });

    const embed = await site.admin('GET', `${path}?context=embed`);
    assert.deepEqual(Object.keys(embed.json), ['author', 'date', 'id', 'parent', 'slug', 'title', 'excerpt', '_links']);
    const fields = await site.admin('GET', `${path}?_fields=id,title`);
    assert.deepEqual(fields.json, { id: revision!.id, title: { rendered: 'A &#8220;quoted&#8221; title' } });
  });

  it('does not generate an excerpt from the content, and does not hide a protected post\'s content from its editors', async () => {
    const site = await makeSite();
    const post = await site.create({ title: 'Locked', content: 'Secret words', password: 'pw', status: 'publish' });
    await site.update(post.id, { title: 'Locked again' });
    const [revision] = await site.storedRevisions(post.id);
    const read = await site.admin('GET', `/cms/v2/posts/${post.id}/revisions/${revision!.id}`);
    assert.equal(read.json.content.rendered, '<p>Secret words</p>\n');
    assert.equal(read.json.excerpt.rendered, '');
    assert.equal(read.json.title.rendered, 'Locked again');
  });

  it('answers 404 for an unknown revision, a record that is not a revision, or another post\'s revision', async () => {
    const site = await makeSite();
    const { post, revisionIds } = await postWithRevisions(site, 1);
    const { post: other, revisionIds: otherIds } = await postWithRevisions(site, 1);
    for (const id of [999_999, other.id, otherIds[0]]) {
      const response = await site.admin('GET', `/cms/v2/posts/${post.id}/revisions/${id}`);
      assert.equal(response.status, 404, String(id));
      assert.deepEqual(response.json, { code: 'rest_post_invalid_id', message: 'Invalid revision ID.', data: { status: 404 } });
    }
    const ok = await site.admin('GET', `/cms/v2/posts/${post.id}/revisions/${revisionIds[0]}`);
    assert.equal(ok.status, 200);
  });

  it('answers 404 rest_post_invalid_parent for an unknown parent or one of another type', async () => {
    const site = await makeSite();
    const { post, revisionIds } = await postWithRevisions(site, 1);
    const { post: page, revisionIds: pageRevisions } = await postWithRevisions(site, 1, 'pages');
    const paths = [
      '/cms/v2/posts/999999/revisions',
      `/cms/v2/posts/0/revisions/${revisionIds[0]}`,
      `/cms/v2/pages/${post.id}/revisions`,
      `/cms/v2/posts/${page.id}/revisions/${pageRevisions[0]}`,
    ];
    for (const path of paths) {
      const response = await site.admin('GET', path);
      assert.equal(response.status, 404, path);
      assert.deepEqual(response.json, { code: 'rest_post_invalid_parent', message: 'Invalid post parent ID.', data: { status: 404 } });
    }
    const pageRevision = await site.admin('GET', `/cms/v2/pages/${page.id}/revisions/${pageRevisions[0]}`);
    assert.equal(pageRevision.status, 200);
    assert.deepEqual(pageRevision.json._links.parent, [{ href: `${API}/cms/v2/pages/${page.id}` }]);
  });
});

describe('revisions: deleting', () => {
  it('needs force=true; then removes the revision and answers with what it was', async () => {
    const site = await makeSite();
    const { post, revisionIds } = await postWithRevisions(site, 2);
    const path = `/cms/v2/posts/${post.id}/revisions/${revisionIds[0]}`;
    const trash = await site.admin('DELETE', path);
    assert.equal(trash.status, 501);
    assert.deepEqual(trash.json, {
      code: 'rest_trash_not_supported', message: "Revisions do not support trashing. Set 'force=true' to delete.", data: { status: 501 },
    });
    assert.equal((await site.storedRevisions(post.id)).length, 2);

    const removed = await site.admin('DELETE', `${path}?force=true`);
    assert.equal(removed.status, 200);
    assert.equal(removed.json.deleted, true);
    assert.equal(removed.json.previous.id, revisionIds[0]);
    assert.deepEqual(removed.json.previous.title, { rendered: 'Version 1' });
    assert.equal(removed.json.previous._links, undefined);
    assert.deepEqual((await site.storedRevisions(post.id)).map((revision) => revision.id), [revisionIds[1]]);
    const again = await site.admin('GET', path);
    assert.equal(again.json.code, 'rest_post_invalid_id');
  });

  it('is for users who may delete the parent, and only for its own revisions', async () => {
    const site = await makeSite();
    const { post, revisionIds } = await postWithRevisions(site, 1);
    const { post: other } = await postWithRevisions(site, 1);
    const path = `/cms/v2/posts/${post.id}/revisions/${revisionIds[0]}?force=true`;
    const author = await site.as('author')('DELETE', path);
    assert.equal(author.status, 403);
    assert.deepEqual(author.json, {
      code: 'rest_cannot_delete', message: 'Sorry, you are not allowed to delete revisions of this post.', data: { status: 403 },
    });
    const anonymous = await site.anonymous('DELETE', path);
    assert.equal(anonymous.status, 401);
    const mismatched = await site.admin('DELETE', `/cms/v2/posts/${other.id}/revisions/${revisionIds[0]}?force=true`);
    assert.equal(mismatched.status, 404);
    assert.equal(mismatched.json.code, 'rest_post_invalid_id');
    assert.equal((await site.storedRevisions(post.id)).length, 1);

    const own = await site.create({ title: 'Own draft', content: 'x' }, { by: 'contributor' });
    await site.update(own.id, { title: 'Own draft, changed' }, { by: 'contributor' });
    const [ownRevision] = await site.storedRevisions(own.id);
    const byContributor = await site.as('contributor')('DELETE', `/cms/v2/posts/${own.id}/revisions/${ownRevision!.id}?force=true`);
    assert.equal(byContributor.status, 200);
  });

  it('advertises DELETE in Allow only to those who may use it', async () => {
    const site = await makeSite();
    const { post, revisionIds } = await postWithRevisions(site, 1);
    const path = `/cms/v2/posts/${post.id}/revisions/${revisionIds[0]}`;
    assert.equal((await site.admin('GET', path)).headers.Allow, 'GET, DELETE');
    const own = await site.create({ title: 'By author', status: 'publish' }, { by: 'author' });
    await site.update(own.id, { title: 'By author, changed' }, { by: 'author' });
    const [revision] = await site.storedRevisions(own.id);
    // The editor may edit and delete the author's published post.
    assert.equal((await site.as('editor')('GET', `/cms/v2/posts/${own.id}/revisions/${revision!.id}`)).headers.Allow, 'GET, DELETE');
  });
});

describe('revisions: in the route index', () => {
  it('publishes the list parameters in order, without a per_page default and without batch support', async () => {
    const site = await makeSite();
    const index = await site.anonymous('GET', '/cms/v2');
    const list = index.json.routes['/cms/v2/posts/(?P<parent>[\\d]+)/revisions'];
    assert.deepEqual(Object.keys(list.endpoints[0].args), [
      'parent', 'context', 'page', 'per_page', 'search', 'exclude', 'include', 'offset', 'order', 'orderby',
    ]);
    const perPage = list.endpoints[0].args.per_page;
    assert.equal(perPage.default, undefined);
    assert.equal(perPage.minimum, 1);
    assert.equal(perPage.maximum, 100);
    const single = index.json.routes['/cms/v2/pages/(?P<parent>[\\d]+)/revisions/(?P<id>[\\d]+)'];
    assert.deepEqual(single.methods, ['GET', 'DELETE']);
    assert.deepEqual(Object.keys(single.endpoints[0].args), ['parent', 'id', 'context']);
    assert.deepEqual(Object.keys(single.endpoints[1].args), ['parent', 'id', 'force']);
    assert.equal(single.endpoints[1].args.force.default, false);
    for (const [pattern, route] of Object.entries(index.json.routes as Record<string, { endpoints: Record<string, unknown>[] }>)) {
      if (!/revisions|autosaves/.test(pattern)) continue;
      assert.ok(route.endpoints.every((endpoint) => endpoint.allow_batch === undefined), pattern);
    }
  });

  it('refuses revision routes inside a batch', async () => {
    const site = await makeSite();
    const { post, revisionIds } = await postWithRevisions(site, 1);
    const batch = await site.admin('POST', '/batch/v1', {
      json: { requests: [{ method: 'DELETE', path: `/cms/v2/posts/${post.id}/revisions/${revisionIds[0]}?force=true` }] },
    });
    assert.equal(batch.json.responses[0].body.code, 'rest_batch_not_allowed');
    assert.equal((await site.storedRevisions(post.id)).length, 1);
  });
});
