import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { send } from '../../helpers/request.js';
import { makePost, makeTerm, termsFixture } from './setup.js';

describe('POST /cms/v2/categories and /tags', () => {
  it('creates a term: 201, Location, edit-context body, sanitised name and description', async () => {
    const fixture = termsFixture();
    const response = await send(fixture.cms, 'POST', '/cms/v2/categories', {
      json: { name: ' Tom & <em>Jerry</em> ', description: 'A <strong>cat</strong> <script>x</script>', meta: { unknown: 1 } },
      user: fixture.editor,
    });
    assert.equal(response.status, 201);
    const id = response.json.id;
    assert.equal(response.headers.Location, `http://example.test/cms-json/cms/v2/categories/${id}`);
    const { _links: _ignored, ...fields } = response.json;
    assert.deepEqual(fields, {
      id, count: 0, description: 'A <strong>cat</strong> x', link: 'http://example.test/category/tom-jerry/',
      name: 'Tom &amp; Jerry', slug: 'tom-jerry', taxonomy: 'category', parent: 0, meta: [],
    });
    const stored = await fixture.cms.deps.storage.get('terms', id);
    assert.equal(stored?.name, 'Tom &amp; Jerry');
  });

  it('permissions: categories need manage_categories, tags only edit_posts', async () => {
    const fixture = termsFixture();
    const anonymous = await send(fixture.cms, 'POST', '/cms/v2/categories', { json: { name: 'X' } });
    assert.equal(anonymous.status, 401);
    assert.deepEqual(anonymous.json, {
      code: 'rest_cannot_create', message: 'Sorry, you are not allowed to create terms in this taxonomy.', data: { status: 401 },
    });
    assert.equal((await send(fixture.cms, 'POST', '/cms/v2/categories', { json: { name: 'X' }, user: fixture.author })).status, 403);
    assert.equal((await send(fixture.cms, 'POST', '/cms/v2/tags', { json: { name: 'X' }, user: fixture.subscriber })).status, 403);
    assert.equal((await send(fixture.cms, 'POST', '/cms/v2/tags', { json: { name: 'X' }, user: fixture.contributor })).status, 201);
    assert.equal((await send(fixture.cms, 'POST', '/cms/v2/categories', { json: { name: 'X' }, user: fixture.editor })).status, 201);
  });

  it('needs a name, which must not be blank', async () => {
    const fixture = termsFixture();
    const missing = await send(fixture.cms, 'POST', '/cms/v2/tags', { json: { slug: 'x' }, user: fixture.admin });
    assert.equal(missing.status, 400);
    assert.deepEqual(missing.json, { code: 'rest_missing_callback_param', message: 'Missing parameter(s): name', data: { status: 400, params: ['name'] } });
    const blank = await send(fixture.cms, 'POST', '/cms/v2/tags', { json: { name: '  <b></b> ' }, user: fixture.admin });
    assert.equal(blank.status, 400);
    assert.deepEqual(blank.json, { code: 'empty_term_name', message: 'A name is required for this term.', data: { status: 400 } });
    const before = (await send(fixture.cms, 'GET', '/cms/v2/categories?hide_empty=false')).headers['X-WP-Total'];
    const empty = await send(fixture.cms, 'POST', '/cms/v2/categories?name=', { user: fixture.editor });
    assert.deepEqual([empty.status, empty.json.code, empty.json.data.status], [400, 'empty_term_name', 400]);
    assert.equal((await send(fixture.cms, 'GET', '/cms/v2/categories?hide_empty=false')).headers['X-WP-Total'], before);
    const typed = await send(fixture.cms, 'POST', '/cms/v2/tags', { json: { name: ['x'] }, user: fixture.admin });
    assert.equal(typed.status, 400);
    assert.equal(typed.json.data.params.name, 'name is not of type string.');
  });

  it('term_exists: a tag name may appear once; a category name once per parent', async () => {
    const fixture = termsFixture();
    const tag = await makeTerm(fixture, 'tags', { name: 'Solo' });
    const duplicateTag = await send(fixture.cms, 'POST', '/cms/v2/tags', { json: { name: 'solo' }, user: fixture.admin });
    assert.equal(duplicateTag.status, 400);
    assert.deepEqual(duplicateTag.json, {
      code: 'term_exists', message: 'A term with the name provided already exists in this taxonomy.', data: { status: 400, term_id: tag.id },
      // The data the reference's error held first: the id from wp_insert_term, then the one its controller adds.
      additional_data: [tag.id, tag.id],
    });
    assert.deepEqual(Object.keys(duplicateTag.json), ['code', 'message', 'data', 'additional_data']);
    // A different, free slug makes the same name acceptable.
    assert.equal((await send(fixture.cms, 'POST', '/cms/v2/tags', { json: { name: 'Solo', slug: 'solo-two' }, user: fixture.admin })).status, 201);

    const parent = await makeTerm(fixture, 'categories', { name: 'Parent' });
    const child = await makeTerm(fixture, 'categories', { name: 'Child', parent: parent.id });
    const duplicateChild = await send(fixture.cms, 'POST', '/cms/v2/categories', { json: { name: 'Child', parent: parent.id }, user: fixture.admin });
    assert.deepEqual(duplicateChild.json, {
      code: 'term_exists', message: 'A term with the name provided already exists with this parent.', data: { status: 400, term_id: child.id },
      additional_data: [child.id, child.id],
    });
    const elsewhere = await send(fixture.cms, 'POST', '/cms/v2/categories', { json: { name: 'Child' }, user: fixture.admin });
    assert.equal(elsewhere.status, 201);
    assert.equal(elsewhere.json.slug, 'child-2');
  });

  it('parent: must be an existing category; tags take none', async () => {
    const fixture = termsFixture();
    const tag = await makeTerm(fixture, 'tags', { name: 'T' });
    for (const parent of [999, tag.id, -3]) {
      const response = await send(fixture.cms, 'POST', '/cms/v2/categories', { json: { name: 'C', parent }, user: fixture.admin });
      assert.equal(response.status, 400, String(parent));
      assert.deepEqual(response.json, { code: 'rest_term_invalid', message: 'Parent term does not exist.', data: { status: 400 } });
    }
    const topLevel = await send(fixture.cms, 'POST', '/cms/v2/categories', { json: { name: 'C', parent: 0 }, user: fixture.admin });
    assert.equal(topLevel.status, 201);
    const tagParent = await send(fixture.cms, 'POST', '/cms/v2/tags', { json: { name: 'U', parent: 0 }, user: fixture.admin });
    assert.deepEqual(tagParent.json, {
      code: 'rest_taxonomy_not_hierarchical', message: 'Cannot set parent term, taxonomy is not hierarchical.', data: { status: 400 },
    });
    const badType = await send(fixture.cms, 'POST', '/cms/v2/categories', { json: { name: 'D', parent: 'x' }, user: fixture.admin });
    assert.equal(badType.json.data.params.parent, 'parent is not of type integer.');
  });

  it('slug: sanitised, and numbered when taken', async () => {
    const fixture = termsFixture();
    const first = await makeTerm(fixture, 'tags', { name: 'One', slug: 'Hello World!' });
    assert.equal(first.slug, 'hello-world');
    const second = await makeTerm(fixture, 'tags', { name: 'Two', slug: 'hello-world' });
    assert.equal(second.slug, 'hello-world-2');
  });

  it('runs in a batch, as the reference\'s term routes', async () => {
    const fixture = termsFixture();
    const response = await send(fixture.cms, 'POST', '/batch/v1', {
      json: { requests: [{ path: '/cms/v2/tags', body: { name: 'Batched' } }, { path: '/cms/v2/categories', body: { name: 'Batched' } }] },
      user: fixture.admin,
    });
    assert.equal(response.status, 207);
    assert.deepEqual(response.json.responses.map((entry: { status: number }) => entry.status), [201, 201]);
    assert.equal((await send(fixture.cms, 'GET', '/cms/v2/tags?search=Batched')).json.length, 1);
    assert.equal((await send(fixture.cms, 'GET', '/cms/v2/categories?search=Batched')).json.length, 1);
  });
});

describe('POST /cms/v2/categories/{id} (update)', () => {
  it('changes only the sent fields', async () => {
    const fixture = termsFixture();
    const term = await makeTerm(fixture, 'categories', { name: 'Old', description: 'keep' });
    const response = await send(fixture.cms, 'PUT', `/cms/v2/categories/${term.id}`, { json: { name: 'New <i>name</i>' }, user: fixture.editor });
    assert.equal(response.status, 200);
    assert.equal(response.json.name, 'New name');
    assert.equal(response.json.slug, 'old');
    assert.equal(response.json.description, 'keep');
    const nothing = await send(fixture.cms, 'PATCH', `/cms/v2/categories/${term.id}`, { json: {}, user: fixture.editor });
    assert.equal(nothing.json.name, 'New name');
  });

  it('permissions and missing terms', async () => {
    const fixture = termsFixture();
    const tag = await makeTerm(fixture, 'tags', { name: 'T' });
    const author = await send(fixture.cms, 'POST', `/cms/v2/tags/${tag.id}`, { json: { name: 'U' }, user: fixture.author });
    assert.equal(author.status, 403);
    assert.deepEqual(author.json, { code: 'rest_cannot_update', message: 'Sorry, you are not allowed to edit this term.', data: { status: 403 } });
    const missing = await send(fixture.cms, 'POST', '/cms/v2/tags/999', { json: { name: 'U' }, user: fixture.admin });
    assert.equal(missing.status, 404);
    assert.equal(missing.json.code, 'rest_term_invalid');
  });

  it('slug: a taken one is refused unless the parent changes; an empty one is remade from the name', async () => {
    const fixture = termsFixture();
    const a = await makeTerm(fixture, 'categories', { name: 'A' });
    const b = await makeTerm(fixture, 'categories', { name: 'B' });
    const taken = await send(fixture.cms, 'POST', `/cms/v2/categories/${b.id}`, { json: { slug: 'a' }, user: fixture.admin });
    assert.equal(taken.status, 400);
    assert.deepEqual(taken.json, {
      code: 'duplicate_term_slug', message: 'The slug &#8220;a&#8221; is already in use by another term.', data: { status: 400 },
    });
    const moved = await send(fixture.cms, 'POST', `/cms/v2/categories/${b.id}`, { json: { slug: 'a', parent: a.id }, user: fixture.admin });
    assert.equal(moved.status, 200);
    assert.equal(moved.json.slug, 'a-a');
    assert.equal(moved.json.parent, a.id);
    const remade = await send(fixture.cms, 'POST', `/cms/v2/categories/${b.id}`, { json: { slug: '' }, user: fixture.admin });
    assert.equal(remade.json.slug, 'b');
  });

  it('parent: checked like on create; a loop makes the term top-level', async () => {
    const fixture = termsFixture();
    const top = await makeTerm(fixture, 'categories', { name: 'Top' });
    const child = await makeTerm(fixture, 'categories', { name: 'Child', parent: top.id });
    const missing = await send(fixture.cms, 'POST', `/cms/v2/categories/${top.id}`, { json: { parent: 999 }, user: fixture.admin });
    assert.equal(missing.status, 400);
    assert.equal(missing.json.code, 'rest_term_invalid');
    const loop = await send(fixture.cms, 'POST', `/cms/v2/categories/${top.id}`, { json: { parent: child.id }, user: fixture.admin });
    assert.equal(loop.json.parent, 0);
    const tag = await makeTerm(fixture, 'tags', { name: 'T' });
    const tagParent = await send(fixture.cms, 'POST', `/cms/v2/tags/${tag.id}`, { json: { parent: 1 }, user: fixture.admin });
    assert.equal(tagParent.json.code, 'rest_taxonomy_not_hierarchical');
  });
});

describe('DELETE /cms/v2/categories/{id}', () => {
  it('needs force=true: 501 rest_trash_not_supported', async () => {
    const fixture = termsFixture();
    const term = await makeTerm(fixture, 'tags', { name: 'T' });
    const response = await send(fixture.cms, 'DELETE', `/cms/v2/tags/${term.id}`, { user: fixture.admin });
    assert.equal(response.status, 501);
    assert.deepEqual(response.json, {
      code: 'rest_trash_not_supported', message: "Terms do not support trashing. Set 'force=true' to delete.", data: { status: 501 },
    });
    assert.notEqual(await fixture.cms.deps.storage.get('terms', term.id), null);
  });

  it('deletes with force, answering the previous record; posts and children follow', async () => {
    const fixture = termsFixture();
    const top = await makeTerm(fixture, 'categories', { name: 'Top' });
    const middle = await makeTerm(fixture, 'categories', { name: 'Middle', parent: top.id });
    const leaf = await makeTerm(fixture, 'categories', { name: 'Leaf', parent: middle.id });
    const post = await makePost(fixture, { categories: [middle.id] });
    const response = await send(fixture.cms, 'DELETE', `/cms/v2/categories/${middle.id}?force=true`, { user: fixture.editor });
    assert.equal(response.status, 200);
    assert.deepEqual(response.json, {
      deleted: true,
      previous: {
        id: middle.id, count: 1, description: '', link: 'http://example.test/category/top/middle/', name: 'Middle',
        slug: 'middle', taxonomy: 'category', parent: top.id, meta: [],
      },
    });
    assert.equal((await send(fixture.cms, 'GET', `/cms/v2/categories/${middle.id}`)).status, 404);
    assert.equal((await send(fixture.cms, 'GET', `/cms/v2/categories/${leaf.id}`)).json.parent, top.id);
    assert.deepEqual((await fixture.cms.deps.storage.get('posts', post))?.categories, [1]);
  });

  it('the default category cannot be deleted; others need the delete capability', async () => {
    const fixture = termsFixture();
    const response = await send(fixture.cms, 'DELETE', '/cms/v2/categories/1?force=true', { user: fixture.admin });
    assert.equal(response.status, 403);
    assert.deepEqual(response.json, { code: 'rest_cannot_delete', message: 'Sorry, you are not allowed to delete this term.', data: { status: 403 } });
    const tag = await makeTerm(fixture, 'tags', { name: 'T' });
    assert.equal((await send(fixture.cms, 'DELETE', `/cms/v2/tags/${tag.id}?force=true`)).status, 401);
    assert.equal((await send(fixture.cms, 'DELETE', `/cms/v2/tags/${tag.id}?force=true`, { user: fixture.author })).status, 403);
    assert.equal((await send(fixture.cms, 'DELETE', '/cms/v2/tags/999?force=true', { user: fixture.admin })).status, 404);
  });
});

describe('route index', () => {
  it('describes the terms routes with their arguments and allow_batch, as the reference', async () => {
    const { cms } = termsFixture();
    const index = (await send(cms, 'GET', '/cms/v2')).json;
    const categories = index.routes['/cms/v2/categories'];
    assert.deepEqual(categories.methods, ['GET', 'POST']);
    for (const pattern of ['/cms/v2/categories', '/cms/v2/categories/(?P<id>[\\d]+)', '/cms/v2/tags', '/cms/v2/tags/(?P<id>[\\d]+)']) {
      for (const endpoint of index.routes[pattern].endpoints) assert.deepEqual(endpoint.allow_batch, { v1: true }, pattern);
    }
    assert.deepEqual(Object.keys(categories.endpoints[0].args), [
      'context', 'page', 'per_page', 'search', 'exclude', 'include', 'order', 'orderby', 'hide_empty', 'parent', 'post', 'slug',
    ]);
    assert.deepEqual(categories.endpoints[0].args.post, { description: 'Limit result set to terms assigned to a specific post.', type: 'integer', default: null, required: false });
    assert.deepEqual(Object.keys(categories.endpoints[1].args), ['description', 'name', 'slug', 'parent', 'meta']);
    assert.equal(categories.endpoints[1].args.name.required, true);
    const tags = index.routes['/cms/v2/tags'];
    assert.deepEqual(Object.keys(tags.endpoints[0].args), [
      'context', 'page', 'per_page', 'search', 'exclude', 'include', 'offset', 'order', 'orderby', 'hide_empty', 'post', 'slug',
    ]);
    assert.deepEqual(Object.keys(tags.endpoints[1].args), ['description', 'name', 'slug', 'meta']);
    const single = index.routes['/cms/v2/tags/(?P<id>[\\d]+)'];
    assert.deepEqual(single.methods, ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);
    assert.equal(single.endpoints[1].args.name.required, false);
    assert.deepEqual(single.endpoints[2].args.force, {
      description: 'Required to be true, as terms do not support trashing.', type: 'boolean', default: false, required: false,
    });
  });
});

describe('posts carrying terms', () => {
  it('term counts follow posts written through the posts routes', async () => {
    const fixture = termsFixture();
    const term = await makeTerm(fixture, 'categories', { name: 'Counted' });
    const tag = await makeTerm(fixture, 'tags', { name: 'Tagged' });
    const count = async (base: string, id: number) => (await send(fixture.cms, 'GET', `/cms/v2/${base}/${id}`)).json.count;
    const draft = await send(fixture.cms, 'POST', '/cms/v2/posts', {
      json: { title: 'Draft', status: 'draft', categories: [term.id], tags: [tag.id] }, user: fixture.admin,
    });
    assert.equal(draft.status, 201);
    assert.equal(await count('categories', term.id), 0);
    const published = await send(fixture.cms, 'POST', `/cms/v2/posts/${draft.json.id}`, { json: { status: 'publish' }, user: fixture.admin });
    assert.equal(published.status, 200);
    assert.equal(await count('categories', term.id), 1);
    assert.equal(await count('tags', tag.id), 1);
    await send(fixture.cms, 'POST', `/cms/v2/posts/${draft.json.id}`, { json: { categories: [1] }, user: fixture.admin });
    assert.equal(await count('categories', term.id), 0);
    assert.equal(await count('categories', 1), 1);
    await send(fixture.cms, 'DELETE', `/cms/v2/posts/${draft.json.id}`, { user: fixture.admin });
    assert.equal(await count('categories', 1), 0);
    assert.equal(await count('tags', tag.id), 0);
  });

  it('a post embeds its terms through wp:term', async () => {
    const fixture = termsFixture();
    const term = await makeTerm(fixture, 'categories', { name: 'Embedded' });
    const created = await send(fixture.cms, 'POST', '/cms/v2/posts', {
      json: { title: 'P', status: 'publish', categories: [term.id] }, user: fixture.admin,
    });
    const response = await send(fixture.cms, 'GET', `/cms/v2/posts/${created.json.id}?_embed=wp:term`);
    const [categories, tags] = response.json._embedded['wp:term'];
    assert.deepEqual(categories.map((entry: { id: number }) => entry.id), [term.id]);
    assert.deepEqual(Object.keys(categories[0]), ['id', 'link', 'name', 'slug', 'taxonomy', '_links']);
    assert.deepEqual(tags, []);
  });
});
