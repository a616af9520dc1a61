import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createCms } from '../../src/index.js';
import { send } from '../helpers/request.js';
import { makeSite } from '../content/posts/helpers.js';

describe('themes', () => {
  it('lists the active theme with the features editors read, to those who may switch themes', async () => {
    const site = await makeSite();
    const response = await site.admin('GET', '/cms/v2/themes');
    assert.equal(response.status, 200);
    assert.equal(response.headers['X-WP-Total'], '1');
    assert.equal(response.headers['X-WP-TotalPages'], '1');
    assert.equal(response.json.length, 1);
    const [theme] = response.json;
    assert.equal(theme.stylesheet, 'quire');
    assert.equal(theme.template, 'quire');
    assert.equal(theme.status, 'active');
    assert.equal(theme.is_block_theme, false);
    assert.deepEqual(theme.name, { raw: 'quire', rendered: 'quire' });
    assert.equal(theme.theme_supports['post-thumbnails'], true);
    assert.equal(theme.theme_supports['align-wide'], true);
    assert.equal(theme.theme_supports['editor-styles'], false);
    assert.equal(theme.theme_supports['block-templates'], false);
    assert.deepEqual(theme.theme_supports.formats, ['standard', 'aside', 'chat', 'gallery', 'link', 'image', 'quote', 'status', 'video', 'audio']);
    assert.deepEqual(theme._links.self, [{ href: 'http://example.test/cms-json/cms/v2/themes/quire' }]);
    assert.deepEqual(theme._links.collection, [{ href: 'http://example.test/cms-json/cms/v2/themes' }]);
    const inactive = await site.admin('GET', '/cms/v2/themes?status=inactive');
    assert.deepEqual(inactive.json, []);
    assert.equal(inactive.headers['X-WP-Total'], '0');
    assert.equal(inactive.headers['X-WP-TotalPages'], '1');
  });

  it('shows the active theme to whoever may edit some type, and nothing more', async () => {
    const site = await makeSite();
    for (const role of ['editor', 'author', 'contributor'] as const) {
      const active = await site.as(role)('GET', '/cms/v2/themes?status=active');
      assert.equal(active.status, 200, role);
      assert.equal(active.json[0].stylesheet, 'quire');
      const all = await site.as(role)('GET', '/cms/v2/themes');
      assert.equal(all.status, 403, role);
      assert.equal(all.json.code, 'rest_cannot_view_themes');
      const both = await site.as(role)('GET', '/cms/v2/themes?status=active,inactive');
      assert.equal(both.json.code, 'rest_cannot_view_themes');
    }
    for (const [role, status] of [['subscriber', 403], [null, 401]] as const) {
      const response = await site.as(role)('GET', '/cms/v2/themes?status=active');
      assert.equal(response.status, status);
      assert.equal(response.json.code, 'rest_cannot_view_active_theme');
      assert.equal(response.json.data.status, status);
    }
  });

  it('reads one theme by stylesheet; other stylesheets are not found, or not for the caller', async () => {
    const site = await makeSite();
    const theme = await site.as('author')('GET', '/cms/v2/themes/quire');
    assert.equal(theme.status, 200);
    assert.equal(theme.json.theme_supports['post-thumbnails'], true);
    const missing = await site.admin('GET', '/cms/v2/themes/twentytwenty');
    assert.equal(missing.status, 404);
    assert.equal(missing.json.code, 'rest_theme_not_found');
    const nested = await site.admin('GET', '/cms/v2/themes/vendor/child');
    assert.equal(nested.json.code, 'rest_theme_not_found');
    const other = await site.as('author')('GET', '/cms/v2/themes/twentytwenty');
    assert.equal(other.status, 403);
    assert.equal(other.json.code, 'rest_cannot_view_themes');
    const anonymous = await site.anonymous('GET', '/cms/v2/themes/quire');
    assert.equal(anonymous.status, 401);
    assert.equal(anonymous.json.code, 'rest_cannot_view_active_theme');
  });

  it('is read-only and refuses bad statuses with the reference\'s codes', async () => {
    const site = await makeSite();
    const write = await site.admin('POST', '/cms/v2/themes/quire', { json: { status: 'inactive' } });
    assert.equal(write.status, 404);
    assert.equal(write.json.code, 'rest_no_route');
    const bad = await site.admin('GET', '/cms/v2/themes?status=broken');
    assert.equal(bad.status, 400);
    assert.equal(bad.json.code, 'rest_invalid_param');
    const options = await site.as('author')('OPTIONS', '/cms/v2/themes/quire');
    assert.equal(options.headers.Allow, 'GET');
    assert.equal(options.json.schema.properties.theme_supports.properties.formats.type, 'array');
  });

  it('_fields picks theme features one by one', async () => {
    const site = await makeSite();
    const response = await site.admin('GET', '/cms/v2/themes?status=active&_fields=stylesheet,theme_supports.formats');
    assert.deepEqual(response.json, [{ stylesheet: 'quire', theme_supports: { formats: ['standard', 'aside', 'chat', 'gallery', 'link', 'image', 'quote', 'status', 'video', 'audio'] } }]);
  });
});

describe('rest_namespace and supports, as the block editor reads them', () => {
  it('follow the names served', async () => {
    for (const [names, namespace, root] of [['neutral', 'cms/v2', '/cms-json'], ['wordpress', 'wp/v2', '/wp-json']] as const) {
      const cms = createCms({ names, site: { url: 'http://example.test' } });
      const types = await send(cms, 'GET', `/${namespace}/types`);
      assert.deepEqual(Object.values(types.json).map((type: any) => type.rest_namespace), [namespace, namespace, namespace, namespace]);
      const taxonomies = await send(cms, 'GET', `/${namespace}/taxonomies`);
      assert.deepEqual(Object.values(taxonomies.json).map((taxonomy: any) => taxonomy.rest_namespace), [namespace, namespace, namespace]);
      assert.equal(taxonomies.json.category._links['wp:items'][0].href, `http://example.test${root}/${namespace}/categories`);
    }
  });

  it('posts, pages and reusable blocks support autosaves; media does not', async () => {
    const site = await makeSite();
    const types = await site.admin('GET', '/cms/v2/types?context=edit');
    assert.equal(types.json.post.supports.autosave, true);
    assert.equal(types.json.post.supports.editor, true);
    assert.equal(types.json.page.supports.autosave, true);
    assert.equal(types.json.wp_block.supports.autosave, true);
    assert.equal(types.json.attachment.supports.autosave, undefined);
  });
});
