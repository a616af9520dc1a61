import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { makeSite, type Site } from '../posts/helpers.js';

const PARAGRAPH = '<!-- wp:paragraph --><p>Shared</p><!-- /wp:paragraph -->';

async function makeBlock(site: Site, fields: Record<string, unknown> = {}, role: 'administrator' | 'editor' | 'author' = 'editor') {
  return site.create({ title: 'Shared', content: PARAGRAPH, status: 'publish', ...fields }, { role, base: 'blocks' });
}

describe('GET /cms/v2/blocks', () => {
  it('answers title and content raw in the view context, never rendered, and the sync status at the top level', async () => {
    const site = await makeSite();
    const block = await makeBlock(site, { meta: { wp_pattern_sync_status: 'unsynced' } });
    const read = await site.as('contributor')('GET', `/cms/v2/blocks/${block.id}`);
    assert.equal(read.status, 200);
    assert.deepEqual(read.json.title, { raw: 'Shared' });
    assert.deepEqual(read.json.content, { raw: PARAGRAPH, protected: false });
    assert.equal(read.json.wp_pattern_sync_status, 'unsynced');
    assert.deepEqual(read.json.meta, { footnotes: '' });
    assert.equal(read.json.type, 'wp_block');
    assert.equal(read.json.link, `http://example.test/?wp_block=${block.slug}`);
    for (const absent of ['author', 'featured_media', 'comment_status', 'ping_status', 'permalink_template', 'generated_slug', 'sticky', 'format']) {
      assert.equal(absent in read.json, false, absent);
    }
    assert.equal(read.json._links.author, undefined);
    assert.equal(read.json._links.replies, undefined);
    assert.deepEqual(read.json._links['wp:term'], [{ taxonomy: 'wp_pattern_category', embeddable: true, href: `http://example.test/cms-json/cms/v2/wp_pattern_category?post=${block.id}` }]);
    assert.doesNotMatch(String(read.headers.Link), /alternate/, 'a block has no public view to point at');
    const edit = await site.admin('GET', `/cms/v2/blocks/${block.id}?context=edit`);
    assert.deepEqual(edit.json.content, { raw: PARAGRAPH, protected: false, block_version: 1 });
    assert.equal(edit.json._links['wp:action-assign-author'], undefined);
    const fields = await site.admin('GET', `/cms/v2/blocks/${block.id}?_fields=id,title`);
    assert.deepEqual(fields.json, { id: block.id, title: { raw: 'Shared' } });
  });

  it('is read only by those who may edit posts, even when published; nobody else learns how many there are', async () => {
    const site = await makeSite();
    const block = await makeBlock(site);
    for (const [role, status] of [[null, 401], ['subscriber', 403]] as const) {
      const single = await site.as(role)('GET', `/cms/v2/blocks/${block.id}`);
      assert.equal(single.status, status);
      assert.deepEqual(single.json, { code: 'rest_forbidden', message: 'Sorry, you are not allowed to do that.', data: { status } });
      const list = await site.as(role)('GET', '/cms/v2/blocks');
      assert.deepEqual(list.json, []);
      assert.equal(list.headers['X-WP-Total'], '0');
      const search = await site.as(role)('GET', '/cms/v2/blocks?search=Shared');
      assert.equal(search.headers['X-WP-Total'], '0');
    }
    const contributor = await site.as('contributor')('GET', '/cms/v2/blocks');
    assert.deepEqual(contributor.json.map((entry: { id: number }) => entry.id), [block.id]);
    const filtered = await site.as('contributor')('GET', `/cms/v2/blocks?author=${site.ids.editor}`);
    assert.equal(filtered.status, 200, 'author is not a filter of a type without authors: ignored');
  });

  it('answers 404 rest_post_invalid_id for a post of another type', async () => {
    const site = await makeSite();
    const post = await site.create({ title: 'Post', status: 'publish' });
    const response = await site.admin('GET', `/cms/v2/blocks/${post.id}`);
    assert.equal(response.status, 404);
    assert.equal(response.json.code, 'rest_post_invalid_id');
    const block = await makeBlock(site);
    assert.equal((await site.admin('GET', `/cms/v2/posts/${block.id}`)).status, 404);
  });
});

describe('writing reusable blocks', () => {
  it('needs publish_posts to create: contributors are refused, authors are not', async () => {
    const site = await makeSite();
    for (const [role, status] of [[null, 401], ['subscriber', 403], ['contributor', 403]] as const) {
      const response = await site.as(role)('POST', '/cms/v2/blocks', { json: { title: 'x', content: PARAGRAPH } });
      assert.equal(response.status, status, String(role));
      assert.equal(response.json.code, 'rest_cannot_create');
    }
    const own = await makeBlock(site, {}, 'author');
    assert.equal(own.status, 'publish');
  });

  it('lets authors change and delete their own blocks only; editors change anyone\'s', async () => {
    const site = await makeSite();
    const editors = await makeBlock(site);
    const authors = await makeBlock(site, { title: 'Mine' }, 'author');
    const refused = await site.as('author')('POST', `/cms/v2/blocks/${editors.id}`, { json: { title: 'Taken' } });
    assert.equal(refused.status, 403);
    assert.equal(refused.json.code, 'rest_cannot_edit');
    const removal = await site.as('author')('DELETE', `/cms/v2/blocks/${editors.id}?force=true`);
    assert.equal(removal.status, 403);
    assert.equal(removal.json.code, 'rest_cannot_delete');
    const changed = await site.as('editor')('POST', `/cms/v2/blocks/${authors.id}`, { json: { title: 'Edited' } });
    assert.deepEqual(changed.json.title, { raw: 'Edited' });
    const trashed = await site.as('author')('DELETE', `/cms/v2/blocks/${authors.id}`);
    assert.equal(trashed.json.status, 'trash');
    const gone = await site.as('author')('DELETE', `/cms/v2/blocks/${authors.id}?force=true`);
    assert.equal(gone.json.deleted, true);
    assert.deepEqual(gone.json.previous.title, { raw: 'Edited' });
  });

  it('checks the sync status against its values, and clears it with null', async () => {
    const site = await makeSite();
    const block = await makeBlock(site);
    assert.equal(block.wp_pattern_sync_status, '');
    const bad = await site.admin('POST', `/cms/v2/blocks/${block.id}`, { json: { meta: { wp_pattern_sync_status: 'sometimes' } } });
    assert.equal(bad.status, 400);
    assert.deepEqual(bad.json, {
      code: 'rest_not_in_enum', message: 'meta.wp_pattern_sync_status is not one of partial and unsynced.', data: { status: 400 },
    });
    const partial = await site.admin('POST', `/cms/v2/blocks/${block.id}`, { json: { meta: { wp_pattern_sync_status: 'partial', other: 'ignored' } } });
    assert.equal(partial.json.wp_pattern_sync_status, 'partial');
    assert.deepEqual(partial.json.meta, { footnotes: '' });
    const cleared = await site.admin('POST', `/cms/v2/blocks/${block.id}`, { json: { meta: { wp_pattern_sync_status: null } } });
    assert.equal(cleared.json.wp_pattern_sync_status, '');
    const topLevel = await site.admin('POST', `/cms/v2/blocks/${block.id}`, { json: { wp_pattern_sync_status: 'unsynced' } });
    assert.equal(topLevel.json.wp_pattern_sync_status, '', 'the top-level field is read-only');
  });

  it('refuses an empty block and keeps fields the type lacks out of the record', async () => {
    const site = await makeSite();
    const empty = await site.admin('POST', '/cms/v2/blocks', { json: { title: '', content: '' } });
    assert.equal(empty.status, 400);
    assert.equal(empty.json.code, 'empty_content');
    const block = await makeBlock(site, { comment_status: 'open', featured_media: 5 });
    const stored = await site.cms.deps.storage.get('posts', block.id);
    assert.equal(stored?.comment_status, 'closed');
    assert.equal(stored?.ping_status, 'closed');
    assert.equal(stored?.featured_media, 0);
    assert.equal(stored?.author, site.ids.editor, 'the author is kept, as the reference keeps post_author');
  });

  it('keeps revisions of updates and takes autosaves', async () => {
    const site = await makeSite();
    const block = await makeBlock(site);
    await site.admin('POST', `/cms/v2/blocks/${block.id}`, { json: { content: '<!-- wp:paragraph --><p>Two</p><!-- /wp:paragraph -->' } });
    const revisions = await site.admin('GET', `/cms/v2/blocks/${block.id}/revisions?context=edit`);
    assert.equal(revisions.status, 200);
    assert.equal(revisions.json.length, 1);
    assert.match(revisions.json[0].content.raw, /Two/);
    const autosave = await site.admin('POST', `/cms/v2/blocks/${block.id}/autosaves`, { json: { content: 'Unsaved' } });
    assert.equal(autosave.status, 200);
    assert.equal(autosave.json.parent, block.id);
    assert.equal(autosave.json.preview_link, '', 'a block has no public view to preview');
    const refused = await site.as('contributor')('GET', `/cms/v2/blocks/${block.id}/revisions`);
    assert.equal(refused.status, 403);
    assert.equal(refused.json.code, 'rest_cannot_read');
  });
});

describe('a deleted author\'s reusable blocks', () => {
  it('stay where they are (the type has no authors), while the author\'s posts go to the trash', async () => {
    const site = await makeSite();
    const block = await makeBlock(site, {}, 'author');
    const post = await site.create({ title: 'Post', status: 'publish' }, { role: 'author' });
    assert.equal(await site.cms.users.delete(site.ids.author), true);
    assert.equal((await site.cms.deps.storage.get('posts', post.id))?.status, 'trash');
    const kept = await site.admin('GET', `/cms/v2/blocks/${block.id}`);
    assert.equal(kept.status, 200);
    assert.equal(kept.json.status, 'publish');
  });
});

describe('the blocks routes in the index and under the reference\'s names', () => {
  it('are in the namespace index, the OPTIONS schema and the OpenAPI document', async () => {
    const site = await makeSite();
    const index = await site.anonymous('GET', '/cms/v2');
    for (const route of ['/cms/v2/blocks', '/cms/v2/blocks/(?P<id>[\\d]+)', '/cms/v2/blocks/(?P<parent>[\\d]+)/revisions',
      '/cms/v2/blocks/(?P<id>[\\d]+)/autosaves', '/cms/v2/wp_pattern_category', '/cms/v2/block-patterns/patterns', '/cms/v2/block-patterns/categories']) {
      assert.ok(route in index.json.routes, route);
    }
    const options = await site.admin('OPTIONS', '/cms/v2/blocks');
    const { properties } = options.json.schema;
    assert.deepEqual(properties.title.properties.raw.context, ['view', 'edit']);
    assert.equal(properties.title.properties.rendered, undefined);
    assert.equal(properties.author, undefined);
    assert.deepEqual(properties.meta.properties.wp_pattern_sync_status.enum, ['partial', 'unsynced']);
    assert.ok('wp_pattern_category' in properties);
    assert.equal('author' in options.json.endpoints[0].args, false);
    const openapi = site.cms.openapi() as { paths: Record<string, unknown> };
    assert.ok(Object.keys(openapi.paths).some((path) => path.endsWith('/cms/v2/blocks')));
  });
});
