import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { definePostType } from '../../../src/content/post-type/define.js';
import { POST_TYPE } from '../../../src/content/post-type/definition.js';
import { createPermission } from '../../../src/content/post-type/permissions.js';
import { makeSite } from '../posts/helpers.js';

describe('posts: the refusal to create, shared between requests', () => {
  it('answers each caller who may not create with its own status, the same every time, and lists still say GET only', async () => {
    const site = await makeSite();
    for (let round = 0; round < 2; round++) {
      const anonymous = await site.anonymous('POST', '/cms/v2/posts', { json: { title: 'No' } });
      assert.equal(anonymous.status, 401);
      assert.deepEqual(anonymous.json, {
        code: 'rest_cannot_create', message: 'Sorry, you are not allowed to create posts as this user.', data: { status: 401 },
      });
      const subscriber = await site.as('subscriber')('POST', '/cms/v2/posts', { json: { title: 'No' } });
      assert.equal(subscriber.status, 403);
      assert.deepEqual(subscriber.json, {
        code: 'rest_cannot_create', message: 'Sorry, you are not allowed to create posts as this user.', data: { status: 403 },
      });
      const list = await site.anonymous('GET', '/cms/v2/posts');
      assert.equal(list.headers.Allow, 'GET');
      const authorList = await site.as('author')('GET', '/cms/v2/posts');
      assert.equal(authorList.headers.Allow, 'GET, POST');
    }
    const created = await site.create({ title: 'Yes', status: 'publish' }, { role: 'author' });
    assert.equal(created.title.raw, 'Yes');
  });

  it('cannot be changed by whoever receives it', async () => {
    const site = await makeSite();
    const posts = definePostType(POST_TYPE, site.cms.deps as never);
    const context = { params: Object.create(null), user: null, site: {}, memo: (_key: string, make: () => unknown) => make(), context: 'view' };
    const refusal = await createPermission(context as never, posts as never);
    assert.notEqual(refusal, true);
    assert.ok(Object.isFrozen(refusal));
    assert.throws(() => { (refusal as { headers: Record<string, string> }).headers['X-Leak'] = 'yes'; }, TypeError);
    assert.throws(() => { (refusal as { additionalData: unknown[] }).additionalData.push(1); }, TypeError);
  });
});
