import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { PassThrough } from 'node:stream';
import { after, describe, test } from 'node:test';
import { createAdaptorServer } from '@hono/node-server';
import express from 'express';
import { Hono } from 'hono';
import { toExpress } from '../../adapters/express.js';
import { toFetchHandler } from '../../adapters/fetch.js';
import { toHono } from '../../adapters/hono.js';
import { readBody, toNodeListener, type NodeListener } from '../../adapters/node.js';
import { createCms, type Cms, type CmsOptions } from '../../src/index.js';

/** What the replay table cannot show: prefixes, fall-through, proxies, body limits, the host's user and address. */

/** A principal as a host with its own login passes it. */
const hostUser = { id: 1, login: 'host-admin', roles: ['administrator'], capabilities: new Set<string>() };

const discovery = (apiUrl: string) => `<${apiUrl}/>; rel="https://api.w.org/"`;

function makeCms(options: CmsOptions = {}): Cms {
  const cms = createCms(options);
  cms.registry.add('cms/v2', '/mount-echo', [{
    methods: ['POST'],
    permission: () => true,
    handler: (context) => ({ params: context.params as Record<string, unknown> }),
  }]);
  return cms;
}

interface Reply { status: number; headers: http.IncomingHttpHeaders; text: string }

const servers: http.Server[] = [];
after(() => {
  for (const server of servers) {
    server.closeAllConnections();
    server.close();
  }
});

async function listen(server: http.Server): Promise<(path: string, init?: { method?: string; headers?: Record<string, string>; body?: string }) => Promise<Reply>> {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return (path, init = {}) => new Promise((resolve, reject) => {
    const request = http.request({
      host: '127.0.0.1', port, path, method: init.method ?? 'GET', agent: false,
      headers: { host: 'cms.test', ...init.headers, ...(init.body !== undefined ? { 'content-length': String(Buffer.byteLength(init.body)) } : {}) },
    }, (response) => {
      let text = '';
      response.setEncoding('utf8').on('data', (chunk: string) => { text += chunk; });
      response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, text }));
    });
    request.on('error', reject);
    request.end(init.body);
  });
}

const jsonPost = (body: unknown) => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe('node adapter', () => {
  test('answers outside the API with 404 and the discovery link, or hands over to next()', async () => {
    const cms = makeCms();
    const alone = await listen(http.createServer(toNodeListener(cms)));
    const outside = await alone('/blog/hello?x=1');
    assert.equal(outside.status, 404);
    assert.equal(outside.headers.link, discovery('http://cms.test/cms-json'));
    assert.equal(outside.text, '');
    assert.equal((await alone('/cms-jsonx/cms/v2')).status, 404, 'the prefix must end at a segment boundary');
    assert.equal((await alone('/cms-jsonx/cms/v2')).headers['content-type'], undefined);

    const listener: NodeListener = toNodeListener(cms);
    const withNext = await listen(http.createServer((req, res) => listener(req, res, () => res.writeHead(418).end('host page'))));
    assert.deepEqual(pick(await withNext('/blog')), { status: 418, text: 'host page' });
    assert.equal((await withNext('/cms-json/cms/v2')).status, 200);
    assert.equal((await withNext('/blog?rest_route=/cms/v2')).status, 200);
    assert.equal((await withNext('/blog?rest_route=')).status, 418, 'an empty rest_route is not an API request');
  });

  test('a prefix option moves the API root, and the links follow it', async () => {
    const request = await listen(http.createServer(toNodeListener(makeCms(), { prefix: '/api/' })));
    const namespace = await request('/api/cms/v2');
    assert.equal(namespace.status, 200);
    assert.equal(namespace.headers.link, discovery('http://cms.test/api'));
    assert.equal(JSON.parse(namespace.text).routes['/cms/v2']._links.self[0].href, 'http://cms.test/api/cms/v2');
    assert.equal((await request('/cms-json/cms/v2')).status, 404);
  });

  test('forwarded scheme, host and client address count only with trustProxy', async () => {
    const seen: (string | undefined)[] = [];
    const cms = makeCms({ authenticate: (input) => { seen.push(input.remoteAddress); return null; } });
    const forwarded = { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'public.example, proxy.internal', 'x-forwarded-for': '203.0.113.9, 10.0.0.1' };

    const direct = await listen(http.createServer(toNodeListener(cms)));
    assert.equal((await direct('/cms-json/', { headers: forwarded })).headers.link, discovery('http://cms.test/cms-json'));
    const proxied = await listen(http.createServer(toNodeListener(cms, { trustProxy: true })));
    assert.equal((await proxied('/cms-json/', { headers: forwarded })).headers.link, discovery('https://public.example/cms-json'));
    assert.deepEqual(seen, ['127.0.0.1', '203.0.113.9']);
  });

  test('an implausible Host is not put into links', async () => {
    const request = await listen(http.createServer(toNodeListener(makeCms())));
    const reply = await request('/cms-json/', { headers: { host: 'evil/"><x' } });
    assert.match(String(reply.headers.link), /^<http:\/\/127\.0\.0\.1:\d+\/cms-json\/>; rel="https:\/\/api\.w\.org\/"$/);
  });

  test('a declared body over the limit is refused unread and the connection closed', async () => {
    const request = await listen(http.createServer(toNodeListener(makeCms({ maxBodyBytes: 16 }))));
    const reply = await request('/cms-json/cms/v2/mount-echo', jsonPost({ title: 'far too long for sixteen bytes' }));
    assert.equal(reply.status, 413);
    assert.equal(reply.headers.connection, 'close');
    const fine = await request('/cms-json/cms/v2/mount-echo', { ...jsonPost({ a: 1 }), headers: { 'content-type': 'application/json', connection: 'keep-alive' } });
    assert.deepEqual(JSON.parse(fine.text), { params: { a: 1 } });
    assert.notEqual(fine.headers.connection, 'close');
  });

  test('the user option passes the host\'s principal (a signed-in answer is not cacheable)', async () => {
    const request = await listen(http.createServer(toNodeListener(makeCms(), { user: () => hostUser })));
    assert.equal((await request('/cms-json/cms/v2')).headers['cache-control'], 'no-cache, must-revalidate, max-age=0');
  });
});

describe('readBody', () => {
  const fakeRequest = (headers: Record<string, string>) => Object.assign(new PassThrough(), { headers }) as unknown as http.IncomingMessage;

  test('reads a whole body within the limit', async () => {
    const req = fakeRequest({ 'content-length': '11' });
    const reading = readBody(req, 64);
    (req as unknown as PassThrough).end('hello world');
    const { body, complete } = await reading;
    assert.equal(Buffer.from(body!).toString(), 'hello world');
    assert.equal(complete, true);
  });

  test('stops a stream one byte past the limit', async () => {
    const req = fakeRequest({ 'transfer-encoding': 'chunked' });
    const reading = readBody(req, 64);
    for (let i = 0; i < 10; i += 1) (req as unknown as PassThrough).write('x'.repeat(50));
    const { body, complete } = await reading;
    assert.equal(body!.length, 65);
    assert.equal(complete, false);
  });

  test('does not read a body whose declared length is over the limit', async () => {
    const req = fakeRequest({ 'content-length': '1000' });
    const { body, complete } = await readBody(req, 64);
    assert.equal(body, undefined);
    assert.equal(complete, false);
    assert.equal(req.readableFlowing, null, 'the stream was never read');
  });

  test('a request without a body is not waited on', async () => {
    assert.deepEqual(await readBody(fakeRequest({}), 64), { complete: true });
  });
});

describe('express adapter', () => {
  test('the mount path is the API root; other requests fall through', async () => {
    const app = express();
    app.use('/api', toExpress(makeCms()));
    const request = await listen(http.createServer(app));
    const namespace = await request('/api/cms/v2');
    assert.equal(namespace.status, 200);
    assert.equal(namespace.headers.link, discovery('http://cms.test/api'));
    const elsewhere = await request('/elsewhere');
    assert.equal(elsewhere.status, 404);
    assert.match(elsewhere.text, /Cannot GET \/elsewhere/, 'Express answered, not quire');
  });

  test('a prefix inside the mount, and the app root defaulting to cms.apiRoot', async () => {
    const cms = makeCms();
    const app = express();
    app.use('/site', toExpress(cms, { prefix: '/cms-json' }));
    app.use(toExpress(cms));
    const request = await listen(http.createServer(app));
    assert.equal((await request('/site/cms-json/cms/v2')).headers.link, discovery('http://cms.test/site/cms-json'));
    assert.equal((await request('/cms-json/cms/v2')).headers.link, discovery('http://cms.test/cms-json'));
    assert.match((await request('/site/other')).text, /Cannot GET/);
  });

  test('the client address is the socket\'s, or with trustProxy the forwarded one', async () => {
    const seen: (string | undefined)[] = [];
    const cms = makeCms({ authenticate: (input) => { seen.push(input.remoteAddress); return null; } });
    const headers = { 'x-forwarded-for': '192.0.2.66, 203.0.113.9' };
    for (const options of [{}, { trustProxy: 'loopback' }]) {
      const app = express();
      app.use('/cms-json', toExpress(cms, options));
      await (await listen(http.createServer(app)))('/cms-json/cms/v2', { headers });
    }
    assert.deepEqual(seen, ['127.0.0.1', '203.0.113.9']);
  });

  test('bodies read by express.text() and express.raw() are passed raw', async () => {
    for (const parser of [express.text({ type: 'application/json' }), express.raw({ type: 'application/json' })]) {
      const app = express();
      app.use(parser);
      app.use('/cms-json', toExpress(makeCms()));
      const request = await listen(http.createServer(app));
      assert.deepEqual(JSON.parse((await request('/cms-json/cms/v2/mount-echo', jsonPost({ a: [1] }))).text), { params: { a: [1] } });
      const invalid = await request('/cms-json/cms/v2/mount-echo', { ...jsonPost(null), body: '{' });
      assert.equal(JSON.parse(invalid.text).code, 'rest_invalid_json');
    }
  });

  test('errors that are not JSON parse failures stay with Express', async () => {
    const app = express();
    app.set('env', 'test'); // Express logs error stacks to stderr in other environments.
    app.use(express.json({ limit: 10 }));
    app.use('/cms-json', toExpress(makeCms()));
    const request = await listen(http.createServer(app));
    const reply = await request('/cms-json/cms/v2/mount-echo', jsonPost({ title: 'longer than ten bytes' }));
    assert.equal(reply.status, 413);
    assert.match(reply.text, /PayloadTooLargeError|request entity too large/i, 'body-parser\'s own error page');
  });
});

describe('fetch adapter', () => {
  test('404 with the discovery link outside the API; prefix and trustProxy as in node', async () => {
    const handler = toFetchHandler(makeCms(), { prefix: '/api', trustProxy: true });
    const outside = await handler(new Request('http://site.test/about'));
    assert.equal(outside.status, 404);
    assert.equal(outside.headers.get('link'), discovery('http://site.test/api'));
    const proxied = await handler(new Request('http://site.test/api/cms/v2', { headers: { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'public.example' } }));
    assert.equal(proxied.headers.get('link'), discovery('https://public.example/api'));
    const direct = await toFetchHandler(makeCms())(new Request('http://site.test/cms-json/cms/v2', { headers: { 'x-forwarded-host': 'public.example' } }));
    assert.equal(direct.headers.get('link'), discovery('http://site.test/cms-json'));
  });

  test('the client address is the one the runtime tells; forwarded ones count only from a trusted proxy', async () => {
    const seen: (string | undefined)[] = [];
    const cms = makeCms({ authenticate: (input) => { seen.push(input.remoteAddress); return null; } });
    const forwarded = { 'x-forwarded-for': '192.0.2.66, 203.0.113.9' };
    const get = () => new Request('http://site.test/cms-json/cms/v2', { headers: forwarded });
    await toFetchHandler(cms, { remoteAddress: () => '10.0.0.2' })(get());
    await toFetchHandler(cms, { remoteAddress: () => '10.0.0.2', trustProxy: 1 })(get());
    await toFetchHandler(cms, { remoteAddress: () => '198.51.100.4', trustProxy: ['10.0.0.0/8'] })(get());
    await toFetchHandler(cms)(get());
    assert.deepEqual(seen, ['10.0.0.2', '203.0.113.9', '198.51.100.4', undefined]);
  });

  test('the user option passes the host\'s principal', async () => {
    const handler = toFetchHandler(makeCms(), { user: () => hostUser });
    const reply = await handler(new Request('http://site.test/cms-json/cms/v2'));
    assert.equal(reply.headers.get('cache-control'), 'no-cache, must-revalidate, max-age=0');
  });
});

describe('hono adapter', () => {
  test('non-API requests go to the next handler; a body a middleware already read still arrives', async () => {
    const seen: (string | undefined)[] = [];
    const app = new Hono();
    app.use('/cms-json/cms/v2/mount-echo', async (c, next) => {
      await c.req.json();
      await next();
    });
    app.use(toHono(makeCms({ authenticate: (input) => { seen.push(input.remoteAddress); return null; } })));
    app.get('/about', (c) => c.text('about page'));
    const request = await listen(createAdaptorServer({ fetch: app.fetch, overrideGlobalObjects: false }) as http.Server);

    assert.deepEqual(pick(await request('/about')), { status: 200, text: 'about page' });
    assert.equal((await request('/nowhere')).status, 404);
    const echoed = await request('/cms-json/cms/v2/mount-echo', jsonPost({ title: 'read twice' }));
    assert.deepEqual(JSON.parse(echoed.text), { params: { title: 'read twice' } });
    assert.equal((await request('/?rest_route=/cms/v2')).status, 200);
    assert.ok(seen.length >= 2 && seen.every((address) => address === '127.0.0.1'), 'the client address comes from node-server');
  });

  test('under app.route() the prefix names the full path', async () => {
    const api = new Hono();
    api.all('/cms-json/*', toHono(makeCms(), { prefix: '/v1/cms-json' }));
    const app = new Hono().route('/v1', api);
    const reply = await app.request('http://site.test/v1/cms-json/cms/v2');
    assert.equal(reply.status, 200);
    assert.equal(reply.headers.get('link'), discovery('http://site.test/v1/cms-json'));
  });
});

function pick(reply: Reply): { status: number; text: string } {
  return { status: reply.status, text: reply.text };
}
