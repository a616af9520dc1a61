import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { toNodeListener } from '../../adapters/node.js';
import { fixtureClient, makeEmbedSite, q, type EmbedSite, xmlParser } from './helpers.js';
import { startProviders, type Providers } from './provider-fixture.js';

let env: Providers;
let site: EmbedSite;
let server: http.Server;
let base: string;
let postLink: string;
let authorization = '';

before(async () => {
  env = await startProviders();
  site = await makeEmbedSite({ httpClient: fixtureClient(), oembed: { providers: env.providers } });
  postLink = (await site.create({ title: 'Over the wire', status: 'publish' })).link;
  const password = await site.cms.users.createApplicationPassword(site.ids.editor, { name: 'tests' });
  authorization = `Basic ${Buffer.from(`editor:${password.password}`).toString('base64')}`;
  server = http.createServer(toNodeListener(site.cms));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/cms-json`;
});

after(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await env.close();
});

describe('oEmbed through the node http adapter', () => {
  it('serves the JSON object', async () => {
    const response = await fetch(`${base}/oembed/1.0/embed?${q({ url: postLink, maxwidth: 300 })}`);
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'application/json; charset=UTF-8');
    const data = await response.json() as Record<string, unknown>;
    assert.deepEqual([data.title, data.width, data.height], ['Over the wire', 300, 200]);
  });

  it('serves XML bytes with the text/xml type, errors with their status', async () => {
    const response = await fetch(`${base}/oembed/1.0/embed?${q({ url: postLink, format: 'xml' })}`);
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'text/xml; charset=UTF-8');
    const text = await response.text();
    assert.ok(text.startsWith('<?xml version="1.0"?>\n<oembed>'));
    assert.equal(xmlParser.parse(text).oembed.title, 'Over the wire');
    assert.equal(Number(response.headers.get('content-length')), Buffer.byteLength(text));

    const missing = await fetch(`${base}/oembed/1.0/embed?format=xml`);
    assert.equal(missing.status, 400);
    assert.equal(missing.headers.get('content-type'), 'text/xml; charset=UTF-8');
    assert.equal(xmlParser.parse(await missing.text()).oembed.code, 'rest_missing_callback_param');
  });

  it('runs the proxy for an authenticated editor and refuses anonymous callers', async () => {
    const anonymous = await fetch(`${base}/oembed/1.0/proxy?${q({ url: 'http://trusted.test/v' })}`);
    assert.equal(anonymous.status, 401);
    const editor = await fetch(`${base}/oembed/1.0/proxy?${q({ url: 'http://trusted.test/v' })}`, { headers: { authorization } });
    assert.equal(editor.status, 200);
    assert.equal((await editor.json() as Record<string, unknown>).provider_name, 'Trusted');
  });

  it('lists both routes in the index with the reference arguments', async () => {
    const index = await (await fetch(`${base}/oembed/1.0`)).json() as { routes: Record<string, { endpoints: { args: unknown }[] }> };
    assert.deepEqual(Object.keys(index.routes), ['/oembed/1.0', '/oembed/1.0/embed', '/oembed/1.0/proxy']);
    assert.deepEqual(index.routes['/oembed/1.0/embed']!.endpoints[0]!.args, {
      url: { description: 'The URL of the resource for which to fetch oEmbed data.', type: 'string', format: 'uri', required: true },
      format: { default: 'json', required: false },
      maxwidth: { default: 600, required: false },
    });
    assert.deepEqual(index.routes['/oembed/1.0/proxy']!.endpoints[0]!.args, {
      url: { description: 'The URL of the resource for which to fetch oEmbed data.', type: 'string', format: 'uri', required: true },
      format: { description: 'The oEmbed format to use.', type: 'string', default: 'json', enum: ['json', 'xml'], required: false },
      maxwidth: { description: 'The maximum width of the embed frame in pixels.', type: 'integer', default: 600, required: false },
      maxheight: { description: 'The maximum height of the embed frame in pixels.', type: 'integer', required: false },
      discover: {
        description: 'Whether to perform an oEmbed discovery request for unsanctioned providers.', type: 'boolean', default: true, required: false,
      },
    });
    const root = await (await fetch(`${base}/`)).json() as { routes: Record<string, { methods: string[]; _links?: unknown }> };
    assert.deepEqual(root.routes['/oembed/1.0/embed']!.methods, ['GET']);
    assert.deepEqual(root.routes['/oembed/1.0/proxy']!._links, { self: [{ href: 'http://example.test/cms-json/oembed/1.0/proxy' }] });
  });
});
