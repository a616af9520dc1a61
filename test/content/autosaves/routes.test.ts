import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { makeSite } from '../revisions/helpers.js';

describe('autosaves: permissions and errors', () => {
  it('saving takes the post\'s update permission, with its codes', async () => {
    const site = await makeSite();
    const post = await site.create({ title: 'Admin post', status: 'publish' });
    const page = await site.create({ title: 'A page', status: 'publish' }, { base: 'pages' });
    const cases: [(typeof site)['admin'], string, Record<string, unknown>, number, string, string?][] = [
      [site.admin, '/cms/v2/posts/0/autosaves', { content: 'x' }, 404, 'rest_post_invalid_id', 'Invalid item ID.'],
      [site.admin, '/cms/v2/posts/999999/autosaves', { content: 'x' }, 404, 'rest_post_invalid_id', 'Invalid post ID.'],
      [site.admin, `/cms/v2/posts/${page.id}/autosaves`, { content: 'x' }, 404, 'rest_post_invalid_id', 'Invalid post ID.'],
      [site.anonymous, `/cms/v2/posts/${post.id}/autosaves`, { content: 'x' }, 401, 'rest_cannot_edit'],
      [site.as('contributor'), `/cms/v2/posts/${post.id}/autosaves`, { content: 'x' }, 403, 'rest_cannot_edit'],
      [site.as('author'), `/cms/v2/posts/${post.id}/autosaves`, { content: 'x' }, 403, 'rest_cannot_edit'],
      [site.admin, `/cms/v2/posts/${post.id}/autosaves`, { status: 'bogus' }, 400, 'rest_invalid_param'],
      [site.admin, `/cms/v2/posts/${post.id}/autosaves`, { author: 999_999 }, 400, 'rest_invalid_author'],
    ];
    for (const [user, path, json, status, code, message] of cases) {
      const response = await user('POST', path, { json });
      assert.equal(response.status, status, `${path} ${JSON.stringify(json)}`);
      assert.equal(response.json.code, code, path);
      if (message) assert.equal(response.json.message, message);
    }
    const own = await site.create({ title: 'Own', content: 'x' }, { by: 'contributor' });
    const othersName = await site.as('contributor')('POST', `/cms/v2/posts/${own.id}/autosaves`, { json: { author: site.ids.editor } });
    assert.equal(othersName.status, 403);
    assert.equal(othersName.json.code, 'rest_cannot_edit_others');
    const sticky = await site.as('contributor')('POST', `/cms/v2/posts/${own.id}/autosaves`, { json: { sticky: true } });
    assert.equal(sticky.json.code, 'rest_cannot_assign_sticky');
    assert.equal((await site.storedRevisions(post.id)).length, 0);
  });

  it('reading needs edit_post on the parent', async () => {
    const site = await makeSite();
    const post = await site.create({ title: 'Admin draft', content: 'x' });
    await site.as('editor')('POST', `/cms/v2/posts/${post.id}/autosaves`, { json: { content: 'Editor text' } });

    const unknown = await site.admin('GET', '/cms/v2/posts/999999/autosaves');
    assert.deepEqual(unknown.json, { code: 'rest_post_invalid_parent', message: 'Invalid post parent ID.', data: { status: 404 } });
    const wrongType = await site.admin('GET', `/cms/v2/pages/${post.id}/autosaves/1`);
    assert.equal(wrongType.json.code, 'rest_post_invalid_parent');

    const list = await site.as('author')('GET', `/cms/v2/posts/${post.id}/autosaves`);
    assert.deepEqual(list.json, { code: 'rest_cannot_read', message: 'Sorry, you are not allowed to view autosaves of this post.', data: { status: 403 } });
    const single = await site.anonymous('GET', `/cms/v2/posts/${post.id}/autosaves/1`);
    assert.deepEqual(single.json, { code: 'rest_cannot_read', message: 'Sorry, you are not allowed to view revisions of this post.', data: { status: 401 } });
    assert.equal((await site.as('editor')('GET', `/cms/v2/posts/${post.id}/autosaves`)).status, 200);
  });
});

describe('autosaves: in the route index', () => {
  it('takes the parent type\'s writable fields plus parent', async () => {
    const site = await makeSite();
    const index = await site.anonymous('GET', '/cms/v2');
    const routes = index.json.routes;
    for (const base of ['posts', 'pages']) {
      const update = routes[`/cms/v2/${base}/(?P<id>[\\d]+)`].endpoints.find((endpoint: { methods: string[] }) => endpoint.methods.includes('PATCH'));
      const writable = Object.keys(update.args).filter((name) => name !== 'id');
      const autosaves = routes[`/cms/v2/${base}/(?P<id>[\\d]+)/autosaves`];
      assert.deepEqual(autosaves.methods, ['GET', 'POST']);
      const [list, create] = autosaves.endpoints;
      assert.deepEqual(Object.keys(list.args), ['parent', 'context']);
      assert.deepEqual(Object.keys(create.args), ['parent', ...writable.filter((name) => name !== 'parent')]);
      for (const name of writable) assert.deepEqual(create.args[name], update.args[name], `${base} ${name}`);
      const single = routes[`/cms/v2/${base}/(?P<parent>[\\d]+)/autosaves/(?P<id>[\\d]+)`];
      assert.deepEqual(single.methods, ['GET']);
      assert.deepEqual(Object.keys(single.endpoints[0].args), ['parent', 'id', 'context']);
    }
    // Pages have a parent of their own: it replaces the route's.
    const pageCreate = routes['/cms/v2/pages/(?P<id>[\\d]+)/autosaves'].endpoints[1];
    assert.equal(pageCreate.args.parent.description, 'The id of the parent post.');
  });

  it('publishes preview_link in the autosave schema, edit context only', async () => {
    const site = await makeSite();
    const response = await site.anonymous('OPTIONS', '/cms/v2/posts/1/autosaves');
    const properties = response.json.schema.properties;
    assert.deepEqual(properties.preview_link.context, ['edit']);
    assert.equal(response.json.schema.title, 'post-revision');
    assert.deepEqual(Object.keys(properties).slice(0, 9), ['author', 'date', 'date_gmt', 'guid', 'id', 'modified', 'modified_gmt', 'parent', 'slug']);
    const revisions = await site.anonymous('OPTIONS', '/cms/v2/pages/1/revisions');
    assert.equal(revisions.json.schema.title, 'page-revision');
    assert.equal(revisions.json.schema.properties.preview_link, undefined);
    assert.deepEqual(revisions.json.schema.properties.content.properties.raw.context, ['edit']);
  });
});
