import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { createAdaptorServer } from '@hono/node-server';
import express from 'express';
import { Hono } from 'hono';
import { toExpress } from '../../adapters/express.js';
import { toFetchHandler } from '../../adapters/fetch.js';
import { toHono } from '../../adapters/hono.js';
import { toNodeListener } from '../../adapters/node.js';
import { createCms, encodeResponse, type Cms } from '../../src/index.js';

/**
 * One table of requests, replayed in-process and through every adapter. All of them must answer byte for byte
 * alike (status, body, every header but the connection-level ones) and match the table.
 */

const SITE = 'http://cms.test';
const API_ROOT = '/cms-json';
const SMALL_LIMIT = 64;
const IGNORED_HEADERS = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding', 'content-length']);

interface Replay {
  method: string;
  /** Path and query from the site root, as sent. */
  target: string;
  headers?: Record<string, string>;
  body?: string;
  /** Send the body without a length (chunked), so only its size tells it is too large. */
  chunked?: boolean;
  /** Use the cms whose body limit is SMALL_LIMIT bytes. */
  smallLimit?: boolean;
}

interface Answer {
  status: number;
  /** Lower-cased names, sorted. */
  headers: [string, string][];
  body: Buffer;
}

interface Case extends Replay {
  name: string;
  status: number;
  /** Response headers that must have these values; `null` means absent. */
  expectHeaders?: Record<string, string | null>;
  /** Exact JSON body, exact text body, or no body. */
  json?: unknown;
  text?: string;
  noBody?: true;
  check?: (json: any) => void;
}

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

type Send = (replay: Replay) => Promise<Answer>;
interface Target { send: Send; close?: () => Promise<void> }

function headerPairs(entries: Iterable<[string, string]>): [string, string][] {
  return [...entries]
    .map(([name, value]): [string, string] => [name.toLowerCase(), value])
    .filter(([name]) => !IGNORED_HEADERS.has(name))
    .sort(([a, av], [b, bv]) => (a === b ? av.localeCompare(bv) : a.localeCompare(b)));
}

function requestHeaders(replay: Replay): Record<string, string> {
  const headers: Record<string, string> = { host: 'cms.test', ...replay.headers };
  if (replay.body !== undefined && !replay.chunked) headers['content-length'] = String(Buffer.byteLength(replay.body));
  return headers;
}

const inProcess = (cms: Cms): Target => ({
  send: async (replay) => {
    const [pathname, query = ''] = replay.target.split(/\?(.*)/s) as [string, string?];
    const path = pathname.startsWith(API_ROOT) ? pathname.slice(API_ROOT.length) || '/' : '/';
    const response = await cms.handle({
      method: replay.method, path, query, headers: requestHeaders(replay), baseUrl: `${SITE}${API_ROOT}`,
      ...(replay.body !== undefined ? { body: new TextEncoder().encode(replay.body) } : {}),
    });
    const encoded = encodeResponse(response);
    return { status: encoded.status, headers: headerPairs(Object.entries(encoded.headers)), body: Buffer.from(encoded.body ?? []) };
  },
});

/** Sends over a fresh loopback connection, with `Host: cms.test` so that every adapter sees the same site. */
function overHttp(server: http.Server): Promise<Target> {
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      const send: Send = (replay) => new Promise((done, fail) => {
        const request = http.request({
          host: '127.0.0.1', port, method: replay.method, path: replay.target, headers: requestHeaders(replay), agent: false,
        }, (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () => {
            const pairs: [string, string][] = [];
            for (let i = 0; i < response.rawHeaders.length; i += 2) pairs.push([response.rawHeaders[i]!, response.rawHeaders[i + 1]!]);
            done({ status: response.statusCode!, headers: headerPairs(pairs), body: Buffer.concat(chunks) });
          });
        });
        request.on('error', fail);
        if (replay.body !== undefined && replay.chunked) {
          const half = Math.floor(replay.body.length / 2);
          request.write(replay.body.slice(0, half));
          request.end(replay.body.slice(half));
        } else {
          request.end(replay.body);
        }
      });
      resolve({ send, close: () => new Promise((closed) => { server.closeAllConnections(); server.close(() => closed()); }) });
    });
  });
}

const viaFetch = (cms: Cms): Target => {
  const handler = toFetchHandler(cms);
  return {
    send: async (replay) => {
      const body = replay.body === undefined ? undefined : replay.chunked ? streamOf(replay.body) : replay.body;
      const request = new Request(`${SITE}${replay.target}`, {
        method: replay.method, headers: requestHeaders(replay), ...(body !== undefined ? { body, duplex: 'half' } : {}),
      } as RequestInit);
      const response = await handler(request);
      return { status: response.status, headers: headerPairs(response.headers), body: Buffer.from(await response.arrayBuffer()) };
    },
  };
};

function streamOf(text: string): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  const half = Math.floor(bytes.length / 2);
  return new ReadableStream({
    start(controller) {
      controller.enqueue(bytes.subarray(0, half));
      controller.enqueue(bytes.subarray(half));
      controller.close();
    },
  });
}

function expressApp(cms: Cms, withJsonParser: boolean): http.Server {
  const app = express();
  app.disable('x-powered-by');
  if (withJsonParser) app.use(express.json());
  app.use(API_ROOT, toExpress(cms));
  // Mounted at the app root too, so that `?rest_route=` works anywhere on the site.
  app.use(toExpress(cms));
  return http.createServer(app);
}

function honoApp(cms: Cms): http.Server {
  const app = new Hono();
  const quire = toHono(cms);
  app.all(API_ROOT, quire);
  app.all(`${API_ROOT}/*`, quire);
  app.get('/', quire);
  return createAdaptorServer({ fetch: app.fetch, overrideGlobalObjects: false }) as http.Server;
}

const adapters: Record<string, (cms: Cms) => Target | Promise<Target>> = {
  node: (cms) => overHttp(http.createServer(toNodeListener(cms))),
  express: (cms) => overHttp(expressApp(cms, false)),
  'express after express.json()': (cms) => overHttp(expressApp(cms, true)),
  hono: (cms) => overHttp(honoApp(cms)),
  fetch: viaFetch,
};

describe('adapter replay', () => {
  const standard = makeCms();
  const small = makeCms(SMALL_LIMIT);
  const targets: { name: string; standard: Target; small: Target }[] = [];

  before(async () => {
    targets.push({ name: 'in-process', standard: inProcess(standard), small: inProcess(small) });
    for (const [name, make] of Object.entries(adapters)) {
      targets.push({ name, standard: await make(standard), small: await make(small) });
    }
  });

  after(async () => {
    for (const target of targets) await Promise.all([target.standard.close?.(), target.small.close?.()]);
  });

  for (const replay of cases) {
    test(replay.name, async () => {
      const [reference, ...others] = await Promise.all(targets.map(async (target) => ({
        name: target.name,
        answer: await (replay.smallLimit ? target.small : target.standard).send(replay),
      })));
      assertMatchesTable(replay, reference!.answer);
      for (const other of others) {
        assert.deepEqual(
          { status: other.answer.status, headers: other.answer.headers, body: other.answer.body.toString('latin1') },
          { status: reference!.answer.status, headers: reference!.answer.headers, body: reference!.answer.body.toString('latin1') },
          `${other.name} answers differently from cms.handle()`,
        );
      }
    });
  }
});

function assertMatchesTable(expected: Case, answer: Answer): void {
  assert.equal(answer.status, expected.status);
  const headers = new Map(answer.headers);
  for (const [name, value] of Object.entries(expected.expectHeaders ?? {})) {
    assert.equal(headers.get(name) ?? null, value, `header ${name}`);
  }
  // The fixed headers of every API response.
  assert.equal(headers.get('x-content-type-options'), 'nosniff');
  assert.equal(headers.get('access-control-expose-headers'), 'X-WP-Total, X-WP-TotalPages, Link');
  const text = answer.body.toString('utf8');
  if (expected.noBody) assert.equal(text, '');
  if (expected.text !== undefined) assert.equal(text, expected.text);
  if (expected.json !== undefined) assert.deepEqual(JSON.parse(text), expected.json);
  if (expected.check) expected.check(JSON.parse(text));
  assert.ok(expected.noBody || expected.text !== undefined || expected.json !== undefined || expected.check, 'the table says what the body is');
}
