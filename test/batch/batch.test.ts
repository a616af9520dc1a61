import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { send } from '../helpers/request.js';
import { makeCore } from '../core/fixture.js';

const EDITOR = { authorization: 'Bearer editor' };
const note = (text: string) => ({ method: 'POST', path: '/test/v1/notes', body: { text } });

async function notesOf(core: ReturnType<typeof makeCore>) {
  return (await send(core, 'GET', '/test/v1/notes')).json.map((entry: { text: string }) => entry.text);
}

describe('POST /batch/v1: the outer request', () => {
  const core = makeCore();

  it('validates like any route', async () => {
    const missing = await send(core, 'POST', '/batch/v1', { json: {} });
    assert.equal(missing.status, 400);
    assert.equal(missing.json.message, 'Missing parameter(s): requests');

    const tooMany = await send(core, 'POST', '/batch/v1', { json: { requests: Array.from({ length: 26 }, () => note('x')) }, headers: EDITOR });
    assert.equal(tooMany.status, 400);
    assert.equal(tooMany.json.data.params.requests, 'requests must contain at most 25 items.');
    assert.equal(tooMany.json.data.details.requests.code, 'rest_too_many_items');

    const noPath = await send(core, 'POST', '/batch/v1', { json: { requests: [{ method: 'POST' }] } });
    assert.equal(noPath.json.data.params.requests, 'path is a required property of requests[0].');

    const get = await send(core, 'POST', '/batch/v1', { json: { requests: [note('a'), { method: 'GET', path: '/test/v1/notes' }] } });
    assert.equal(get.json.data.params.requests, 'requests[1][method] is not one of POST, PUT, PATCH, and DELETE.');

    const badValidation = await send(core, 'POST', '/batch/v1', { json: { validation: 'some', requests: [] } });
    assert.equal(badValidation.json.data.params.validation, 'validation is not one of require-all-validate and normal.');
  });

  it('accepts exactly 25 requests and an empty list', async () => {
    const fresh = makeCore();
    const full = await send(fresh, 'POST', '/batch/v1', { json: { requests: Array.from({ length: 25 }, (_, index) => note(`n${index}`)) }, headers: EDITOR });
    assert.equal(full.status, 207);
    assert.equal(full.json.responses.length, 25);
    assert.ok(full.json.responses.every((response: { status: number }) => response.status === 201));
    assert.equal((await notesOf(fresh)).length, 25);
    const empty = await send(core, 'POST', '/batch/v1', { json: { requests: [] } });
    assert.equal(empty.status, 207);
    assert.deepEqual(empty.body, { responses: [] });
    assert.equal(empty.headers.Allow, 'POST');
  });
});

describe('POST /batch/v1: normal validation', () => {
  it('runs every item in order with no rollback and reports each result', async () => {
    const core = makeCore();
    const response = await send(core, 'POST', '/batch/v1', {
      headers: EDITOR,
      json: {
        requests: [
          note('first'),
          { path: '/test/v1/notes', body: { text: '' } },
          { path: '/test/v1/nope' },
          { path: '/test/v1/things', body: { title: 'x' } },
          { path: '/batch/v1', body: { requests: [] } },
          { path: '/test/v1/notes/', body: { text: 'slash' } },
          { path: '/test/v1/notes?_fields=id', body: { text: 'last' } },
        ],
      },
    });
    assert.equal(response.status, 207);
    const [created, invalid, noRoute, notAllowed, nested, slash, last] = response.json.responses;
    assert.deepEqual(created, {
      body: { id: 1, text: 'first', _links: { self: [{ href: 'http://example.test/cms-json/test/v1/notes/1' }] } },
      status: 201,
      headers: { Location: 'http://example.test/cms-json/test/v1/notes/1', Allow: 'GET, POST' },
    });
    assert.equal(invalid.status, 400);
    assert.equal(invalid.body.code, 'rest_invalid_param');
    assert.equal(invalid.body.data.params.text, 'text must be at least 1 character long.');
    assert.deepEqual(invalid.headers, { Allow: 'GET, POST' });
    assert.deepEqual(noRoute, {
      body: { code: 'rest_no_route', message: 'No route was found matching the URL and request method.', data: { status: 404 } },
      status: 404,
      headers: [],
    });
    assert.equal(notAllowed.status, 400);
    assert.equal(notAllowed.body.code, 'rest_batch_not_allowed');
    assert.equal(notAllowed.body.message, 'The requested route does not support batch requests.');
    assert.equal(nested.body.code, 'rest_batch_not_allowed');
    assert.equal(slash.status, 404, 'inner paths must be exact routes');
    assert.deepEqual(last.body, { id: 2 }, 'the inner query applies _fields');
    assert.deepEqual(await notesOf(core), ['first', 'last']);
  });

  it('runs every item as the outer user, never bypassing permission', async () => {
    const core = makeCore();
    const response = await send(core, 'POST', '/batch/v1', { json: { requests: [note('anonymous')] } });
    assert.equal(response.status, 207);
    assert.equal(response.json.responses[0].status, 401);
    assert.equal(response.json.responses[0].body.code, 'rest_cannot_create');
    const spoofed = await send(core, 'POST', '/batch/v1', {
      json: { requests: [{ ...note('spoof'), headers: { Authorization: 'Bearer editor' } }] },
    });
    assert.equal(spoofed.json.responses[0].status, 401, 'item headers do not authenticate');
    assert.deepEqual(await notesOf(core), []);
  });
});

describe('POST /batch/v1: require-all-validate', () => {
  it('runs nothing when any item fails validation', async () => {
    const core = makeCore();
    const response = await send(core, 'POST', '/batch/v1', {
      headers: EDITOR,
      json: {
        validation: 'require-all-validate',
        requests: [note('ok'), { path: '/test/v1/notes', body: {} }, { path: '/test/v1/things', body: { title: 't' } }, { path: '/nope' }],
      },
    });
    assert.equal(response.status, 207);
    assert.equal(response.json.failed, 'validation');
    const [valid, missing, notAllowed, noRoute] = response.json.responses;
    assert.equal(valid, null);
    assert.deepEqual(missing, {
      body: { code: 'rest_missing_callback_param', message: 'Missing parameter(s): text', data: { status: 400, params: ['text'] } },
      status: 400,
      headers: [],
    });
    assert.equal(notAllowed.body.code, 'rest_batch_not_allowed');
    assert.deepEqual(notAllowed.headers, []);
    assert.equal(noRoute.status, 404);
    assert.deepEqual(await notesOf(core), []);
  });

  it('runs everything when all items validate', async () => {
    const core = makeCore();
    const response = await send(core, 'POST', '/batch/v1', {
      headers: EDITOR,
      json: { validation: 'require-all-validate', requests: [note('a'), note('b')] },
    });
    assert.equal(response.json.failed, undefined);
    assert.deepEqual(response.json.responses.map((entry: { status: number }) => entry.status), [201, 201]);
    assert.deepEqual(await notesOf(core), ['a', 'b']);
  });
});

describe('the route index', () => {
  it('shows allow_batch only on endpoints that declare it', async () => {
    const { routes } = (await send(makeCore(), 'GET', '/')).json;
    assert.deepEqual(Object.keys(routes).slice(0, 2), ['/', '/batch/v1']);
    assert.equal(routes['/batch/v1'].namespace, '');
    assert.equal(routes['/batch/v1'].endpoints[0].allow_batch, undefined);
    assert.deepEqual(routes['/test/v1/notes'].endpoints.map((endpoint: { allow_batch?: unknown }) => endpoint.allow_batch), [undefined, { v1: true }]);
    assert.deepEqual(routes['/batch/v1'].endpoints[0].args.requests.maxItems, 25);
    const items = routes['/batch/v1'].endpoints[0].args.requests.items;
    assert.equal(items.properties.path.required, true);
    assert.deepEqual(items.properties.body, { type: 'object', properties: [], additionalProperties: true });
    assert.deepEqual(items.properties.headers.properties, []);
  });
});
