import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { makeSite } from '../posts/helpers.js';

describe('GET /cms/v2/block-patterns/patterns and /categories', () => {
  it('are for those who may edit posts of some type: rest_cannot_view otherwise', async () => {
    const site = await makeSite();
    for (const [route, noun] of [['patterns', 'block patterns'], ['categories', 'block pattern categories']] as const) {
      for (const [role, status] of [[null, 401], ['subscriber', 403]] as const) {
        const response = await site.as(role)('GET', `/cms/v2/block-patterns/${route}`);
        assert.equal(response.status, status);
        assert.deepEqual(response.json, {
          code: 'rest_cannot_view', message: `Sorry, you are not allowed to view the registered ${noun}.`, data: { status },
        });
      }
      assert.equal((await site.as('contributor')('GET', `/cms/v2/block-patterns/${route}`)).status, 200);
      const write = await site.admin('POST', `/cms/v2/block-patterns/${route}`, { json: {} });
      assert.equal(write.status, 404);
      assert.equal(write.json.code, 'rest_no_route');
    }
  });

  it('answers no registered patterns, and the core categories without query', async () => {
    const site = await makeSite();
    const patterns = await site.as('author')('GET', '/cms/v2/block-patterns/patterns');
    assert.deepEqual(patterns.json, []);
    const categories = await site.as('author')('GET', '/cms/v2/block-patterns/categories');
    const names = categories.json.map((category: { name: string }) => category.name);
    assert.deepEqual(names.slice(0, 4), ['banner', 'buttons', 'columns', 'text']);
    assert.equal(names.includes('query'), false);
    assert.deepEqual(categories.json[3], { name: 'text', label: 'Text', description: 'Patterns containing mostly text.' });
    const labels = await site.as('author')('GET', '/cms/v2/block-patterns/categories?_fields=label');
    assert.deepEqual(labels.json[0], { label: 'Banners' });
  });

  it('adds the user categories first with source=user; a user category replaces the core one of the same label', async () => {
    const site = await makeSite();
    const made = await site.as('contributor')('POST', '/cms/v2/wp_pattern_category', { json: { name: 'Text', description: 'Ours' } });
    assert.equal(made.status, 201);
    await site.as('contributor')('POST', '/cms/v2/wp_pattern_category', { json: { name: 'Alpha' } });
    const both = await site.as('author')('GET', '/cms/v2/block-patterns/categories?source[]=user&source[]=core');
    const names = both.json.map((category: { name: string }) => category.name);
    assert.deepEqual(names.slice(0, 3), ['alpha', 'text', 'banner']);
    assert.deepEqual(both.json[1], { name: 'text', label: 'Text', description: 'Ours', id: made.json.id });
    assert.equal(names.filter((name: string) => name === 'text').length, 1);
    const user = await site.as('author')('GET', '/cms/v2/block-patterns/categories?source=user');
    assert.deepEqual(user.json.map((category: { name: string }) => category.name), ['alpha', 'text']);
    assert.deepEqual((await site.as('author')('GET', '/cms/v2/block-patterns/categories?source=nothing')).json, []);
  });
});

describe('/cms/v2/wp_pattern_category', () => {
  it('is a flat taxonomy of wp_block: created by those who may edit posts, linked by query, counted by published blocks', async () => {
    const site = await makeSite();
    for (const [role, status] of [[null, 401], ['subscriber', 403]] as const) {
      const refused = await site.as(role)('POST', '/cms/v2/wp_pattern_category', { json: { name: 'Hero' } });
      assert.equal(refused.status, status);
      assert.equal(refused.json.code, 'rest_cannot_create');
    }
    const nested = await site.as('contributor')('POST', '/cms/v2/wp_pattern_category', { json: { name: 'Hero', parent: 3 } });
    assert.equal(nested.status, 400);
    assert.equal(nested.json.code, 'rest_taxonomy_not_hierarchical');
    const term = (await site.as('contributor')('POST', '/cms/v2/wp_pattern_category', { json: { name: 'Hero' } })).json;
    assert.equal(term.taxonomy, 'wp_pattern_category');
    assert.equal(term.parent, undefined);
    assert.equal(term.link, 'http://example.test/?taxonomy=wp_pattern_category&term=hero');
    assert.deepEqual(term._links['wp:post_type'], [{ href: `http://example.test/cms-json/cms/v2/blocks?wp_pattern_category=${term.id}` }]);
    const block = await site.create({ title: 'B', content: 'x', status: 'publish', wp_pattern_category: [term.id] }, { base: 'blocks' });
    await site.create({ title: 'Draft', content: 'x', status: 'draft', wp_pattern_category: [term.id] }, { base: 'blocks' });
    assert.equal((await site.admin('GET', `/cms/v2/wp_pattern_category/${term.id}`)).json.count, 1);
    const filtered = await site.admin('GET', `/cms/v2/blocks?wp_pattern_category=${term.id}`);
    assert.deepEqual(filtered.json.map((entry: { id: number }) => entry.id), [block.id]);
    const ofBlock = await site.admin('GET', `/cms/v2/wp_pattern_category?post=${block.id}`);
    assert.deepEqual(ofBlock.json.map((entry: { id: number }) => entry.id), [term.id]);
    // Published blocks are not public: their terms are listed to those who may read them.
    const hidden = await site.anonymous('GET', `/cms/v2/wp_pattern_category?post=${block.id}`);
    assert.equal(hidden.status, 401);
    assert.equal(hidden.json.code, 'rest_forbidden_context');
    const notBlock = await site.admin('GET', `/cms/v2/categories?post=${block.id}`);
    assert.equal(notBlock.status, 403);
    assert.equal((await site.as('editor')('DELETE', `/cms/v2/wp_pattern_category/${term.id}?force=true`)).status, 200);
    assert.deepEqual((await site.admin('GET', `/cms/v2/blocks/${block.id}`)).json.wp_pattern_category, [], 'a deleted category leaves its blocks');
  });
});
