import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { makeSite } from './helpers.js';

describe('posts: slugs', () => {
  it('derives slugs from titles, transliterating and dropping punctuation', async () => {
    const site = await makeSite();
    const post = await site.create({ title: 'Ünïcödé Straße — “quoted” 3×4', status: 'publish' });
    assert.equal(post.slug, 'unicode-strase-quoted-3x4');
    const given = await site.create({ title: 'x', slug: 'My Custom Slug!', status: 'publish' });
    assert.equal(given.slug, 'my-custom-slug');
  });

  it('suffixes taken slugs with -2, -3 within the post type', async () => {
    const site = await makeSite();
    const first = await site.create({ title: 'Same', status: 'publish' });
    const second = await site.create({ title: 'Same', status: 'publish' });
    const third = await site.create({ title: 'Other', slug: 'same', status: 'publish' });
    assert.deepEqual([first.slug, second.slug, third.slug], ['same', 'same-2', 'same-3']);
    const page = await site.create({ title: 'Same', status: 'publish' }, { base: 'pages' });
    assert.equal(page.slug, 'same');
    const renamed = await site.admin('POST', `/cms/v2/posts/${second.id}`, { json: { slug: 'same' } });
    assert.equal(renamed.json.slug, 'same-2');
    const kept = await site.admin('POST', `/cms/v2/posts/${first.id}`, { json: { slug: 'same' } });
    assert.equal(kept.json.slug, 'same');
  });

  it('leaves draft slugs empty unless given, and makes given draft slugs unique as if published', async () => {
    const site = await makeSite();
    await site.create({ title: 'Dup title', status: 'publish' });
    const draft = await site.create({ title: 'Dup title' });
    assert.equal(draft.slug, '');
    assert.equal(draft.generated_slug, 'dup-title-2');
    const explicit = await site.create({ title: 'x', slug: 'dup-title', status: 'draft' });
    assert.equal(explicit.slug, 'dup-title-2');
    const withoutStatus = await site.create({ title: 'x', slug: 'dup-title' });
    assert.equal(withoutStatus.slug, 'dup-title');
  });

  it('drops the slug a contributor sends with a pending post', async () => {
    const site = await makeSite();
    const pending = await site.create({ title: 'x', slug: 'my-slug', status: 'pending' }, { role: 'contributor' });
    assert.equal(pending.slug, '');
  });

  it('gives a published post without a title its id as slug', async () => {
    const site = await makeSite();
    const post = await site.create({ content: 'only content', status: 'publish' });
    assert.equal(post.slug, String(post.id));
  });

  it('suffixes reserved slugs, date-like post slugs and numeric page slugs', async () => {
    const site = await makeSite();
    assert.equal((await site.create({ title: 'feed', status: 'publish' })).slug, 'feed-2');
    assert.equal((await site.create({ title: 'embed', status: 'publish' }, { base: 'pages' })).slug, 'embed-2');
    assert.equal((await site.create({ title: '2020', status: 'publish' }, { base: 'pages' })).slug, '2020-2');
    assert.equal((await site.create({ title: 'page2', status: 'publish' }, { base: 'pages' })).slug, 'page2-2');
    // All-digit post slugs are suffixed only where a date archive could answer the same address.
    assert.equal((await site.create({ title: '12', status: 'publish' })).slug, '12');
    const byYear = site.withPostSettings({ permalinkStructure: '/%year%/%postname%/' });
    assert.equal((await byYear.create({ title: '11', status: 'publish' })).slug, '11-2');
    assert.equal((await byYear.create({ title: '13', status: 'publish' })).slug, '13');
    const byName = site.withPostSettings({ permalinkStructure: '/%postname%/' });
    assert.equal((await byName.create({ title: '2020', status: 'publish' })).slug, '2020-2');
  });

  it('keeps page slugs unique per parent', async () => {
    const site = await makeSite();
    const parentA = await site.create({ title: 'A', status: 'publish' }, { base: 'pages' });
    const parentB = await site.create({ title: 'B', status: 'publish' }, { base: 'pages' });
    const underA = await site.create({ title: 'Child', status: 'publish', parent: parentA.id }, { base: 'pages' });
    const underB = await site.create({ title: 'Child', status: 'publish', parent: parentB.id }, { base: 'pages' });
    const againA = await site.create({ title: 'Child', status: 'publish', parent: parentA.id }, { base: 'pages' });
    assert.deepEqual([underA.slug, underB.slug, againA.slug], ['child', 'child', 'child-2']);
    assert.equal(underA.link, 'http://example.test/a/child/');
    assert.equal(underA.permalink_template, 'http://example.test/a/%pagename%/');
  });

  it('renames trashed posts holding a slug another post wants', async () => {
    const site = await makeSite();
    const old = await site.create({ title: 'Reuse', status: 'publish' });
    await site.admin('DELETE', `/cms/v2/posts/${old.id}`);
    const fresh = await site.create({ title: 'Reuse', status: 'publish' });
    assert.equal(fresh.slug, 'reuse');
    const restored = await site.admin('POST', `/cms/v2/posts/${old.id}`, { json: { status: 'publish' } });
    assert.equal(restored.json.slug, 'reuse-2');
  });

  it('truncates long slugs before suffixing', async () => {
    const site = await makeSite();
    const long = 'a'.repeat(200);
    const first = await site.create({ title: long, status: 'publish' });
    const second = await site.create({ title: long, status: 'publish' });
    assert.equal(first.slug.length, 200);
    assert.equal(second.slug, `${'a'.repeat(198)}-2`);
  });
});
