import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { insertTerm } from '../../../src/content/taxonomy/index.js';
import { makeSite } from './helpers.js';

describe('posts: writable fields and their validation', () => {
  it('rejects a malformed date with rest_invalid_date inside rest_invalid_param', async () => {
    const site = await makeSite();
    const response = await site.admin('POST', '/cms/v2/posts', { json: { title: 'x', date: 'yesterday' } });
    assert.equal(response.status, 400);
    assert.equal(response.json.code, 'rest_invalid_param');
    assert.equal(response.json.message, 'Invalid parameter(s): date');
    assert.equal(response.json.data.details.date.code, 'rest_invalid_date');
    assert.equal(response.json.data.params.date, 'Invalid date.');
  });

  it('rejects statuses, comment and ping statuses and formats outside their lists', async () => {
    const site = await makeSite();
    const cases: [string, unknown, string][] = [
      ['status', 'trash', 'status is not one of publish, future, draft, pending, and private.'],
      ['comment_status', 'maybe', 'comment_status is not one of open and closed.'],
      ['ping_status', 'maybe', 'ping_status is not one of open and closed.'],
      ['format', 'novel', 'format is not one of standard, aside, chat, gallery, link, image, quote, status, video, and audio.'],
    ];
    for (const [field, value, message] of cases) {
      const response = await site.admin('POST', '/cms/v2/posts', { json: { title: 'x', [field]: value } });
      assert.equal(response.status, 400, field);
      assert.equal(response.json.data.details[field].code, 'rest_not_in_enum', field);
      assert.equal(response.json.data.params[field], message);
    }
    const wrongType = await site.admin('POST', '/cms/v2/posts', { json: { title: 'x', author: 'someone', sticky: 'perhaps' } });
    assert.equal(wrongType.json.message, 'Invalid parameter(s): author, sticky');
    assert.equal(wrongType.json.data.details.author.code, 'rest_invalid_type');
  });

  it('stores comment status, ping status, format, password and menu order', async () => {
    const site = await makeSite();
    const post = await site.create({ title: 'x', comment_status: 'closed', ping_status: 'closed', format: 'aside', password: 'pw' });
    assert.equal(post.comment_status, 'closed');
    assert.equal(post.ping_status, 'closed');
    assert.equal(post.format, 'aside');
    assert.equal(post.password, 'pw');
    const standard = await site.admin('POST', `/cms/v2/posts/${post.id}`, { json: { format: 'standard' } });
    assert.equal(standard.json.format, 'standard');
    const page = await site.create({ title: 'p', menu_order: 7 }, { base: 'pages' });
    assert.equal(page.menu_order, 7);
    assert.equal(page.comment_status, 'closed');
    assert.equal(page.ping_status, 'closed');
  });

  it('clears the password of private posts', async () => {
    const site = await makeSite();
    const post = await site.create({ title: 'x', status: 'private', password: 'secret' });
    assert.equal(post.password, '');
    assert.equal(post.title.rendered, 'Private: x');
  });

  it('checks the author: unknown users are rest_invalid_author, others need edit_others_posts', async () => {
    const site = await makeSite();
    const unknown = await site.admin('POST', '/cms/v2/posts', { json: { title: 'x', author: 9999 } });
    assert.equal(unknown.status, 400);
    assert.equal(unknown.json.code, 'rest_invalid_author');
    assert.equal(unknown.json.message, 'Invalid author ID.');

    const foreign = await site.as('author')('POST', '/cms/v2/posts', { json: { title: 'x', author: site.ids.editor } });
    assert.equal(foreign.status, 403);
    assert.equal(foreign.json.code, 'rest_cannot_edit_others');
    assert.equal(foreign.json.message, 'Sorry, you are not allowed to create posts as this user.');

    const assigned = await site.create({ title: 'x', author: site.ids.author });
    assert.equal(assigned.author, site.ids.author);
    const own = await site.as('author')('POST', `/cms/v2/posts/${assigned.id}`, { json: { author: site.ids.editor } });
    assert.equal(own.json.message, 'Sorry, you are not allowed to update posts as this user.');
  });

  it('applies the sticky and password rules', async () => {
    const site = await makeSite();
    const both = await site.admin('POST', '/cms/v2/posts', { json: { title: 'x', sticky: true, password: 'pw' } });
    assert.equal(both.status, 400);
    assert.equal(both.json.code, 'rest_invalid_field');
    assert.equal(both.json.message, 'A post can not be sticky and have a password.');

    const sticky = await site.create({ title: 'x', sticky: true });
    assert.equal(sticky.sticky, true);
    const protect = await site.admin('POST', `/cms/v2/posts/${sticky.id}`, { json: { password: 'pw', sticky: false } });
    assert.equal(protect.json.message, 'A sticky post can not be password protected.');

    const protectedPost = await site.create({ title: 'y', password: 'pw' });
    const stick = await site.admin('POST', `/cms/v2/posts/${protectedPost.id}`, { json: { sticky: true, password: '' } });
    assert.equal(stick.json.message, 'A password protected post can not be set to sticky.');

    const contributor = await site.as('contributor')('POST', '/cms/v2/posts', { json: { title: 'x', sticky: true } });
    assert.equal(contributor.status, 403);
    assert.equal(contributor.json.code, 'rest_cannot_assign_sticky');
    const author = await site.as('author')('POST', '/cms/v2/posts', { json: { title: 'x', sticky: true } });
    assert.equal(author.status, 201);
    assert.equal(author.json.sticky, true);

    const draft = await site.create({ title: 'Sticky draft', status: 'draft', sticky: true });
    assert.equal(draft.sticky, true);
    const unstuck = await site.admin('POST', `/cms/v2/posts/${draft.id}`, { json: { sticky: false } });
    assert.equal(unstuck.json.sticky, false);
  });

  it('accepts only templates the post type offers (or the current one)', async () => {
    const site = await makeSite();
    const refused = await site.admin('POST', '/cms/v2/posts', { json: { title: 'x', template: 'wide.php' } });
    assert.equal(refused.status, 400);
    assert.equal(refused.json.code, 'rest_invalid_param');
    assert.equal(refused.json.data.params.template, 'template is not one of .');

    const templated = site.withPostSettings({ templates: { post: { 'wide.php': 'Wide', 'narrow.php': 'Narrow' } } });
    const post = await templated.create({ title: 'x', template: 'wide.php' });
    assert.equal(post.template, 'wide.php');
    const other = await templated.admin('POST', `/cms/v2/posts/${post.id}`, { json: { template: 'tall.php' } });
    assert.equal(other.json.data.params.template, 'template is not one of wide.php, narrow.php.');
    const kept = await site.admin('POST', `/cms/v2/posts/${post.id}`, { json: { template: 'wide.php', title: 'y' } });
    assert.equal(kept.status, 200);
    const cleared = await site.admin('POST', `/cms/v2/posts/${post.id}`, { json: { template: '' } });
    assert.equal(cleared.json.template, '');
  });

  it('stores the footnotes meta and checks its type', async () => {
    const site = await makeSite();
    const post = await site.create({ title: 'x', meta: { footnotes: '[{"id":"1"}]', unknown: 'ignored' } });
    assert.deepEqual(post.meta, { footnotes: '[{"id":"1"}]' });
    const wrong = await site.admin('POST', `/cms/v2/posts/${post.id}`, { json: { meta: { footnotes: 5 } } });
    assert.equal(wrong.status, 400);
    assert.equal(wrong.json.code, 'rest_invalid_type');
    assert.equal(wrong.json.message, 'meta.footnotes is not of type string.');
    const notObject = await site.admin('POST', `/cms/v2/posts/${post.id}`, { json: { meta: 'text' } });
    assert.equal(notObject.status, 400);
    assert.equal(notObject.json.code, 'rest_invalid_param');
    const removed = await site.admin('POST', `/cms/v2/posts/${post.id}`, { json: { meta: { footnotes: null } } });
    assert.deepEqual(removed.json.meta, { footnotes: '' });
  });

  it('sets categories and tags, skipping unknown ids, ordering by name', async () => {
    const site = await makeSite();
    const storage = site.cms.deps.storage;
    const zebra = await insertTerm(storage, 'post_tag', { name: 'Zebra' });
    const apple = await insertTerm(storage, 'post_tag', { name: 'apple' });
    const news = await insertTerm(storage, 'category', { name: 'News' });
    const post = await site.create({ title: 'x', tags: [zebra.id, apple.id, 777], categories: [news.id, zebra.id] });
    assert.deepEqual(post.tags, [apple.id, zebra.id]);
    assert.deepEqual(post.categories, [news.id]);

    const none = await site.admin('POST', `/cms/v2/posts/${post.id}`, { json: { categories: [] } });
    assert.deepEqual(none.json.categories, []);
    const restored = await site.admin('POST', `/cms/v2/posts/${post.id}`, { json: { title: 'y' } });
    assert.deepEqual(restored.json.categories, [1]);
  });

  it('lists each post\'s terms as its single read does, with the terms of the whole page read together', async () => {
    const site = await makeSite();
    const storage = site.cms.deps.storage;
    const [zebra, apple, mango] = [await insertTerm(storage, 'post_tag', { name: 'Zebra' }), await insertTerm(storage, 'post_tag', { name: 'apple' }), await insertTerm(storage, 'post_tag', { name: 'Mango' })];
    const news = await insertTerm(storage, 'category', { name: 'News' });
    const first = await site.create({ title: 'one', status: 'publish', tags: [zebra.id, apple.id] });
    const second = await site.create({ title: 'two', status: 'publish', tags: [mango.id, zebra.id], categories: [news.id] });
    // Stored as a store might hold them: a duplicate, a category among the tags and an id no term has.
    await storage.update('posts', second.id, { tags: [zebra.id, mango.id, zebra.id, news.id, 9999] });
    const listed = await site.anonymous('GET', '/cms/v2/posts', { query: { _fields: 'id,tags,categories' } });
    assert.equal(listed.status, 200);
    for (const post of listed.json as { id: number; tags: number[]; categories: number[] }[]) {
      const single = await site.anonymous('GET', `/cms/v2/posts/${post.id}`, { query: { _fields: 'id,tags,categories' } });
      assert.deepEqual(post, single.json);
    }
    const byId = new Map((listed.json as { id: number; tags: number[] }[]).map((post) => [post.id, post.tags]));
    assert.deepEqual(byId.get(first.id), [apple.id, zebra.id]);
    assert.deepEqual(byId.get(second.id), [mango.id, zebra.id]);
  });

  it('keeps a featured image only when it is an image attachment', async () => {
    const site = await makeSite();
    const storage = site.cms.deps.storage;
    const image = await storage.insert('posts', { type: 'attachment', status: 'inherit', mime_type: 'image/png', parent: 0 });
    const document = await storage.insert('posts', { type: 'attachment', status: 'inherit', mime_type: 'application/pdf', parent: 0 });
    const post = await site.create({ title: 'x', featured_media: image.id });
    assert.equal(post.featured_media, image.id);
    assert.equal(post._links['wp:featuredmedia'][0].href, `http://example.test/cms-json/cms/v2/media/${image.id}`);
    const unknown = await site.admin('POST', `/cms/v2/posts/${post.id}`, { json: { featured_media: 9999 } });
    assert.equal(unknown.json.featured_media, image.id);
    const notImage = await site.admin('POST', `/cms/v2/posts/${post.id}`, { json: { featured_media: document.id } });
    assert.equal(notImage.json.featured_media, 0);
    const created = await site.create({ title: 'y', featured_media: 9999 });
    assert.equal(created.featured_media, 0);
  });

  it('refuses a post with empty title, content and excerpt, but not an empty page', async () => {
    const site = await makeSite();
    const response = await site.admin('POST', '/cms/v2/posts', { json: { status: 'draft' } });
    assert.equal(response.status, 400);
    assert.equal(response.json.code, 'empty_content');
    assert.equal(response.json.message, 'Content, title, and excerpt are empty.');
    const zero = await site.admin('POST', '/cms/v2/posts', { json: { title: '0' } });
    assert.equal(zero.json.code, 'empty_content');
    const page = await site.admin('POST', '/cms/v2/pages', { json: {} });
    assert.equal(page.status, 201);
  });

  it('sanitises HTML from users without unfiltered_html and keeps it for those with it', async () => {
    const site = await makeSite();
    const fields = {
      title: '<b>Bold</b> & <script>x</script>',
      content: '<script>alert(1)</script><p onclick="x">hi</p><iframe src="http://evil.test"></iframe>',
      excerpt: '<a href="javascript:alert(1)">link</a>',
    };
    const byAuthor = await site.create(fields, { role: 'author' });
    assert.equal(byAuthor.title.raw, '<b>Bold</b> &amp; x');
    assert.equal(byAuthor.content.raw, 'alert(1)<p>hi</p>');
    assert.equal(byAuthor.excerpt.raw.includes('javascript:'), false);
    const byEditor = await site.create(fields, { role: 'editor' });
    assert.equal(byEditor.title.raw, fields.title);
    assert.equal(byEditor.content.raw, fields.content);
    const trimmed = await site.create({ title: '  spaced  ' });
    assert.equal(trimmed.title.raw, 'spaced');
  });

  it('checks a page parent exists (any type) and ignores cycles', async () => {
    const site = await makeSite();
    const missing = await site.admin('POST', '/cms/v2/pages', { json: { title: 'x', parent: 4242 } });
    assert.equal(missing.status, 400);
    assert.equal(missing.json.code, 'rest_post_invalid_id');
    assert.equal(missing.json.message, 'Invalid post parent ID.');
    const post = await site.create({ title: 'A post' });
    const underPost = await site.create({ title: 'child', parent: post.id }, { base: 'pages' });
    assert.equal(underPost.parent, post.id);
    const top = await site.create({ title: 'top' }, { base: 'pages' });
    const child = await site.create({ title: 'child', parent: top.id }, { base: 'pages' });
    const cycle = await site.admin('POST', `/cms/v2/pages/${top.id}`, { json: { parent: child.id } });
    assert.equal(cycle.json.parent, 0);
    const self = await site.admin('POST', `/cms/v2/pages/${top.id}`, { json: { parent: top.id } });
    assert.equal(self.json.parent, 0);
  });

  it('checks the type of every other writable field', async () => {
    const site = await makeSite();
    const cases: [string, unknown, string][] = [
      ['date_gmt', 'noon', 'rest_invalid_date'],
      ['slug', ['a'], 'rest_invalid_type'],
      ['password', { secret: true }, 'rest_invalid_type'],
      ['featured_media', 'none', 'rest_invalid_type'],
      ['categories', 'first', 'rest_invalid_type'],
      ['tags', ['red'], 'rest_invalid_type'],
      ['template', 5, 'rest_invalid_type'],
    ];
    for (const [field, value, code] of cases) {
      const response = await site.admin('POST', '/cms/v2/posts', { json: { title: 'x', [field]: value } });
      assert.equal(response.status, 400, field);
      assert.equal(response.json.data.details[field].code, code, field);
    }
    const pageCases: [string, unknown][] = [['parent', 'top'], ['menu_order', 'first']];
    for (const [field, value] of pageCases) {
      const response = await site.admin('POST', '/cms/v2/pages', { json: { title: 'x', [field]: value } });
      assert.equal(response.json.data.details[field].code, 'rest_invalid_type', field);
    }
    const dateNull = await site.admin('POST', '/cms/v2/posts', { json: { title: 'x', date: null, date_gmt: null } });
    assert.equal(dateNull.status, 201);
  });

  it('uses the page capabilities for pages', async () => {
    const site = await makeSite();
    const author = await site.as('author')('POST', '/cms/v2/pages', { json: { title: 'x' } });
    assert.equal(author.status, 403);
    assert.equal(author.json.code, 'rest_cannot_create');
    const editor = await site.as('editor')('POST', '/cms/v2/pages', { json: { title: 'x', status: 'publish' } });
    assert.equal(editor.status, 201);
    const authorEdit = await site.as('author')('GET', `/cms/v2/pages?context=edit`);
    assert.equal(authorEdit.status, 403);
    const authorDrafts = await site.as('author')('GET', `/cms/v2/pages?status=draft`);
    assert.equal(authorDrafts.json.data.details.status.code, 'rest_forbidden_status');
  });
});
