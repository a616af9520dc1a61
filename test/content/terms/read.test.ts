import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { send } from '../../helpers/request.js';
import { ids, makePost, makeTerm, termsFixture } from './setup.js';

describe('GET /cms/v2/categories and /tags: a new store', () => {
  it('lists the default category with every view field, links and paging headers', async () => {
    const { cms } = termsFixture();
    const response = await send(cms, 'GET', '/cms/v2/categories');
    assert.equal(response.status, 200);
    assert.equal(response.headers['X-WP-Total'], '1');
    assert.equal(response.headers['X-WP-TotalPages'], '1');
    const [term] = response.json;
    const { _links: links, ...fields } = term;
    assert.deepEqual(fields, {
      id: 1, count: 0, description: '', link: 'http://example.test/category/uncategorized/', name: 'Uncategorized',
      slug: 'uncategorized', taxonomy: 'category', parent: 0, meta: [],
    });
    assert.deepEqual(Object.keys(links), ['self', 'collection', 'about', 'wp:post_type', 'curies']);
    assert.deepEqual(links.self, [{ href: 'http://example.test/cms-json/cms/v2/categories/1' }]);
    assert.deepEqual(links.collection, [{ href: 'http://example.test/cms-json/cms/v2/categories' }]);
    assert.deepEqual(links.about, [{ href: 'http://example.test/cms-json/cms/v2/taxonomies/category' }]);
    assert.deepEqual(links['wp:post_type'], [{ href: 'http://example.test/cms-json/cms/v2/posts?categories=1' }]);
  });

  it('has no tags, and tag records have no parent', async () => {
    const fixture = termsFixture();
    const empty = await send(fixture.cms, 'GET', '/cms/v2/tags');
    assert.deepEqual(empty.json, []);
    assert.equal(empty.headers['X-WP-Total'], '0');
    assert.equal(empty.headers['X-WP-TotalPages'], '0');
    const tag = await makeTerm(fixture, 'tags', { name: 'Blue Sky' });
    const read = await send(fixture.cms, 'GET', `/cms/v2/tags/${tag.id}`);
    assert.deepEqual(Object.keys(read.json), ['id', 'count', 'description', 'link', 'name', 'slug', 'taxonomy', 'meta', '_links']);
    assert.equal(read.json.link, 'http://example.test/tag/blue-sky/');
    assert.equal(read.json.taxonomy, 'post_tag');
    assert.deepEqual(read.json._links['wp:post_type'], [{ href: `http://example.test/cms-json/cms/v2/posts?tags=${tag.id}` }]);
  });
});

describe('single term reads', () => {
  it('404 rest_term_invalid for unknown ids, id 0 and ids of the other taxonomy', async () => {
    const fixture = termsFixture();
    const tag = await makeTerm(fixture, 'tags', { name: 'T' });
    for (const path of ['/cms/v2/categories/999', '/cms/v2/categories/0', `/cms/v2/categories/${tag.id}`, '/cms/v2/tags/1']) {
      const response = await send(fixture.cms, 'GET', path);
      assert.equal(response.status, 404, path);
      assert.deepEqual(response.json, { code: 'rest_term_invalid', message: 'Term does not exist.', data: { status: 404 } });
    }
  });

  it('embed context keeps id, link, name, slug, taxonomy', async () => {
    const { cms } = termsFixture();
    const response = await send(cms, 'GET', '/cms/v2/categories/1?context=embed');
    assert.deepEqual(Object.keys(response.json), ['id', 'link', 'name', 'slug', 'taxonomy', '_links']);
  });

  it('edit context needs the right to edit the term', async () => {
    const fixture = termsFixture();
    const anonymous = await send(fixture.cms, 'GET', '/cms/v2/categories/1?context=edit');
    assert.equal(anonymous.status, 401);
    assert.deepEqual(anonymous.json, {
      code: 'rest_forbidden_context', message: 'Sorry, you are not allowed to edit this term.', data: { status: 401 },
    });
    const author = await send(fixture.cms, 'GET', '/cms/v2/categories/1?context=edit', { user: fixture.author });
    assert.equal(author.status, 403);
    const editor = await send(fixture.cms, 'GET', '/cms/v2/categories/1?context=edit', { user: fixture.editor });
    assert.equal(editor.status, 200);
    assert.equal(editor.json.name, 'Uncategorized');
    assert.equal(editor.headers.Allow, 'GET, POST, PUT, PATCH');
  });

  it('child categories link up to their parent (embeddable) and nest the public link', async () => {
    const fixture = termsFixture();
    const world = await makeTerm(fixture, 'categories', { name: 'World' });
    const europe = await makeTerm(fixture, 'categories', { name: 'Europe', parent: world.id });
    const france = await makeTerm(fixture, 'categories', { name: 'France', parent: europe.id });
    const response = await send(fixture.cms, 'GET', `/cms/v2/categories/${france.id}?_embed=up`);
    assert.equal(response.json.link, 'http://example.test/category/world/europe/france/');
    assert.deepEqual(response.json._links.up, [{ embeddable: true, href: `http://example.test/cms-json/cms/v2/categories/${europe.id}` }]);
    assert.deepEqual(Object.keys(response.json._embedded), ['up']);
    assert.equal(response.json._embedded.up[0].name, 'Europe');
    assert.equal(response.json._embedded.up[0].count, undefined);
    const top = await send(fixture.cms, 'GET', `/cms/v2/categories/${world.id}`);
    assert.equal(top.json._links.up, undefined);
  });

  it('count is the number of published posts carrying the term', async () => {
    const fixture = termsFixture();
    const tag = await makeTerm(fixture, 'tags', { name: 'Counted' });
    await makePost(fixture, { tags: [tag.id] });
    await makePost(fixture, { tags: [tag.id], status: 'draft' });
    await makePost(fixture, { tags: [tag.id], status: 'publish' });
    const response = await send(fixture.cms, 'GET', `/cms/v2/tags/${tag.id}`);
    assert.equal(response.json.count, 2);
  });
});

describe('collection parameters', () => {
  async function fruitTags() {
    const fixture = termsFixture();
    const banana = await makeTerm(fixture, 'tags', { name: 'Banana', description: 'yellow' });
    const apple = await makeTerm(fixture, 'tags', { name: 'apple', description: 'red' });
    const cherry = await makeTerm(fixture, 'tags', { name: 'Cherry', slug: 'a-cherry', description: 'dark red' });
    return { fixture, banana, apple, cherry };
  }
  const list = async (fixture: ReturnType<typeof termsFixture>, query: string, base = 'tags') =>
    send(fixture.cms, 'GET', `/cms/v2/${base}${query}`);

  it('orders by name ascending by default, case-insensitively', async () => {
    const { fixture, banana, apple, cherry } = await fruitTags();
    assert.deepEqual(ids((await list(fixture, '')).json), [apple.id, banana.id, cherry.id]);
    assert.deepEqual(ids((await list(fixture, '?order=desc')).json), [cherry.id, banana.id, apple.id]);
  });

  it('orders by id, slug, description, include and include_slugs', async () => {
    const { fixture, banana, apple, cherry } = await fruitTags();
    assert.deepEqual(ids((await list(fixture, '?orderby=id')).json), [banana.id, apple.id, cherry.id]);
    assert.deepEqual(ids((await list(fixture, '?orderby=slug')).json), [cherry.id, apple.id, banana.id]);
    assert.deepEqual(ids((await list(fixture, '?orderby=description')).json), [cherry.id, apple.id, banana.id]);
    assert.deepEqual(ids((await list(fixture, `?orderby=include&include=${cherry.id},${banana.id}`)).json), [cherry.id, banana.id]);
    assert.deepEqual(ids((await list(fixture, '?orderby=include_slugs&slug=banana,a-cherry,apple')).json), [banana.id, cherry.id, apple.id]);
    // Without an include list, `include` falls back to the name.
    assert.deepEqual(ids((await list(fixture, '?orderby=include')).json), [apple.id, banana.id, cherry.id]);
    const bad = await list(fixture, '?orderby=random');
    assert.equal(bad.status, 400);
    assert.equal(bad.json.code, 'rest_invalid_param');
  });

  it('orders by count', async () => {
    const { fixture, banana, apple, cherry } = await fruitTags();
    await makePost(fixture, { tags: [cherry.id, apple.id] });
    await makePost(fixture, { tags: [cherry.id] });
    assert.deepEqual(ids((await list(fixture, '?orderby=count&order=desc')).json), [cherry.id, apple.id, banana.id]);
  });

  it('include wins over exclude; exclude, slug and search filter', async () => {
    const { fixture, banana, apple, cherry } = await fruitTags();
    assert.deepEqual(ids((await list(fixture, `?include=${apple.id}&exclude=${apple.id}`)).json), [apple.id]);
    assert.deepEqual(ids((await list(fixture, `?exclude=${apple.id}`)).json), [banana.id, cherry.id]);
    assert.deepEqual(ids((await list(fixture, '?slug=Banana')).json), [banana.id]);
    assert.deepEqual(ids((await list(fixture, '?slug[]=apple&slug[]=a-cherry')).json), [apple.id, cherry.id]);
    // Search matches names or slugs, case-insensitively.
    assert.deepEqual(ids((await list(fixture, '?search=AN')).json), [banana.id]);
    assert.deepEqual(ids((await list(fixture, '?search=a-ch')).json), [cherry.id]);
    const searched = await list(fixture, '?search=e');
    assert.deepEqual(ids(searched.json), [apple.id, cherry.id]);
    assert.equal(searched.headers['X-WP-Total'], '2');
  });

  it('pages with per_page and page, and tags accept offset', async () => {
    const { fixture, banana, apple, cherry } = await fruitTags();
    const first = await list(fixture, '?per_page=2');
    assert.deepEqual(ids(first.json), [apple.id, banana.id]);
    assert.equal(first.headers['X-WP-Total'], '3');
    assert.equal(first.headers['X-WP-TotalPages'], '2');
    assert.equal(first.headers.Link, '<http://example.test/cms-json/cms/v2/tags?per_page=2&page=2>; rel="next"');
    const second = await list(fixture, '?per_page=2&page=2');
    assert.deepEqual(ids(second.json), [cherry.id]);
    assert.equal(second.headers.Link, '<http://example.test/cms-json/cms/v2/tags?per_page=2&page=1>; rel="prev"');
    const beyond = await list(fixture, '?per_page=2&page=9');
    assert.equal(beyond.status, 200);
    assert.deepEqual(beyond.json, []);
    const offset = await list(fixture, '?per_page=1&offset=1');
    assert.deepEqual(ids(offset.json), [banana.id]);
    // The page reported is worked out from the offset.
    assert.equal(offset.headers.Link,
      '<http://example.test/cms-json/cms/v2/tags?per_page=1&offset=1&page=1>; rel="prev", <http://example.test/cms-json/cms/v2/tags?per_page=1&offset=1&page=3>; rel="next"');
    const tooMany = await list(fixture, '?per_page=101');
    assert.equal(tooMany.status, 400);
    assert.equal(tooMany.json.data.params.per_page, 'per_page must be between 1 (inclusive) and 100 (inclusive)');
  });

  it('categories ignore offset and filter by parent', async () => {
    const fixture = termsFixture();
    const top = await makeTerm(fixture, 'categories', { name: 'Top' });
    const child = await makeTerm(fixture, 'categories', { name: 'Child', parent: top.id });
    const all = await list(fixture, '?offset=1', 'categories');
    assert.deepEqual(ids(all.json), [child.id, top.id, 1]);
    assert.deepEqual(ids((await list(fixture, '?parent=0', 'categories')).json), [top.id, 1]);
    assert.deepEqual(ids((await list(fixture, `?parent=${top.id}`, 'categories')).json), [child.id]);
    assert.deepEqual(ids((await list(fixture, '?parent=999', 'categories')).json), []);
  });

  it('hide_empty: tags need posts; categories stay when a descendant has posts, but the total counts only non-empty ones', async () => {
    const fixture = termsFixture();
    const used = await makeTerm(fixture, 'tags', { name: 'Used' });
    await makeTerm(fixture, 'tags', { name: 'Unused' });
    await makePost(fixture, { tags: [used.id] });
    const tags = await list(fixture, '?hide_empty=true');
    assert.deepEqual(ids(tags.json), [used.id]);
    assert.equal(tags.headers['X-WP-Total'], '1');

    const parent = await makeTerm(fixture, 'categories', { name: 'Parent' });
    const middle = await makeTerm(fixture, 'categories', { name: 'Middle', parent: parent.id });
    const leaf = await makeTerm(fixture, 'categories', { name: 'Leaf', parent: middle.id });
    await makeTerm(fixture, 'categories', { name: 'Lonely' });
    await makePost(fixture, { categories: [leaf.id] });
    await makePost(fixture, { categories: [parent.id], status: 'draft' });
    const categories = await list(fixture, '?hide_empty=1', 'categories');
    assert.deepEqual(ids(categories.json), [leaf.id, middle.id, parent.id]);
    assert.equal(categories.headers['X-WP-Total'], '1');
  });

  it('validates list parameters', async () => {
    const { cms } = termsFixture();
    const response = await send(cms, 'GET', '/cms/v2/tags?include=abc&hide_empty=maybe');
    assert.equal(response.status, 400);
    assert.deepEqual(Object.keys(response.json.data.params).sort(), ['hide_empty', 'include']);
    const context = await send(cms, 'GET', '/cms/v2/tags?context=nope');
    assert.equal(context.json.data.params.context, 'context is not one of view, embed, and edit.');
  });

  it('context=edit on the list needs the taxonomy edit capability', async () => {
    const fixture = termsFixture();
    const anonymous = await send(fixture.cms, 'GET', '/cms/v2/tags?context=edit');
    assert.equal(anonymous.status, 401);
    assert.equal(anonymous.json.code, 'rest_forbidden_context');
    assert.equal(anonymous.json.message, 'Sorry, you are not allowed to edit terms in this taxonomy.');
    assert.equal((await send(fixture.cms, 'GET', '/cms/v2/categories?context=edit', { user: fixture.author })).status, 403);
    assert.equal((await send(fixture.cms, 'GET', '/cms/v2/categories?context=edit', { user: fixture.editor })).status, 200);
  });
});

describe('the post filter', () => {
  it('lists the terms of a post, with the same filters and paging', async () => {
    const fixture = termsFixture();
    const a = await makeTerm(fixture, 'categories', { name: 'Alpha' });
    const b = await makeTerm(fixture, 'categories', { name: 'Beta' });
    await makeTerm(fixture, 'categories', { name: 'Gamma' });
    const postId = await makePost(fixture, { categories: [b.id, a.id, 555] });
    const response = await send(fixture.cms, 'GET', `/cms/v2/categories?post=${postId}`);
    assert.deepEqual(ids(response.json), [a.id, b.id]);
    assert.equal(response.headers['X-WP-Total'], '2');
    assert.deepEqual(ids((await send(fixture.cms, 'GET', `/cms/v2/categories?post=${postId}&exclude=${a.id}`)).json), [b.id]);
    // hide_empty does not apply to a post's own terms: the draft post's terms show.
    const draft = await makePost(fixture, { categories: [a.id], status: 'draft', author: 3 });
    const asAuthor = await send(fixture.cms, 'GET', `/cms/v2/categories?post=${draft}&hide_empty=true`, { user: fixture.author });
    assert.deepEqual(ids(asAuthor.json), [a.id]);
    const tags = await send(fixture.cms, 'GET', `/cms/v2/tags?post=${postId}`);
    assert.deepEqual(tags.json, []);
  });

  it('unknown post → 400 rest_post_invalid_id; post 0 means no filter', async () => {
    const { cms } = termsFixture();
    const response = await send(cms, 'GET', '/cms/v2/categories?post=12345');
    assert.equal(response.status, 400);
    assert.deepEqual(response.json, { code: 'rest_post_invalid_id', message: 'Invalid post ID.', data: { status: 400 } });
    assert.equal((await send(cms, 'GET', '/cms/v2/categories?post=0')).json.length, 1);
  });

  it('terms of unpublished posts need read access; pages have none', async () => {
    const fixture = termsFixture();
    const draft = await makePost(fixture, { categories: [1], status: 'draft', author: 1 });
    const anonymous = await send(fixture.cms, 'GET', `/cms/v2/categories?post=${draft}`);
    assert.equal(anonymous.status, 401);
    assert.deepEqual(anonymous.json, {
      code: 'rest_forbidden_context', message: 'Sorry, you are not allowed to view terms for this post.', data: { status: 401 },
    });
    assert.equal((await send(fixture.cms, 'GET', `/cms/v2/categories?post=${draft}`, { user: fixture.author })).status, 403);
    assert.equal((await send(fixture.cms, 'GET', `/cms/v2/categories?post=${draft}`, { user: fixture.editor })).status, 200);
    const page = await makePost(fixture, { type: 'page', categories: [1] });
    assert.equal((await send(fixture.cms, 'GET', `/cms/v2/categories?post=${page}`, { user: fixture.admin })).status, 403);
  });
});
