import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createCms, type Cms } from '../../src/index.js';
import { SITE, adapters, assertMatchesTable, inProcess, replayEverywhere, type Case, type Target } from './replay-targets.js';

/**
 * One table of requests, replayed in-process and through every adapter. All of them must answer byte for byte
 * alike (status, body, every header but the connection-level ones) and match the table.
 */

const API_ROOT = '/cms-json';
const SMALL_LIMIT = 64;

const apiLink = `<${SITE}${API_ROOT}/>; rel="https://api.w.org/"`;
const JSON_TYPE = 'application/json; charset=UTF-8';
const NO_ROUTE = { code: 'rest_no_route', message: 'No route was found matching the URL and request method.', data: { status: 404 } };
const NO_CACHE = { expires: 'Wed, 11 Jan 1984 05:00:00 GMT', 'cache-control': 'no-cache, must-revalidate, max-age=0' };

function isNamespaceIndex(json: any): void {
  assert.equal(json.namespace, 'cms/v2');
  const routes = Object.keys(json.routes);
  assert.equal(routes[0], '/cms/v2');
  assert.ok(routes.includes('/cms/v2/replay-echo'));
  assert.ok(routes.every((route) => route.startsWith('/cms/v2')));
  assert.deepEqual(json.routes['/cms/v2/replay-echo'].methods, ['POST', 'PUT']);
  assert.equal(json.routes['/cms/v2']._links.self[0].href, `${SITE}${API_ROOT}/cms/v2`);
  assert.equal(json.routes['/cms/v2/posts/(?P<id>[\\d]+)']._links, undefined, 'routes with parameters have no links');
}

const cases: Case[] = [
  {
    name: 'GET / (the index)', method: 'GET', target: API_ROOT, status: 200,
    expectHeaders: { 'content-type': JSON_TYPE, link: apiLink, allow: 'GET', vary: 'Origin', 'x-robots-tag': 'noindex', 'cache-control': 'no-cache' },
    check: (json) => {
      assert.equal(json.name, 'quire');
      assert.equal(json.url, SITE);
      assert.equal(json.home, SITE);
      assert.ok(json.namespaces.includes('cms/v2'));
      assert.equal(json.routes['/'].namespace, '');
      assert.deepEqual(json.routes['/cms/v2/replay-echo'].methods, ['POST', 'PUT']);
    },
  },
  { name: 'GET /cms/v2', method: 'GET', target: `${API_ROOT}/cms/v2`, status: 200, expectHeaders: { allow: 'GET', link: apiLink }, check: isNamespaceIndex },
  { name: 'trailing slash', method: 'GET', target: `${API_ROOT}/cms/v2/`, status: 200, check: isNamespaceIndex },
  { name: '?rest_route= at the site root', method: 'GET', target: '/?rest_route=/cms/v2', status: 200, check: isNamespaceIndex },
  {
    name: '?rest_route= overrides the path', method: 'GET', target: `${API_ROOT}/cms/v2/replay-echo?rest_route=%2Fcms%2Fv2`,
    status: 200, check: isNamespaceIndex,
  },
  {
    name: 'unknown route', method: 'GET', target: `${API_ROOT}/cms/v2/nope`, status: 404, json: NO_ROUTE,
    expectHeaders: { allow: null, link: apiLink, 'content-type': JSON_TYPE },
  },
  { name: 'wrong method', method: 'DELETE', target: `${API_ROOT}/cms/v2`, status: 404, json: NO_ROUTE, expectHeaders: { allow: null } },
  {
    name: 'HEAD: GET headers, no body', method: 'HEAD', target: `${API_ROOT}/cms/v2`, status: 200, noBody: true,
    expectHeaders: { 'content-type': JSON_TYPE, allow: 'GET', link: apiLink, vary: null, 'cache-control': 'no-cache' },
  },
  {
    name: 'If-None-Match: * on a route declared cache: 304, no body, the validator and caching headers only',
    method: 'GET', target: `${API_ROOT}/cms/v2`, headers: { 'if-none-match': '*' }, status: 304, noBody: true,
    expectHeaders: { 'cache-control': 'no-cache', vary: 'Origin', 'content-type': null, allow: null, link: null },
  },
  {
    name: 'If-None-Match naming another tag: the full answer', method: 'GET', target: `${API_ROOT}/cms/v2`,
    headers: { 'if-none-match': 'W/"another", "tag"' }, status: 200, check: isNamespaceIndex, expectHeaders: { 'cache-control': 'no-cache' },
  },
  {
    name: 'OPTIONS describes the route', method: 'OPTIONS', target: `${API_ROOT}/cms/v2/replay-echo`, status: 200,
    expectHeaders: { allow: 'POST, PUT' },
    json: {
      namespace: 'cms/v2', methods: ['POST', 'PUT'], endpoints: [{ methods: ['POST', 'PUT'], args: [] }],
      _links: { self: [{ href: `${SITE}${API_ROOT}/cms/v2/replay-echo` }] },
    },
  },
  {
    name: 'OPTIONS on an item route: no links', method: 'OPTIONS', target: `${API_ROOT}/cms/v2/posts/1`, status: 200,
    expectHeaders: { allow: null },
    check: (json) => {
      assert.equal(json.namespace, 'cms/v2');
      assert.deepEqual(json.methods, ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);
      assert.equal('_links' in json, false);
    },
  },
  {
    name: '_method override', method: 'GET', target: `${API_ROOT}/cms/v2/replay-echo?_method=put`, status: 200,
    json: { method: 'PUT', params: { _method: 'put' } }, expectHeaders: { etag: null, 'cache-control': null },
  },
  {
    name: 'X-HTTP-Method-Override with a JSON body', method: 'POST', target: `${API_ROOT}/cms/v2/replay-echo`,
    headers: { 'content-type': 'application/json', 'x-http-method-override': 'PUT' }, body: '{"title":"hello","tags":[1,2]}',
    status: 200, json: { method: 'PUT', params: { title: 'hello', tags: [1, 2] } }, expectHeaders: { expires: null },
  },
  {
    name: 'X-HTTP-Method-Override ending in 4xx sends no-cache headers', method: 'POST', target: `${API_ROOT}/cms/v2`,
    headers: { 'x-http-method-override': 'DELETE' }, status: 404, json: NO_ROUTE, expectHeaders: NO_CACHE,
  },
  {
    name: 'urlencoded body, PHP-style', method: 'POST', target: `${API_ROOT}/cms/v2/replay-echo`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'title=a+b&tags[]=1&tags[]=2',
    status: 200, json: { method: 'POST', params: { title: 'a b', tags: ['1', '2'] } },
  },
  {
    name: 'CORS with an Origin', method: 'GET', target: `${API_ROOT}/cms/v2`, headers: { origin: 'https://app.example' }, status: 200,
    expectHeaders: {
      'access-control-allow-origin': 'https://app.example',
      'access-control-allow-methods': 'OPTIONS, GET, POST, PUT, PATCH, DELETE',
      'access-control-allow-credentials': 'true',
      vary: 'Origin',
    },
    check: isNamespaceIndex,
  },
  {
    name: 'invalid JSON on a matched route', method: 'POST', target: `${API_ROOT}/cms/v2/replay-echo`,
    headers: { 'content-type': 'application/json' }, body: '{"title":', status: 400,
    json: {
      code: 'rest_invalid_json', message: 'Invalid JSON body passed.',
      data: { status: 400, json_error_code: 4, json_error_message: 'Syntax error' },
    },
    expectHeaders: { allow: 'POST, PUT' },
  },
  {
    name: 'body over the limit, declared length', method: 'POST', target: `${API_ROOT}/cms/v2/replay-echo`, smallLimit: true,
    headers: { 'content-type': 'application/json' }, body: JSON.stringify({ title: 'x'.repeat(200) }), status: 413,
    check: (json) => {
      assert.equal(json.code, 'rest_request_too_large');
      assert.deepEqual(json.data, { status: 413, max_bytes: SMALL_LIMIT });
    },
  },
  {
    name: 'body over the limit, chunked', method: 'POST', target: `${API_ROOT}/cms/v2/replay-echo`, smallLimit: true, chunked: true,
    headers: { 'content-type': 'application/octet-stream' }, body: 'y'.repeat(300), status: 413,
    check: (json) => assert.equal(json.code, 'rest_request_too_large'),
  },
  {
    name: 'body within the small limit', method: 'POST', target: `${API_ROOT}/cms/v2/replay-echo`, smallLimit: true,
    headers: { 'content-type': 'application/json' }, body: '{"title":"short"}', status: 200,
    json: { method: 'POST', params: { title: 'short' } },
  },
  {
    name: '_envelope', method: 'GET', target: `${API_ROOT}/cms/v2/nope?_envelope`, status: 200,
    json: { body: NO_ROUTE, status: 404, headers: [] },
  },
  {
    name: '_envelope keeps the route headers inside', method: 'GET', target: `${API_ROOT}/cms/v2?_envelope=1`, status: 200,
    expectHeaders: { allow: null },
    check: (json) => {
      assert.equal(json.status, 200);
      assert.deepEqual(json.headers, { Allow: 'GET' });
      isNamespaceIndex(json.body);
    },
  },
  {
    name: '_pretty', method: 'GET', target: `${API_ROOT}/cms/v2/nope?_pretty`, status: 404,
    text: JSON.stringify(NO_ROUTE, null, 4),
  },
  {
    name: '_jsonp', method: 'GET', target: `${API_ROOT}/cms/v2/nope?_jsonp=handle.result`, status: 404,
    expectHeaders: { 'content-type': 'application/javascript; charset=UTF-8' },
    text: `/**/handle.result(${JSON.stringify(NO_ROUTE)})`,
  },
  {
    name: 'GET /cms/v2/comments (none yet)', method: 'GET', target: `${API_ROOT}/cms/v2/comments?post=1`, status: 200, json: [],
    expectHeaders: { 'x-wp-total': '0', 'x-wp-totalpages': '0', allow: 'GET' },
  },
  {
    name: 'GET /cms/v2/types/post', method: 'GET', target: `${API_ROOT}/cms/v2/types/post?_fields=slug,rest_base`, status: 200,
    json: { slug: 'post', rest_base: 'posts' },
  },
  {
    name: 'GET /cms/v2/settings needs a login', method: 'GET', target: `${API_ROOT}/cms/v2/settings`, status: 401,
    json: { code: 'rest_forbidden', message: 'Sorry, you are not allowed to do that.', data: { status: 401 } },
  },
  {
    name: 'GET /cms/v2/search with an unknown type', method: 'GET', target: `${API_ROOT}/cms/v2/search?type=user`, status: 400,
    check: (json) => assert.equal(json.code, 'rest_invalid_param'),
  },
  {
    name: '_jsonp with an invalid callback', method: 'GET', target: `${API_ROOT}/cms/v2?_jsonp=a-b`, status: 400,
    expectHeaders: { 'content-type': 'application/javascript; charset=UTF-8' },
    json: { code: 'rest_callback_invalid', message: 'Invalid JSONP callback function.' },
  },
];

function makeCms(maxBodyBytes?: number): Cms {
  const cms = createCms(maxBodyBytes === undefined ? {} : { maxBodyBytes });
  cms.registry.add('cms/v2', '/replay-echo', [{
    methods: ['POST', 'PUT'],
    permission: () => true,
    handler: (context) => ({ method: context.method, params: context.params as Record<string, unknown> }),
  }]);
  return cms;
}

describe('adapter replay', () => {
  const standard = makeCms();
  const small = makeCms(SMALL_LIMIT);
  const targets: { name: string; standard: Target; small: Target }[] = [];

  before(async () => {
    targets.push({ name: 'in-process', standard: inProcess(standard, API_ROOT), small: inProcess(small, API_ROOT) });
    for (const [name, make] of Object.entries(adapters)) {
      targets.push({ name, standard: await make(standard, API_ROOT), small: await make(small, API_ROOT) });
    }
  });

  after(async () => {
    for (const target of targets) await Promise.all([target.standard.close?.(), target.small.close?.()]);
  });

  for (const replay of cases) {
    test(replay.name, async () => {
      const chosen = targets.map((target) => ({ name: target.name, target: replay.smallLimit ? target.small : target.standard }));
      assertMatchesTable(replay, await replayEverywhere(chosen, replay));
    });
  }
});
