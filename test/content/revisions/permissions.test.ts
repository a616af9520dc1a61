import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ids, makeSite, type Role, type Site } from './helpers.js';

async function revisedPost(site: Site, fields: Record<string, unknown>, by: Role | 'author2' = 'administrator') {
  const post = await site.create(fields, { by });
  await site.update(post.id, { content: 'Secret revision text' }, { by });
  const [revision] = await site.storedRevisions(post.id);
  return { post, revisionId: revision!.id };
}

describe('revisions: who may read them', () => {
  it('needs edit_post on the parent: 401 for visitors, 403 for users who cannot edit it', async () => {
    const site = await makeSite();
    const { post, revisionId } = await revisedPost(site, { title: 'Published', status: 'publish' });
    for (const path of [`/cms/v2/posts/${post.id}/revisions`, `/cms/v2/posts/${post.id}/revisions/${revisionId}`]) {
      const anonymous = await site.anonymous('GET', path);
      assert.equal(anonymous.status, 401, path);
      assert.deepEqual(anonymous.json, {
        code: 'rest_cannot_read', message: 'Sorry, you are not allowed to view revisions of this post.', data: { status: 401 },
      });
      for (const role of ['subscriber', 'contributor', 'author'] as const) {
        const denied = await site.as(role)('GET', path);
        assert.equal(denied.status, 403, `${role} ${path}`);
        assert.equal(denied.json.code, 'rest_cannot_read');
      }
      assert.equal((await site.as('editor')('GET', path)).status, 200, path);
    }
  });

  it('lets authors and contributors read the revisions of posts they may edit', async () => {
    const site = await makeSite();
    const draft = await revisedPost(site, { title: 'Contributor draft', content: 'x' }, 'contributor');
    assert.equal((await site.as('contributor')('GET', `/cms/v2/posts/${draft.post.id}/revisions`)).status, 200);
    assert.equal((await site.as('author')('GET', `/cms/v2/posts/${draft.post.id}/revisions`)).status, 403);
    const published = await revisedPost(site, { title: 'Author post', status: 'publish' }, 'author');
    assert.equal((await site.as('author')('GET', `/cms/v2/posts/${published.post.id}/revisions`)).status, 200);
    assert.equal((await site.as('author2')('GET', `/cms/v2/posts/${published.post.id}/revisions`)).status, 403);
  });

  it('never shows private or password-protected content to someone who may not read it', async () => {
    const site = await makeSite();
    const privatePost = await revisedPost(site, { title: 'Private', status: 'private' });
    const protectedPost = await revisedPost(site, { title: 'Protected', status: 'publish', password: 'pw' });
    for (const { post, revisionId } of [privatePost, protectedPost]) {
      for (const path of [
        `/cms/v2/posts/${post.id}/revisions`,
        `/cms/v2/posts/${post.id}/revisions/${revisionId}?password=pw`,
        `/cms/v2/posts/${post.id}/autosaves`,
        `/cms/v2/posts/${post.id}/autosaves/${revisionId}`,
      ]) {
        for (const user of [site.anonymous, site.as('author'), site.as('contributor')]) {
          const response = await user('GET', path);
          assert.ok(response.status === 401 || response.status === 403, `${path}: ${response.status}`);
          assert.doesNotMatch(JSON.stringify(response.json), /Secret revision text/);
        }
      }
      // A revision id is not a post of its own.
      const direct = await site.admin('GET', `/cms/v2/posts/${revisionId}`);
      assert.equal(direct.status, 404);
    }
  });

  it('keeps revisions out of post lists, searches and embeds', async () => {
    const site = await makeSite();
    const { post, revisionId } = await revisedPost(site, { title: 'Listed', status: 'publish', password: 'pw' });
    const inherit = await site.admin('GET', '/cms/v2/posts?status=inherit');
    assert.deepEqual(inherit.json, []);
    const search = await site.admin('GET', '/cms/v2/posts?search=Secret&status=any');
    assert.deepEqual(ids(search.json), [post.id]);
    const embedded = await site.anonymous('GET', `/cms/v2/posts/${post.id}?_embed`);
    assert.equal(embedded.status, 200);
    assert.equal(embedded.json._links['predecessor-version'][0].id, revisionId);
    assert.doesNotMatch(JSON.stringify(embedded.json), /Secret revision text/);
  });
});
