import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { taxonomyCapabilities } from '../../../src/auth/object-capabilities.js';
import { makeSite } from './helpers.js';

/** A site where assigning tags takes a capability only the administrator holds. */
const guardedTags = () => makeSite({
  capabilities: { taxonomies: { post_tag: taxonomyCapabilities({ manage_terms: 'manage_categories', assign_terms: 'manage_options' }) } },
});

describe('posts: assigning terms', () => {
  it('refuses a term the caller may not assign only when it exists', async () => {
    const site = await guardedTags();
    const tag = await site.admin('POST', '/cms/v2/tags', { json: { name: 'Guarded' } });
    assert.equal(tag.status, 201);

    const refused = await site.as('author')('POST', '/cms/v2/posts', { json: { title: 'x', tags: [999_999, tag.json.id] } });
    assert.equal(refused.status, 403);
    assert.equal(refused.json.code, 'rest_cannot_assign_term');
    assert.equal(refused.json.message, 'Sorry, you are not allowed to assign the provided terms.');

    const unknownOnly = await site.as('author')('POST', '/cms/v2/posts', { json: { title: 'x', tags: [999_999, 999_999] } });
    assert.notEqual(unknownOnly.status, 403);

    const post = await site.admin('POST', '/cms/v2/posts', { json: { title: 'x', tags: [tag.json.id] } });
    assert.equal(post.status, 201);
    assert.deepEqual(post.json.tags, [tag.json.id]);
    const edit = await site.as('author')('POST', '/cms/v2/posts', { json: { title: 'y', categories: [1] } });
    assert.equal(edit.status, 201);
  });

  it('looks no term up for a taxonomy the caller may assign', async () => {
    const site = await makeSite();
    let termReads = 0;
    const { storage } = site.cms.deps;
    const get = storage.get.bind(storage);
    storage.get = (async (collection: string, id: number) => {
      if (collection === 'terms') termReads += 1;
      return get(collection, id);
    }) as typeof storage.get;
    const tags = Array.from({ length: 10_000 }, (_, index) => index + 1_000);
    const answer = await site.as('author')('POST', '/cms/v2/posts', { json: { title: 'x', tags } });
    assert.notEqual(answer.status, 403);
    assert.equal(answer.status, 201);
    // One read is the post's own category; the permission checks (on the request and again for `Allow`) read none.
    assert.ok(termReads <= 1, `${termReads} term reads`);
  });
});
