import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ACTORS, type Actor } from '../users/setup.js';
import { createAnchorForm, formsSite } from './fixtures.js';

const LIST_DENIED = 'You are not allowed to access contact forms.';
const CREATE_DENIED = 'You are not allowed to create a contact form.';
const ITEM_DENIED = 'You are not allowed to access the requested contact form.';

describe('forms/v1 permissions, as observed per role', async () => {
  const site = await formsSite();
  const { request } = site;
  const { id } = await createAnchorForm(site);

  const expected: Record<string, Record<Actor, number>> = {
    list: { administrator: 200, editor: 200, author: 200, contributor: 200, subscriber: 403, anonymous: 403 },
    write: { administrator: 200, editor: 200, author: 403, contributor: 403, subscriber: 403, anonymous: 403 },
  };

  for (const actor of ACTORS) {
    it(`${actor}: list, create, read, update, delete`, async () => {
      const list = await request(actor, 'GET', '/forms/v1/contact-forms');
      assert.equal(list.status, expected.list![actor]);
      if (list.status === 403) assert.deepEqual(list.json, { code: 'wpcf7_forbidden', message: LIST_DENIED, data: { status: 403 } });

      const create = await request(actor, 'POST', '/forms/v1/contact-forms', { json: { title: `By ${actor}` } });
      assert.equal(create.status, expected.write![actor]);
      if (create.status === 403) assert.equal(create.json.message, CREATE_DENIED);

      for (const method of ['GET', 'POST', 'PUT', 'PATCH']) {
        const response = await request(actor, method, `/forms/v1/contact-forms/${id}`, method === 'GET' ? {} : { json: { context: 'dry-run' } });
        assert.equal(response.status, expected.write![actor], `${method} by ${actor}`);
        if (response.status === 403) {
          assert.deepEqual(response.json, { code: 'wpcf7_forbidden', message: ITEM_DENIED, data: { status: 403 } });
        }
      }
      if (expected.write![actor] === 403) {
        const denied = await request(actor, 'DELETE', `/forms/v1/contact-forms/${id}`);
        assert.equal(denied.status, 403);
        assert.equal(denied.json.message, ITEM_DENIED);
        const submissions = await request(actor, 'GET', `/forms/v1/contact-forms/${id}/submissions`);
        assert.equal(submissions.json.code, 'wpcf7_forbidden');
      } else {
        const created = await request(actor, 'POST', '/forms/v1/contact-forms', { json: { title: 'to delete' } });
        const deleted = await request(actor, 'DELETE', `/forms/v1/contact-forms/${created.json.id}`);
        assert.deepEqual([deleted.status, deleted.json], [200, { deleted: true }]);
      }
    });
  }

  it('checks permission before existence: a contributor gets 403 for an unknown id, an editor 404', async () => {
    const contributor = await request('contributor', 'GET', '/forms/v1/contact-forms/999999');
    assert.equal(contributor.status, 403);
    assert.equal(contributor.json.code, 'wpcf7_forbidden');
    const anonymousDelete = await request('anonymous', 'DELETE', '/forms/v1/contact-forms/999999');
    assert.equal(anonymousDelete.status, 403);
    const editor = await request('editor', 'GET', '/forms/v1/contact-forms/999999');
    assert.deepEqual(editor.json, { code: 'wpcf7_not_found', message: 'The requested contact form was not found.', data: { status: 404 } });
  });

  it('answers 404 for a post that is not a form, on every form route', async () => {
    const post = await site.cms.deps.storage.insert('posts', { type: 'post', status: 'publish', title: 'A post', author: 1 });
    for (const path of ['', '/feedback/schema', '/refill', '/submissions']) {
      const response = await request('administrator', 'GET', `/forms/v1/contact-forms/${post.id}${path}`);
      assert.equal(response.status, 404, path);
      assert.equal(response.json.code, 'wpcf7_not_found');
    }
  });

  it('has no route for non-numeric ids, GET feedback, or PUT/DELETE on the collection', async () => {
    for (const [method, path] of [
      ['GET', '/forms/v1/contact-forms/abc'], ['GET', '/forms/v1/contact-forms/1x'], ['GET', `/forms/v1/contact-forms/${id}/feedback`],
      ['PUT', '/forms/v1/contact-forms'], ['DELETE', '/forms/v1/contact-forms'],
    ] as const) {
      const response = await request('administrator', method, path);
      assert.equal(response.status, 404, `${method} ${path}`);
      assert.equal(response.json.code, 'rest_no_route');
    }
  });

  it('answers an anonymous OPTIONS without an Allow header, an administrator with all five methods', async () => {
    const anonymous = await request('anonymous', 'OPTIONS', `/forms/v1/contact-forms/${id}`);
    assert.equal(anonymous.headers.Allow, undefined);
    const administrator = await request('administrator', 'OPTIONS', `/forms/v1/contact-forms/${id}`);
    assert.equal(administrator.headers.Allow, 'GET, POST, PUT, PATCH, DELETE');
  });

  it('lists every route with "args": [] in the index and the namespace root', async () => {
    for (const path of ['/', '/forms/v1']) {
      const routes = (await request('anonymous', 'GET', path)).json.routes;
      for (const pattern of [
        '/forms/v1/contact-forms', '/forms/v1/contact-forms/(?P<id>\\d+)', '/forms/v1/contact-forms/(?P<id>\\d+)/feedback',
        '/forms/v1/contact-forms/(?P<id>\\d+)/feedback/schema', '/forms/v1/contact-forms/(?P<id>\\d+)/refill',
      ]) {
        assert.ok(routes[pattern], `${path} lists ${pattern}`);
        for (const endpoint of routes[pattern].endpoints) assert.deepEqual(endpoint.args, [], pattern);
        assert.equal(routes[pattern].namespace, 'forms/v1');
      }
      assert.deepEqual(routes['/forms/v1/contact-forms'].methods, ['GET', 'POST']);
      assert.ok(routes['/forms/v1/contact-forms']._links.self[0].href.endsWith('/forms/v1/contact-forms'));
      assert.equal(routes['/forms/v1/contact-forms/(?P<id>\\d+)']._links, undefined);
      assert.deepEqual(routes['/forms/v1/contact-forms/(?P<id>\\d+)'].methods, ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);
    }
  });

  it('shows the SWV meta-schema in the index only in help context, and always in OPTIONS of the schema route', async () => {
    const pattern = '/forms/v1/contact-forms/(?P<id>\\d+)/feedback/schema';
    assert.equal((await request('anonymous', 'GET', '/')).json.routes[pattern].schema, undefined);
    const help = (await request('anonymous', 'GET', '/?context=help')).json.routes[pattern].schema;
    assert.equal(help.title, 'Contact Form 7 SWV');
    assert.equal(help.$schema, 'https://json-schema.org/draft/2020-12/schema');
    assert.ok(help.properties.rules.items.properties.rule.enum.includes('maxfilesize'));
    const options = await request('anonymous', 'OPTIONS', `/forms/v1/contact-forms/${id}/feedback/schema`);
    assert.equal(options.json.schema.title, 'Contact Form 7 SWV');
    assert.equal(options.headers.Allow, 'GET');
  });

  it('refuses a plugin route inside a batch', async () => {
    const response = await request('administrator', 'POST', '/batch/v1', {
      json: { requests: [{ method: 'POST', path: '/forms/v1/contact-forms', body: { title: 'x' } }] },
    });
    assert.equal(response.status, 207);
    assert.equal(response.json.responses[0].body.code, 'rest_batch_not_allowed');
  });
});
