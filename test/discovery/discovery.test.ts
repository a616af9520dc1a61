import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { makeSite } from '../content/posts/helpers.js';

describe('types', () => {
  it('lists the served post types by slug, with the view fields and links', async () => {
    const site = await makeSite();
    const response = await site.anonymous('GET', '/cms/v2/types');
    assert.equal(response.status, 200);
    assert.deepEqual(Object.keys(response.json), ['post', 'page', 'attachment', 'wp_block']);
    const post = response.json.post;
    assert.deepEqual(Object.keys(post), ['description', 'hierarchical', 'has_archive', 'name', 'slug', 'icon', 'taxonomies', 'rest_base', 'rest_namespace', '_links']);
    assert.equal(post.name, 'Posts');
    assert.deepEqual(post.taxonomies, ['category', 'post_tag']);
    assert.equal(response.json.attachment.rest_base, 'media');
    assert.equal(response.json.page.hierarchical, true);
    assert.equal(response.json.wp_block.rest_base, 'blocks');
    assert.equal(response.json.wp_block.name, 'Patterns');
    assert.deepEqual(response.json.wp_block.taxonomies, ['wp_pattern_category']);
    assert.deepEqual(post._links['wp:items'], [{ href: 'http://example.test/cms-json/cms/v2/posts' }]);
    assert.deepEqual(post._links.collection, [{ href: 'http://example.test/cms-json/cms/v2/types' }]);
  });

  it('shows capabilities, labels, supports and visibility in the edit context, to editors of the type only', async () => {
    const site = await makeSite();
    const contributor = await site.as('contributor')('GET', '/cms/v2/types?context=edit');
    assert.equal(contributor.status, 200);
    // A contributor edits posts and uploads nothing: pages (edit_pages) are left out; reusable blocks are edited
    // with edit_posts.
    assert.deepEqual(Object.keys(contributor.json), ['post', 'attachment', 'wp_block']);
    assert.equal(contributor.json.wp_block.capabilities.create_posts, 'publish_posts');
    assert.equal(contributor.json.wp_block.capabilities.read, 'edit_posts');
    assert.deepEqual(contributor.json.wp_block.supports, {
      title: true, excerpt: true, editor: true, revisions: true, 'custom-fields': true, autosave: true,
    });
    assert.equal(contributor.json.wp_block.viewable, false);
    assert.equal(contributor.json.post.capabilities.create_posts, 'edit_posts');
    assert.equal(contributor.json.attachment.capabilities.create_posts, 'upload_files');
    assert.equal(contributor.json.post.labels.add_new_item, 'Add New Post');
    assert.equal(contributor.json.post.supports['post-formats'], true);
    assert.deepEqual(contributor.json.attachment.visibility, { show_in_nav_menus: false, show_ui: true });
    for (const [who, status, code] of [['subscriber', 403, 'rest_cannot_view'], [null, 401, 'rest_cannot_view']] as const) {
      const response = await site.as(who)('GET', '/cms/v2/types?context=edit');
      assert.equal(response.status, status);
      assert.equal(response.json.code, code);
    }
    const page = await site.as('contributor')('GET', '/cms/v2/types/page?context=edit');
    assert.equal(page.status, 403);
    assert.equal(page.json.code, 'rest_forbidden_context');
    const embed = await site.anonymous('GET', '/cms/v2/types/page?context=embed');
    assert.deepEqual(Object.keys(embed.json), ['name', 'slug', 'icon', 'rest_base', 'rest_namespace', '_links']);
  });

  it('answers 404 for unknown types and refuses types without routes', async () => {
    const site = await makeSite();
    const unknown = await site.anonymous('GET', '/cms/v2/types/book');
    assert.equal(unknown.status, 404);
    assert.equal(unknown.json.code, 'rest_type_invalid');
    const hidden = await site.as('subscriber')('GET', '/cms/v2/types/revision');
    assert.equal(hidden.status, 403);
    assert.equal(hidden.json.code, 'rest_cannot_read_type');
    const bad = await site.anonymous('GET', '/cms/v2/types/post?context=nope');
    assert.equal(bad.status, 400);
    assert.equal(bad.json.code, 'rest_invalid_param');
  });

  it('is what a post\'s about link points at', async () => {
    const site = await makeSite();
    const post = await site.create({ title: 'Hello', status: 'publish' });
    const about = post._links.about[0].href.replace('http://example.test/cms-json', '');
    const response = await site.anonymous('GET', about);
    assert.equal(response.status, 200);
    assert.equal(response.json.slug, 'post');
  });
});

describe('statuses', () => {
  it('shows the public status to everyone and the others to editors of some type', async () => {
    const site = await makeSite();
    assert.deepEqual(Object.keys((await site.anonymous('GET', '/cms/v2/statuses')).json), ['publish']);
    assert.deepEqual(Object.keys((await site.as('subscriber')('GET', '/cms/v2/statuses')).json), ['publish']);
    const contributor = await site.as('contributor')('GET', '/cms/v2/statuses');
    assert.deepEqual(Object.keys(contributor.json), ['publish', 'future', 'draft', 'pending', 'private', 'trash']);
    assert.deepEqual(contributor.json.draft, {
      name: 'Draft', public: false, queryable: false, slug: 'draft', date_floating: true,
      _links: { archives: [{ href: 'http://example.test/cms-json/cms/v2/posts?status=draft' }] },
    });
    const edit = await site.as('contributor')('GET', '/cms/v2/statuses/private?context=edit');
    assert.deepEqual(edit.json, {
      name: 'Private', private: true, protected: false, public: false, queryable: false, show_in_list: true, slug: 'private', date_floating: false,
      _links: { archives: [{ href: 'http://example.test/cms-json/cms/v2/posts?status=private' }] },
    });
    assert.equal((await site.as('subscriber')('GET', '/cms/v2/statuses?context=edit')).status, 403);
  });

  it('answers single statuses with the reference\'s refusals', async () => {
    const site = await makeSite();
    const cases: [string, string | null, number, string | null][] = [
      ['publish', null, 200, null],
      ['draft', null, 401, 'rest_cannot_read_status'],
      ['draft', 'subscriber', 403, 'rest_cannot_read_status'],
      ['draft', 'contributor', 200, null],
      ['trash', 'author', 200, null],
      ['inherit', 'administrator', 403, 'rest_cannot_read_status'],
      ['nope', 'administrator', 404, 'rest_status_invalid'],
    ];
    for (const [slug, who, status, code] of cases) {
      const response = await site.as(who as never)('GET', `/cms/v2/statuses/${slug}`);
      assert.equal(response.status, status, `${slug} as ${who}`);
      if (code) assert.equal(response.json.code, code);
    }
  });
});

describe('taxonomies', () => {
  it('lists categories and tags, filtered by type, with the edit fields for those who may assign terms', async () => {
    const site = await makeSite();
    const view = await site.anonymous('GET', '/cms/v2/taxonomies');
    assert.deepEqual(Object.keys(view.json), ['category', 'post_tag', 'wp_pattern_category']);
    assert.deepEqual(view.json.wp_pattern_category.types, ['wp_block']);
    assert.equal(view.json.wp_pattern_category.rest_base, 'wp_pattern_category');
    assert.deepEqual(Object.keys((await site.anonymous('GET', '/cms/v2/taxonomies?type=wp_block')).json), ['wp_pattern_category']);
    assert.deepEqual(Object.keys(view.json.category), ['name', 'slug', 'description', 'types', 'hierarchical', 'rest_base', 'rest_namespace', '_links']);
    assert.deepEqual(view.json.post_tag._links['wp:items'], [{ href: 'http://example.test/cms-json/cms/v2/tags' }]);
    assert.deepEqual((await site.anonymous('GET', '/cms/v2/taxonomies?type=page')).json, {});
    assert.deepEqual(Object.keys((await site.anonymous('GET', '/cms/v2/taxonomies?type=post')).json), ['category', 'post_tag']);
    const edit = await site.as('contributor')('GET', '/cms/v2/taxonomies?context=edit');
    assert.equal(edit.status, 200);
    assert.deepEqual(edit.json.category.capabilities, {
      manage_terms: 'manage_categories', edit_terms: 'edit_categories', delete_terms: 'delete_categories', assign_terms: 'assign_categories',
    });
    assert.equal(edit.json.post_tag.labels.popular_items, 'Popular Tags');
    assert.equal(edit.json.category.show_cloud, true);
    assert.deepEqual(edit.json.wp_pattern_category.capabilities, {
      manage_terms: 'manage_categories', edit_terms: 'manage_categories', delete_terms: 'manage_categories', assign_terms: 'edit_posts',
    });
    assert.equal(edit.json.wp_pattern_category.visibility.public, false);
    const refused = await site.as('subscriber')('GET', '/cms/v2/taxonomies?context=edit');
    assert.equal(refused.status, 403);
    assert.equal(refused.json.code, 'rest_cannot_view');
  });

  it('answers single taxonomies, 404 for unknown ones and refuses those without routes', async () => {
    const site = await makeSite();
    assert.equal((await site.anonymous('GET', '/cms/v2/taxonomies/category')).json.rest_base, 'categories');
    const unknown = await site.anonymous('GET', '/cms/v2/taxonomies/genre');
    assert.equal(unknown.status, 404);
    assert.equal(unknown.json.code, 'rest_taxonomy_invalid');
    const hidden = await site.anonymous('GET', '/cms/v2/taxonomies/post_format');
    assert.equal(hidden.status, 401);
    assert.equal(hidden.json.code, 'rest_forbidden');
    const edit = await site.as('subscriber')('GET', '/cms/v2/taxonomies/post_tag?context=edit');
    assert.equal(edit.status, 403);
    assert.equal(edit.json.code, 'rest_forbidden_context');
  });
});
