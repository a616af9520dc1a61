import assert from 'node:assert/strict';
import { describe, it, test } from 'node:test';
import { makeSite } from '../content/posts/helpers.js';
import { send } from '../helpers/request.js';

const BATCHABLE = [
  '/cms/v2/posts GET', '/cms/v2/posts POST',
  '/cms/v2/posts/(?P<id>[\\d]+) GET', '/cms/v2/posts/(?P<id>[\\d]+) POST,PUT,PATCH', '/cms/v2/posts/(?P<id>[\\d]+) DELETE',
  '/cms/v2/pages GET', '/cms/v2/pages POST',
  '/cms/v2/pages/(?P<id>[\\d]+) GET', '/cms/v2/pages/(?P<id>[\\d]+) POST,PUT,PATCH', '/cms/v2/pages/(?P<id>[\\d]+) DELETE',
  '/cms/v2/blocks GET', '/cms/v2/blocks POST',
  '/cms/v2/blocks/(?P<id>[\\d]+) GET', '/cms/v2/blocks/(?P<id>[\\d]+) POST,PUT,PATCH', '/cms/v2/blocks/(?P<id>[\\d]+) DELETE',
  '/cms/v2/categories GET', '/cms/v2/categories POST',
  '/cms/v2/categories/(?P<id>[\\d]+) GET', '/cms/v2/categories/(?P<id>[\\d]+) POST,PUT,PATCH', '/cms/v2/categories/(?P<id>[\\d]+) DELETE',
  '/cms/v2/tags GET', '/cms/v2/tags POST',
  '/cms/v2/tags/(?P<id>[\\d]+) GET', '/cms/v2/tags/(?P<id>[\\d]+) POST,PUT,PATCH', '/cms/v2/tags/(?P<id>[\\d]+) DELETE',
  '/cms/v2/wp_pattern_category GET', '/cms/v2/wp_pattern_category POST',
  '/cms/v2/wp_pattern_category/(?P<id>[\\d]+) GET', '/cms/v2/wp_pattern_category/(?P<id>[\\d]+) POST,PUT,PATCH',
  '/cms/v2/wp_pattern_category/(?P<id>[\\d]+) DELETE',
];

async function titles(site: Awaited<ReturnType<typeof makeSite>>) {
  const list = await site.admin('GET', '/cms/v2/posts?status=any&per_page=100&orderby=id&order=asc');
  return list.json.map((post: { title: { rendered: string } }) => post.title.rendered);
}

describe('batches of posts and pages', () => {
  it('the index marks exactly the post, page, reusable block and term endpoints, as the reference', async () => {
    const { cms } = await makeSite();
    const { routes } = (await send(cms, 'GET', '/')).json;
    const marked: string[] = [];
    for (const [pattern, route] of Object.entries(routes as Record<string, { endpoints: { methods: string[]; allow_batch?: unknown }[] }>)) {
      for (const endpoint of route.endpoints) {
        if (endpoint.allow_batch !== undefined) {
          assert.deepEqual(endpoint.allow_batch, { v1: true });
          marked.push(`${pattern} ${endpoint.methods.join(',')}`);
        }
      }
    }
    assert.deepEqual(marked, BATCHABLE);
  });

  it('applies the items before and after one that fails, in order', async () => {
    const site = await makeSite();
    const response = await site.admin('POST', '/batch/v1', {
      json: {
        requests: [
          { path: '/cms/v2/posts', body: { title: 'First', status: 'publish' } },
          { path: '/cms/v2/posts', body: { title: 'Broken', status: 'bogus' } },
          { path: '/cms/v2/pages', body: { title: 'A page' } },
          { path: '/cms/v2/posts', body: { title: 'Last', status: 'draft' } },
        ],
      },
    });
    assert.equal(response.status, 207);
    const [first, broken, page, last] = response.json.responses;
    assert.equal(first.status, 201);
    assert.equal(first.body.title.raw, 'First', 'created posts answer in edit context');
    assert.match(first.headers.Location, /\/cms\/v2\/posts\/\d+$/);
    assert.equal(broken.status, 400);
    assert.equal(broken.body.code, 'rest_invalid_param');
    assert.ok(broken.body.data.params.status, 'the status parameter is named');
    assert.equal(page.status, 201);
    assert.equal(last.status, 201);
    assert.deepEqual(await titles(site), ['First', 'Last']);
  });

  it('updates and deletes existing posts by id, with the route index rules for each method', async () => {
    const site = await makeSite();
    const post = await site.create({ title: 'Before', status: 'publish' });
    const response = await site.admin('POST', '/batch/v1', {
      json: {
        requests: [
          { method: 'PATCH', path: `/cms/v2/posts/${post.id}`, body: { title: 'After' } },
          { method: 'DELETE', path: `/cms/v2/posts/${post.id}` },
          { method: 'DELETE', path: `/cms/v2/posts/${post.id}` },
        ],
      },
    });
    const statuses = response.json.responses.map((entry: { status: number }) => entry.status);
    assert.deepEqual(statuses, [200, 200, 410]);
    assert.equal(response.json.responses[2].body.code, 'rest_already_trashed');
    assert.equal(response.json.responses[1].body.status, 'trash');
  });

  it('never lets a batch do what the same request alone may not', async () => {
    const site = await makeSite();
    const response = await site.as('contributor')('POST', '/batch/v1', {
      json: {
        requests: [
          { path: '/cms/v2/posts', body: { title: 'Published by a contributor', status: 'publish' } },
          { path: '/cms/v2/pages', body: { title: 'A contributor page' } },
          { path: '/cms/v2/posts', body: { title: 'A draft' } },
        ],
      },
    });
    const [publish, page, draft] = response.json.responses;
    assert.equal(publish.status, 403);
    assert.equal(publish.body.code, 'rest_cannot_publish');
    assert.equal(page.status, 403);
    assert.equal(page.body.code, 'rest_cannot_create');
    assert.equal(draft.status, 201);
    const anonymous = await site.anonymous('POST', '/batch/v1', { json: { requests: [{ path: '/cms/v2/posts', body: { title: 'x' } }] } });
    assert.equal(anonymous.json.responses[0].status, 401);
    assert.deepEqual(await titles(site), ['A draft']);
  });

  it('refuses media, revision, autosave and user routes inside a batch', async () => {
    const site = await makeSite();
    const post = await site.create({ title: 'Parent' });
    const response = await site.admin('POST', '/batch/v1', {
      json: {
        requests: [
          { path: '/cms/v2/media', body: {} },
          { method: 'DELETE', path: `/cms/v2/posts/${post.id}/revisions/1`, body: { force: true } },
          { path: `/cms/v2/posts/${post.id}/autosaves`, body: { title: 'x' } },
          { path: '/cms/v2/users', body: { username: 'x', email: 'x@example.test', password: 'p' } },
        ],
      },
    });
    for (const entry of response.json.responses) {
      assert.equal(entry.status, 400);
      assert.equal(entry.body.code, 'rest_batch_not_allowed');
    }
  });

  it('creates, updates and deletes categories and tags, each item with its own answer', async () => {
    const site = await makeSite();
    const existing = (await site.admin('POST', '/cms/v2/tags', { json: { name: 'Existing' } })).json;
    const response = await site.admin('POST', '/batch/v1', {
      json: {
        requests: [
          { path: '/cms/v2/categories', body: { name: 'Fruit' } },
          { path: '/cms/v2/tags', body: { name: 'existing' } },
          { path: `/cms/v2/tags/${existing.id}`, body: { description: 'Described' } },
          { method: 'DELETE', path: `/cms/v2/tags/${existing.id}`, body: { force: true } },
          { path: '/cms/v2/categories', body: { name: 'Fruit' } },
        ],
      },
    });
    assert.equal(response.status, 207);
    const [created, duplicate, updated, deleted, again] = response.json.responses;
    assert.equal(created.status, 201);
    assert.equal(created.body.name, 'Fruit');
    assert.match(created.headers.Location, /\/cms\/v2\/categories\/\d+$/);
    assert.equal(duplicate.status, 400);
    assert.deepEqual(duplicate.body, {
      code: 'term_exists', message: 'A term with the name provided already exists in this taxonomy.',
      data: { status: 400, term_id: existing.id }, additional_data: [existing.id, existing.id],
    });
    assert.equal(updated.status, 200);
    assert.equal(updated.body.description, 'Described');
    assert.equal(deleted.status, 200);
    assert.equal(deleted.body.deleted, true);
    assert.equal(again.status, 400);
    assert.equal(again.body.data.term_id, created.body.id);
    assert.equal((await site.admin('GET', `/cms/v2/tags/${existing.id}`)).status, 404);
    assert.equal((await site.admin('GET', '/cms/v2/categories?search=Fruit')).json.length, 1);

    // Each item keeps its own permission check.
    const refused = await site.as('author')('POST', '/batch/v1', { json: { requests: [{ path: '/cms/v2/categories', body: { name: 'Veg' } }] } });
    assert.equal(refused.json.responses[0].status, 403);
    assert.equal(refused.json.responses[0].body.code, 'rest_cannot_create');
  });

  it('with require-all-validate, runs nothing when one post fails validation', async () => {
    const site = await makeSite();
    const response = await site.admin('POST', '/batch/v1', {
      json: {
        validation: 'require-all-validate',
        requests: [
          { path: '/cms/v2/posts', body: { title: 'Good' } },
          { path: '/cms/v2/posts', body: { title: 'Bad', comment_status: 'maybe' } },
        ],
      },
    });
    assert.equal(response.status, 207);
    assert.equal(response.json.failed, 'validation');
    assert.equal(response.json.responses[0], null);
    assert.equal(response.json.responses[1].body.data.params.comment_status, 'comment_status is not one of open and closed.');
    assert.deepEqual(await titles(site), []);
  });
});

test('a large batch takes turns of the event loop and still runs every item in order', async () => {
  const { createCms, createMemoryStorage } = await import('../../src/index.js');
  const cms = createCms({ storage: createMemoryStorage(), site: { url: 'http://example.test' }, maxBatchSize: 600 });
  const admin = await cms.users.create({ login: 'admin', email: 'admin@example.test', roles: ['administrator'] });
  const requests = Array.from({ length: 600 }, (_, index) => ({ method: 'POST', path: '/cms/v2/posts', body: { title: `Item ${index}`, status: 'publish' } }));
  let turns = 0;
  const ticker = setInterval(() => { turns += 1; }, 1);
  const answer = await cms.handle({ method: 'POST', path: '/batch/v1', query: '', user: admin, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ requests }) });
  clearInterval(ticker);
  assert.equal(answer.status, 207);
  const responses = (answer.body as { responses: { status: number; body: { id: number; title: { raw: string } } }[] }).responses;
  assert.deepEqual(responses.map((entry) => entry.status), requests.map(() => 201));
  assert.deepEqual(responses.map((entry) => entry.body.title.raw), requests.map((request) => request.body.title));
  assert.ok(turns > 0, 'timers ran while the batch was served');
});
