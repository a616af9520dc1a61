import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { makeSite } from './helpers.js';

describe('posts: create, read, update, delete', () => {
  it('creates a post (201, Location, edit context) with the reference defaults', async () => {
    const site = await makeSite();
    const response = await site.admin('POST', '/cms/v2/posts', {
      json: { title: 'Hello "World"', content: "First para -- with 'quotes'...\n\nSecond line\nthird", status: 'publish' },
    });
    assert.equal(response.status, 201);
    const post = response.json;
    assert.equal(response.headers.Location, `http://example.test/cms-json/cms/v2/posts/${post.id}`);
    assert.equal(post.date, '2026-11-21T17:11:35');
    assert.equal(post.date_gmt, '2026-11-21T17:11:35');
    assert.equal(post.modified, '2026-11-21T17:11:35');
    assert.equal(post.slug, 'hello-world');
    assert.equal(post.status, 'publish');
    assert.equal(post.type, 'post');
    assert.equal(post.link, 'http://example.test/2026/11/21/hello-world/');
    assert.deepEqual(post.guid, { rendered: post.link, raw: post.link });
    assert.deepEqual(post.title, { raw: 'Hello "World"', rendered: 'Hello &#8220;World&#8221;' });
    assert.equal(post.content.rendered, '<p>First para &#8212; with &#8216;quotes&#8217;&#8230;</p>\n<p>Second line<br />\nthird</p>\n');
    assert.equal(post.content.block_version, 0);
    assert.equal(post.content.protected, false);
    assert.equal(post.excerpt.rendered, '<p>First para &#8212; with &#8216;quotes&#8217;&#8230; Second line third</p>\n');
    assert.equal(post.author, site.ids.administrator);
    assert.equal(post.featured_media, 0);
    assert.equal(post.comment_status, 'open');
    assert.equal(post.ping_status, 'open');
    assert.equal(post.sticky, false);
    assert.equal(post.template, '');
    assert.equal(post.format, 'standard');
    assert.deepEqual(post.meta, { footnotes: '' });
    assert.deepEqual(post.categories, [1]);
    assert.deepEqual(post.tags, []);
    assert.equal(post.password, '');
    assert.equal(post.permalink_template, 'http://example.test/2026/11/21/%postname%/');
    assert.equal(post.generated_slug, 'hello-world');
    assert.deepEqual(Object.keys(post).slice(0, 12), [
      'id', 'date', 'date_gmt', 'guid', 'modified', 'modified_gmt', 'password', 'slug', 'status', 'type', 'link', 'title',
    ]);
  });

  it('answers a create in the edit context even when another context is asked for', async () => {
    const site = await makeSite();
    const response = await site.admin('POST', '/cms/v2/posts?context=view', { json: { title: 'T' } });
    assert.equal(response.status, 201);
    assert.equal(response.json.title.raw, 'T');
    assert.equal(response.json.password, '');
  });

  it('reads a post in view, embed and edit contexts', async () => {
    const site = await makeSite();
    const post = await site.create({ title: 'Read me', content: 'Body', status: 'publish' });
    const view = await site.anonymous('GET', `/cms/v2/posts/${post.id}`);
    assert.equal(view.status, 200);
    assert.equal(view.json.title.raw, undefined);
    assert.equal(view.json.title.rendered, 'Read me');
    assert.equal(view.json.password, undefined);
    assert.equal(view.json.content.block_version, undefined);
    assert.equal(view.headers.Link?.includes('<http://example.test/2026/11/21/read-me/>; rel="alternate"; type=text/html'), true);

    const embed = await site.anonymous('GET', `/cms/v2/posts/${post.id}?context=embed`);
    assert.deepEqual(Object.keys(embed.json), ['id', 'date', 'slug', 'type', 'link', 'title', 'excerpt', 'author', 'featured_media', '_links']);
    assert.deepEqual(Object.keys(embed.json.excerpt), ['rendered', 'protected']);

    const edit = await site.admin('GET', `/cms/v2/posts/${post.id}?context=edit`);
    assert.equal(edit.json.title.raw, 'Read me');
    assert.equal(edit.json.content.raw, 'Body');
    assert.equal(edit.json.generated_slug, 'read-me');
  });

  it('answers unknown ids, ids of another type and id 0 with rest_post_invalid_id 404', async () => {
    const site = await makeSite();
    const page = await site.create({ title: 'A page', status: 'publish' }, { base: 'pages' });
    for (const path of ['/cms/v2/posts/999', `/cms/v2/posts/${page.id}`, '/cms/v2/posts/0']) {
      const response = await site.anonymous('GET', path);
      assert.equal(response.status, 404, path);
      assert.equal(response.json.code, 'rest_post_invalid_id');
      assert.equal(response.json.message, 'Invalid post ID.');
    }
    const update = await site.admin('POST', '/cms/v2/posts/999', { json: { title: 'x' } });
    assert.equal(update.json.code, 'rest_post_invalid_id');
    const remove = await site.admin('DELETE', '/cms/v2/posts/999');
    assert.equal(remove.json.code, 'rest_post_invalid_id');
    const nonNumeric = await site.anonymous('GET', '/cms/v2/posts/abc');
    assert.equal(nonNumeric.json.code, 'rest_no_route');
  });

  it('updates only the fields sent, with POST, PUT and PATCH alike', async () => {
    const site = await makeSite();
    const post = await site.create({ title: 'Before', content: 'Body', excerpt: 'Ex', status: 'publish' });
    site.clock.advance(3_600_000);
    for (const method of ['POST', 'PUT', 'PATCH']) {
      const response = await site.admin(method, `/cms/v2/posts/${post.id}`, { json: { title: `After ${method}` } });
      assert.equal(response.status, 200);
      assert.equal(response.json.title.raw, `After ${method}`);
      assert.equal(response.json.content.raw, 'Body');
      assert.equal(response.json.excerpt.raw, 'Ex');
      assert.equal(response.json.slug, 'before');
      assert.equal(response.json.date, '2026-11-21T17:11:35');
      assert.equal(response.json.modified, '2026-11-21T18:11:35');
    }
  });

  it('accepts title, content and excerpt as strings or {raw} objects', async () => {
    const site = await makeSite();
    const post = await site.create({ title: { raw: 'Object title' }, content: { raw: 'Object content' }, excerpt: 'Plain' });
    assert.equal(post.title.raw, 'Object title');
    assert.equal(post.content.raw, 'Object content');
    // An empty raw title is ignored; the empty string clears it. Content {raw: ""} clears.
    const ignored = await site.admin('POST', `/cms/v2/posts/${post.id}`, { json: { title: { raw: '' }, content: { raw: '' } } });
    assert.equal(ignored.json.title.raw, 'Object title');
    assert.equal(ignored.json.content.raw, '');
    const cleared = await site.admin('POST', `/cms/v2/posts/${post.id}`, { json: { title: '' } });
    assert.equal(cleared.json.title.raw, '');
  });

  it('refuses an id on create with rest_post_exists', async () => {
    const site = await makeSite();
    const response = await site.admin('POST', '/cms/v2/posts', { json: { id: 5, title: 'x' } });
    assert.equal(response.status, 400);
    assert.equal(response.json.code, 'rest_post_exists');
    assert.equal(response.json.message, 'Cannot create existing post.');
  });

  it('trashes, refuses to trash twice (410), then deletes for good with the previous record', async () => {
    const site = await makeSite();
    const post = await site.create({ title: 'Doomed', status: 'publish' });
    const trashed = await site.admin('DELETE', `/cms/v2/posts/${post.id}`);
    assert.equal(trashed.status, 200);
    assert.equal(trashed.json.status, 'trash');
    assert.equal(trashed.headers.Allow, 'GET, POST, PUT, PATCH, DELETE', 'a trashed post is still there to read and edit');
    assert.equal(trashed.json.slug, 'doomed__trashed');
    assert.equal(trashed.json.title.raw, 'Doomed');

    const again = await site.admin('DELETE', `/cms/v2/posts/${post.id}`);
    assert.equal(again.status, 410);
    assert.equal(again.json.code, 'rest_already_trashed');
    assert.equal(again.json.message, 'The post has already been deleted.');

    const gone = await site.admin('DELETE', `/cms/v2/posts/${post.id}?force=true`);
    assert.equal(gone.status, 200);
    assert.equal(gone.json.deleted, true);
    assert.equal(gone.json.previous.id, post.id);
    assert.equal(gone.json.previous.status, 'trash');
    assert.equal(gone.json.previous.title.raw, 'Doomed');
    assert.equal(gone.json.previous._links, undefined);
    assert.equal(gone.headers.Allow, undefined, 'nothing is allowed on a post that is gone, as the reference answers');
    const after = await site.admin('GET', `/cms/v2/posts/${post.id}`);
    assert.equal(after.status, 404);
  });

  it('restores the wanted slug when a trashed post is given another status', async () => {
    const site = await makeSite();
    const post = await site.create({ title: 'Comeback', status: 'publish' });
    await site.admin('DELETE', `/cms/v2/posts/${post.id}`);
    const restored = await site.admin('POST', `/cms/v2/posts/${post.id}`, { json: { status: 'draft' } });
    assert.equal(restored.json.status, 'draft');
    assert.equal(restored.json.slug, 'comeback');
  });

  it('answers 501 rest_trash_not_supported when the trash is switched off', async () => {
    const site = await makeSite({ posts: { trash: false } });
    const post = await site.create({ title: 'No trash', status: 'publish' });
    const response = await site.admin('DELETE', `/cms/v2/posts/${post.id}`);
    assert.equal(response.status, 501);
    assert.equal(response.json.code, 'rest_trash_not_supported');
    assert.equal(response.json.message, "The post does not support trashing. Set 'force=true' to delete.");
  });

  it('force-deleting a page moves its children up and removes its revisions', async () => {
    const site = await makeSite();
    const grandparent = await site.create({ title: 'Top', status: 'publish' }, { base: 'pages' });
    const parent = await site.create({ title: 'Middle', status: 'publish', parent: grandparent.id }, { base: 'pages' });
    const child = await site.create({ title: 'Bottom', status: 'publish', parent: parent.id }, { base: 'pages' });
    const storage = site.cms.deps.storage;
    const revision = await storage.insert('posts', { type: 'revision', status: 'inherit', parent: parent.id, date: '2026-11-21T17:11:35' });
    const response = await site.admin('DELETE', `/cms/v2/pages/${parent.id}?force=true`);
    assert.equal(response.json.deleted, true);
    const moved = await site.admin('GET', `/cms/v2/pages/${child.id}`);
    assert.equal(moved.json.parent, grandparent.id);
    assert.equal(await storage.get('posts', revision.id), null);
  });

  it('marks every post and page endpoint for batches in the route index', async () => {
    const site = await makeSite();
    const index = await site.anonymous('GET', '/cms/v2');
    for (const route of ['/cms/v2/posts', '/cms/v2/posts/(?P<id>[\\d]+)', '/cms/v2/pages', '/cms/v2/pages/(?P<id>[\\d]+)']) {
      const entry = index.json.routes[route];
      assert.ok(entry, route);
      for (const endpoint of entry.endpoints) assert.deepEqual(endpoint.allow_batch, { v1: true }, route);
    }
    const single = index.json.routes['/cms/v2/posts/(?P<id>[\\d]+)'];
    assert.deepEqual(Object.keys(single.endpoints[0].args), ['id', 'context', 'excerpt_length', 'password']);
    assert.deepEqual(single.endpoints[0].args.context.enum, ['view', 'embed', 'edit']);
    assert.deepEqual(single.endpoints[2].args.force, { description: single.endpoints[2].args.force.description, type: 'boolean', default: false, required: false });
    const create = index.json.routes['/cms/v2/posts'].endpoints[1].args;
    assert.deepEqual(Object.keys(create), [
      'date', 'date_gmt', 'slug', 'status', 'password', 'title', 'content', 'author', 'excerpt', 'featured_media',
      'comment_status', 'ping_status', 'format', 'meta', 'sticky', 'template', 'categories', 'tags',
    ]);
    const pageCreate = index.json.routes['/cms/v2/pages'].endpoints[1].args;
    assert.deepEqual(Object.keys(pageCreate), [
      'date', 'date_gmt', 'slug', 'status', 'password', 'parent', 'title', 'content', 'author', 'excerpt', 'featured_media',
      'comment_status', 'ping_status', 'menu_order', 'meta', 'template',
    ]);
  });
});
