import assert from 'node:assert/strict';
import { it } from 'node:test';
import { makeCommentSite, onEachStore } from '../comments/helpers.js';

onEachStore('search', (store) => {
  it('finds published posts and pages, title matches first, with the reference\'s fields and links', async () => {
    const site = await makeCommentSite(store);
    const older = await site.create({ title: 'Gardening notes', status: 'publish', content: 'About tomatoes', date: '2026-01-01T10:00:00' });
    const newer = await site.create({ title: 'Cooking', status: 'publish', content: 'Tomatoes in a sauce', date: '2026-02-01T10:00:00' });
    const titled = await site.create({ title: 'Tomatoes', status: 'publish', content: 'Red', date: '2025-01-01T10:00:00' });
    const page = await site.create({ title: 'About tomatoes', status: 'publish' }, { base: 'pages' });
    await site.create({ title: 'Tomatoes draft', status: 'draft' });
    await site.create({ title: 'Tomatoes private', status: 'private' });
    const protectedPost = await site.create({ title: 'Secret tomatoes', status: 'publish', password: 'pw', date: '2024-01-01T10:00:00' });

    const response = await site.anonymous('GET', '/cms/v2/search?search=tomatoes');
    assert.equal(response.status, 200);
    // A logged-out search never finds password-protected posts, nor counts them.
    assert.equal(response.headers['X-WP-Total'], '4');
    const ids = response.json.map((result: { id: number }) => result.id);
    assert.deepEqual(ids.slice(0, 2).sort(), [titled.id, page.id].sort());
    assert.deepEqual(ids.slice(2), [newer.id, older.id]);
    const first = response.json.find((result: { id: number }) => result.id === titled.id);
    assert.deepEqual(first, {
      id: titled.id, title: 'Tomatoes', url: 'http://example.test/2025/01/01/tomatoes/', type: 'post', subtype: 'post',
      _links: {
        self: [{ embeddable: true, href: `http://example.test/cms-json/cms/v2/posts/${titled.id}` }],
        about: [{ href: 'http://example.test/cms-json/cms/v2/types/post' }],
        collection: [{ href: 'http://example.test/cms-json/cms/v2/search' }],
      },
    });
    // Logged in, password-protected posts are found by title, with no prefix.
    const loggedIn = await site.admin('GET', '/cms/v2/search?search=tomatoes');
    assert.equal(loggedIn.headers['X-WP-Total'], '5');
    assert.deepEqual(loggedIn.json.map((result: { id: number }) => result.id).slice(0, 3).sort(), [titled.id, page.id, protectedPost.id].sort());
    assert.equal(loggedIn.json.find((result: { id: number }) => result.id === protectedPost.id).title, 'Secret tomatoes');
    // Without a search text, as the reference, a logged-out caller lists them too.
    const unsearched = await site.anonymous('GET', '/cms/v2/search?per_page=100');
    assert.ok(unsearched.json.some((result: { id: number }) => result.id === protectedPost.id));
    // Drafts and private posts are never found, nor counted, even for their editors (checked above: 5 for the admin).
  });

  it('narrows by subtype, include and exclude, pages the results and embeds the records', async () => {
    const site = await makeCommentSite(store);
    const post = await site.create({ title: 'A post', status: 'publish' });
    const page = await site.create({ title: 'A page', status: 'publish' }, { base: 'pages' });
    const only = async (query: string) => (await site.anonymous('GET', `/cms/v2/search?${query}`)).json.map((result: { id: number }) => result.id);
    assert.deepEqual(await only('subtype=page'), [page.id]);
    assert.deepEqual(await only('subtype=post,page&exclude=' + post.id), [page.id]);
    assert.deepEqual(await only(`include=${post.id}`), [post.id]);
    assert.deepEqual((await only('subtype[]=any&subtype[]=page')).sort(), [post.id, page.id].sort());
    const paged = await site.anonymous('GET', '/cms/v2/search?per_page=1&page=2');
    assert.equal(paged.json.length, 1);
    assert.equal(paged.headers['X-WP-TotalPages'], '2');
    assert.match(paged.headers.Link!, /rel="prev"/);
    // Past the last page, posts answer an empty page that counts nothing (the reference's post query counts no
    // rows for an empty page); terms and formats, counted apart from the page, still refuse it.
    const beyond = await site.anonymous('GET', '/cms/v2/search?page=3');
    assert.equal(beyond.status, 200);
    assert.deepEqual(beyond.json, []);
    assert.equal(beyond.headers['X-WP-Total'], '0');
    assert.equal(beyond.headers['X-WP-TotalPages'], '0');
    assert.match(beyond.headers.Link!, /[?&]page=2>; rel="prev"$/, 'the page before the one asked for, as the reference\'s search');
    const termsBeyond = await site.anonymous('GET', '/cms/v2/search?type=term&page=3');
    assert.equal(termsBeyond.status, 400);
    assert.equal(termsBeyond.json.code, 'rest_search_invalid_page_number');
    const embedded = await site.anonymous('GET', `/cms/v2/search?include=${post.id}&_embed`);
    assert.equal(embedded.json[0]._embedded.self[0].id, post.id);
    const fields = await site.anonymous('GET', '/cms/v2/search?_fields=id,title');
    assert.deepEqual(Object.keys(fields.json[0]), ['id', 'title']);
  });

  it('finds terms of the public taxonomies by name or slug', async () => {
    const site = await makeCommentSite(store);
    const parent = (await site.admin('POST', '/cms/v2/categories', { json: { name: 'Vegetables' } })).json;
    const child = (await site.admin('POST', '/cms/v2/categories', { json: { name: 'Root vegetables', parent: parent.id } })).json;
    const tag = (await site.admin('POST', '/cms/v2/tags', { json: { name: 'Veg', slug: 'vegetable-tag' } })).json;
    const response = await site.anonymous('GET', '/cms/v2/search?type=term&search=veg');
    assert.deepEqual(response.json.map((result: { id: number }) => result.id), [child.id, tag.id, parent.id]);
    const childResult = response.json[0];
    assert.deepEqual(childResult, {
      id: child.id, title: 'Root vegetables', url: 'http://example.test/category/vegetables/root-vegetables/', type: 'category',
      _links: {
        self: [{ embeddable: true, href: `http://example.test/cms-json/cms/v2/categories/${child.id}` }],
        about: [{ href: 'http://example.test/cms-json/cms/v2/taxonomies/category' }],
        collection: [{ href: 'http://example.test/cms-json/cms/v2/search' }],
      },
    });
    const tags = await site.anonymous('GET', '/cms/v2/search?type=term&subtype=post_tag');
    assert.deepEqual(tags.json.map((result: { id: number }) => result.id), [tag.id]);
    assert.equal(tags.json[0].url, 'http://example.test/tag/vegetable-tag/');
    // Subtypes of another kind narrow to nothing.
    assert.deepEqual((await site.anonymous('GET', '/cms/v2/search?type=term&subtype=page')).json, []);
  });

  it('finds post formats that posts use', async () => {
    const site = await makeCommentSite(store);
    assert.deepEqual((await site.anonymous('GET', '/cms/v2/search?type=post-format')).json, []);
    await site.create({ title: 'Aside', status: 'draft', format: 'aside' });
    await site.create({ title: 'Video', status: 'publish', format: 'video' });
    const response = await site.anonymous('GET', '/cms/v2/search?type=post-format');
    const collection = { collection: [{ href: 'http://example.test/cms-json/cms/v2/search' }] };
    assert.deepEqual(response.json, [
      { id: 'aside', title: 'Aside', url: 'http://example.test/type/aside/', type: 'post-format', _links: collection },
      { id: 'video', title: 'Video', url: 'http://example.test/type/video/', type: 'post-format', _links: collection },
    ]);
    assert.deepEqual((await site.anonymous('GET', '/cms/v2/search?type=post-format&search=vid')).json.map((result: { id: string }) => result.id), ['video']);
  });

  it('refuses unknown types and subtypes', async () => {
    const site = await makeCommentSite(store);
    const type = await site.anonymous('GET', '/cms/v2/search?type=user');
    assert.equal(type.status, 400);
    assert.equal(type.json.code, 'rest_invalid_param');
    const subtype = await site.anonymous('GET', '/cms/v2/search?subtype=attachment');
    assert.equal(subtype.status, 400);
    assert.equal(subtype.json.code, 'rest_invalid_param');
    const context = await site.anonymous('GET', '/cms/v2/search?context=edit');
    assert.equal(context.status, 400);
  });

  it('answers a page near 2^53 as any page past the end, on every store', async () => {
    const site = await makeCommentSite(store);
    await site.create({ title: 'Tomatoes', status: 'publish' });
    for (const type of ['post', 'term', 'post-format']) {
      const pastEnd = await site.anonymous('GET', `/cms/v2/search?type=${type}&page=50&per_page=62`);
      const huge = await site.anonymous('GET', `/cms/v2/search?type=${type}&page=9007199254740992&per_page=62`);
      assert.equal(huge.status, pastEnd.status, type);
      assert.deepEqual(huge.json, pastEnd.json, type);
      assert.equal(huge.headers['X-WP-Total'], pastEnd.headers['X-WP-Total'], type);
    }
  });
});
