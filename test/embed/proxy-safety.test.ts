import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { createSafeHttpClient } from '../../src/media/outbound/index.js';
import type { HttpClient, HttpRequest } from '../../src/ports/http-client.js';
import { fixtureClient, makeEmbedSite, q } from './helpers.js';
import { startProviders, type Providers } from './provider-fixture.js';

let env: Providers;
before(async () => {
  env = await startProviders();
});
after(async () => {
  await env.close();
});
beforeEach(() => env.reset());

/** Records what the proxy asks the HTTP port for, then passes it on. */
function recording(inner: HttpClient): HttpClient & { requests: HttpRequest[] } {
  const requests: HttpRequest[] = [];
  return { requests, fetch: (request) => (requests.push(request), inner.fetch(request)) };
}

describe('outbound safety of the proxy', () => {
  it('refuses a URL on a loopback address that is not allow-listed before any connection', async () => {
    const site = await makeEmbedSite({ httpClient: fixtureClient(), oembed: { providers: env.providers } });
    const target = `${env.blocked.base}/oembed`;
    const response = await site.proxy('administrator', q({ url: target }));
    assert.equal(response.status, 404);
    assert.equal(response.json.code, 'oembed_invalid_url');
    assert.equal(env.blocked.connections(), 0, 'no connection reached the server');
    assert.deepEqual(env.blocked.hits, []);
    // The server is there and counts: a direct request (not through the service) does reach it.
    await (await fetch(target)).text();
    assert.equal(env.blocked.connections(), 1);
  });

  it('refuses private, metadata and credentialled targets of every hop: page, endpoint, redirect', async () => {
    const http = recording(fixtureClient({ 'metadata.test': '169.254.169.254', 'intranet.test': '10.0.0.7', 'v6.test': '::1' }));
    const site = await makeEmbedSite({ httpClient: http, oembed: { providers: env.providers } });
    const urls = [
      'http://metadata.test/latest/meta-data/',
      'http://169.254.169.254/latest/meta-data/iam/',
      'http://intranet.test/wiki',
      'http://v6.test/',
      'http://[::1]/',
      `http://user:secret@127.0.0.1:${env.fixture.port}/page-json`,
      'http://private.test/a', // trusted pattern whose endpoint is on the blocked address
      'http://redirect.test/a', // trusted endpoint that redirects to the blocked address
      `${env.fixture.base}/page-private-endpoint`, // a discovered endpoint on the blocked address
    ];
    for (const url of urls) {
      const response = await site.proxy('administrator', q({ url }));
      assert.equal(response.status, 404, url);
      assert.equal(response.json.code, 'oembed_invalid_url', url);
    }
    assert.equal(env.blocked.connections(), 0);
    assert.ok(http.requests.length >= urls.length - 2, 'every fetch went through the HTTP port');
    assert.ok(!env.fixture.hits.some((hit) => hit.includes('page-json')), 'credentials in the URL are refused');
  });

  it('uses the default safe client when the host gives none, which refuses loopback', async () => {
    const site = await makeEmbedSite({ oembed: { providers: env.providers } });
    const response = await site.proxy('administrator', q({ url: 'http://trusted.test/clip' }));
    assert.equal(response.status, 404);
    assert.equal(env.fixture.connections(), 0);
  });

  it('asks the port with a deadline and a size cap', async () => {
    const http = recording(createSafeHttpClient({ allow: ['127.0.0.1'] }));
    const site = await makeEmbedSite({ httpClient: http, oembed: { providers: env.providers, timeoutMs: 1234 } });
    await site.proxy('administrator', q({ url: `${env.fixture.base}/page-json` }));
    assert.equal(http.requests.length, 2);
    assert.deepEqual(http.requests.map((request) => [request.timeoutMs, request.maxBytes, request.truncate ?? false]), [
      [1234, 150 * 1024, true],
      [1234, 1024 * 1024, false],
    ]);
  });
});
