import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, describe, it } from 'node:test';
import { gunzipSync, gzipSync } from 'node:zlib';
import { createAdaptorServer } from '@hono/node-server';
import express from 'express';
import { Hono } from 'hono';
import { toExpress } from '../../adapters/express.js';
import { toFetchHandler } from '../../adapters/fetch.js';
import { toHono } from '../../adapters/hono.js';
import { toNodeListener } from '../../adapters/node.js';
import { adminHandler, createAdminApp, diskAssets, type AdminAssets, type AdminHandler } from '../../src/admin/index.js';
import { createCms } from '../../src/index.js';

/** A stand-in for the build's files: the tests below are about serving them, not about what they hold. */
const assets: AdminAssets = {
  manifest: { script: 'assets/app-ABC123.js', stylesheet: 'assets/app-DEF456.css', files: ['assets/app-ABC123.js', 'assets/app-DEF456.css', 'assets/logo-1.svg'] },
  async read(file) {
    return this.manifest.files.includes(file) ? new TextEncoder().encode(`/* ${file} */`) : null;
  },
};

const text = (body: Uint8Array | null) => new TextDecoder().decode(body ?? new Uint8Array());

describe('the authoring app handler', () => {
  const app = createAdminApp({ apiRoot: '/cms-json', scripts: ['/blocks/my-block.js'] }, assets);

  it('serves the page uncached, with a self-only script policy and the settings as inert JSON', async () => {
    const page = await app.handle({ method: 'GET', path: '/' });
    assert.equal(page.status, 200);
    assert.equal(page.headers['Content-Type'], 'text/html; charset=utf-8');
    assert.equal(page.headers['Cache-Control'], 'no-cache');
    assert.equal(page.headers['X-Content-Type-Options'], 'nosniff');
    const policy = page.headers['Content-Security-Policy']!;
    assert.match(policy, /(^|; )default-src 'self'(;|$)/);
    assert.match(policy, /(^|; )script-src 'self'(;|$)/);
    assert.match(policy, /(^|; )connect-src 'self'(;|$)/);
    assert.match(policy, /object-src 'none'/);
    const html = text(page.body);
    assert.match(html, /<script type="module" src="assets\/app-ABC123\.js"><\/script>/);
    assert.match(html, /<link rel="stylesheet" href="assets\/app-DEF456\.css">/);
    const config = JSON.parse(/<script type="application\/json" id="quire-admin-config">(.*?)<\/script>/.exec(html)![1]!);
    assert.deepEqual(config, { apiRoot: '/cms-json', names: 'neutral', scripts: ['/blocks/my-block.js'], autosaveInterval: 60 });
    assert.doesNotMatch(html, /<script>/, 'no inline script');
    assert.equal((await app.handle({ method: 'GET', path: '/index.html' })).status, 200);
  });

  it('serves hashed assets as immutable with their content types', async () => {
    const script = await app.handle({ method: 'GET', path: '/assets/app-ABC123.js' });
    assert.equal(script.status, 200);
    assert.equal(script.headers['Content-Type'], 'text/javascript; charset=utf-8');
    assert.equal(script.headers['Cache-Control'], 'public, max-age=31536000, immutable');
    assert.equal(text(script.body), '/* assets/app-ABC123.js */');
    assert.equal((await app.handle({ method: 'GET', path: '/assets/app-DEF456.css' })).headers['Content-Type'], 'text/css; charset=utf-8');
    assert.equal((await app.handle({ method: 'GET', path: '/assets/logo-1.svg' })).headers['Content-Type'], 'image/svg+xml');
    const head = await app.handle({ method: 'HEAD', path: '/assets/app-ABC123.js' });
    assert.equal(head.status, 200);
    assert.equal(head.body, null);
    assert.equal(head.headers['Content-Length'], String('/* assets/app-ABC123.js */'.length));
  });

  it('serves the gzipped copy to clients that accept gzip, and says it varies', async () => {
    const zipped = createAdminApp({ apiRoot: '/cms-json' }, {
      manifest: { ...assets.manifest, gzip: ['assets/app-ABC123.js'] },
      read: async (file) => (file === 'assets/app-ABC123.js.gz' ? gzipSync('/* zipped */') : assets.read(file)),
    });
    const compressed = await zipped.handle({ method: 'GET', path: '/assets/app-ABC123.js', acceptEncoding: 'br;q=1, gzip;q=0.8' });
    assert.equal(compressed.headers['Content-Encoding'], 'gzip');
    assert.equal(compressed.headers.Vary, 'Accept-Encoding');
    assert.equal(gunzipSync(compressed.body!).toString(), '/* zipped */');
    for (const acceptEncoding of [undefined, 'br', 'gzip;q=0', 'identity']) {
      const plain = await zipped.handle({ method: 'GET', path: '/assets/app-ABC123.js', acceptEncoding });
      assert.equal(plain.headers['Content-Encoding'], undefined, String(acceptEncoding));
      assert.equal(plain.headers.Vary, 'Accept-Encoding');
      assert.equal(text(plain.body), '/* assets/app-ABC123.js */');
    }
    assert.equal((await zipped.handle({ method: 'GET', path: '/assets/app-ABC123.js.gz' })).status, 404, 'the copy is no file of its own');
    const stylesheet = await zipped.handle({ method: 'GET', path: '/assets/app-DEF456.css', acceptEncoding: 'gzip' });
    assert.equal(stylesheet.headers['Content-Encoding'], undefined, 'only what the manifest lists as gzipped');
  });

  it('answers 404 for anything but the page and the built files, traversal included', async () => {
    for (const path of ['/manifest.json', '/assets/', '/assets/../manifest.json', '/assets/%2e%2e/manifest.json', '/../package.json', '/assets/app-ABC123.js/', '//etc/passwd', '/assets/app-abc123.js', '/constructor', '/__proto__']) {
      const response = await app.handle({ method: 'GET', path });
      assert.equal(response.status, 404, path);
      assert.equal(response.headers['Content-Type'], 'text/plain; charset=utf-8');
    }
  });

  it('answers 405 with Allow for other methods', async () => {
    for (const path of ['/', '/assets/app-ABC123.js']) {
      const response = await app.handle({ method: 'POST', path });
      assert.equal(response.status, 405);
      assert.equal(response.headers.Allow, 'GET, HEAD');
    }
    assert.equal((await app.handle({ method: 'DELETE', path: '/nothing' })).status, 404);
  });

  it('allows the API and media origins when they are elsewhere, and scripts from the host', async () => {
    const remote = createAdminApp({ apiRoot: 'https://api.example.com/cms-json', scripts: ['https://cdn.example.com/blocks.js'], mediaOrigins: ['https://media.example.com'] }, assets);
    const policy = (await remote.handle({ method: 'GET', path: '/' })).headers['Content-Security-Policy']!;
    assert.match(policy, /connect-src 'self' https:\/\/api\.example\.com(;|$)/);
    assert.match(policy, /script-src 'self' https:\/\/cdn\.example\.com(;|$)/);
    assert.match(policy, /img-src 'self' data: blob: https:\/\/api\.example\.com https:\/\/media\.example\.com(;|$)/);
  });

  it('escapes the settings so no value can close the script element', async () => {
    const hostile = createAdminApp({ apiRoot: '/x</script><script>alert(1)</script>' }, assets);
    const html = text((await hostile.handle({ method: 'GET', path: '/' })).body);
    assert.doesNotMatch(html, /<script>alert/);
    assert.match(html, /\\u003c\/script>/);
  });

  it('refuses options that make no sense', () => {
    assert.throws(() => createAdminApp({ apiRoot: '' }, assets), /apiRoot/);
    assert.throws(() => createAdminApp({ apiRoot: '/cms-json', basePath: 'admin area' }, assets), /admin path/);
    assert.throws(() => createAdminApp({ apiRoot: '/cms-json', autosaveInterval: 0 }, assets), /autosaveInterval/);
    assert.throws(() => createAdminApp({ apiRoot: 'http://[bad/cms-json' }, assets), /Not a URL/);
  });

  it('reads the build in dist/admin/ and explains a missing one', async () => {
    const built = await diskAssets();
    assert.match(built.manifest.script, /^assets\/app-[A-Z0-9]+\.js$/);
    assert.ok((await built.read(built.manifest.script))!.byteLength > 100_000);
    assert.equal(await built.read('manifest.json'), null);
    assert.ok(built.manifest.gzip?.includes(built.manifest.script));
    assert.equal(gunzipSync((await built.read(`${built.manifest.script}.gz`))!).byteLength, (await built.read(built.manifest.script))!.byteLength);
    await assert.rejects(diskAssets(new URL('file:///nonexistent/quire-admin/')), /not built/);
  });
});

describe('the authoring app behind each adapter', () => {
  const servers: http.Server[] = [];
  after(() => servers.forEach((server) => { server.closeAllConnections(); server.close(); }));

  async function listen(server: http.Server): Promise<(path: string, method?: string) => Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>> {
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    return async (path, method = 'GET') => {
      const response = await fetch(`http://127.0.0.1:${port}${path}`, { method, redirect: 'manual' });
      return { status: response.status, headers: Object.fromEntries(response.headers) as http.IncomingHttpHeaders, body: await response.text() };
    };
  }

  async function check(request: Awaited<ReturnType<typeof listen>>, admin: AdminHandler): Promise<void> {
    const page = await request('/admin/');
    assert.equal(page.status, 200);
    assert.match(page.headers['content-security-policy'] as string, /script-src 'self'/);
    assert.equal((await request('/admin/assets/app-ABC123.js')).headers['cache-control'], 'public, max-age=31536000, immutable');
    const redirect = await request('/admin?x=1');
    assert.equal(redirect.status, 308);
    assert.equal(redirect.headers.location, '/admin/?x=1');
    assert.equal((await request('/admin/assets/..%2fmanifest.json')).status, 404);
    assert.equal((await request('/admin/', 'PUT')).status, 405);
    const api = await request('/cms-json/cms/v2/posts');
    assert.equal(api.status, 200, 'the API still answers beside the app');
    assert.equal(admin.basePath, '/admin');
  }

  const cms = createCms();

  it('node http', async () => {
    const admin = await adminHandler({ apiRoot: '/cms-json', assets });
    const api = toNodeListener(cms);
    await check(await listen(http.createServer((req, res) => admin.node(req, res, () => api(req, res)))), admin);
  });

  it('Express', async () => {
    const admin = await adminHandler({ apiRoot: '/cms-json', assets });
    const app = express();
    app.use('/admin', admin.node);
    app.use(...toExpress(cms));
    await check(await listen(http.createServer(app)), admin);
  });

  it('Hono', async () => {
    const admin = await adminHandler({ apiRoot: '/cms-json', assets });
    const app = new Hono();
    app.all('/admin', (c) => admin.fetch(c.req.raw));
    app.all('/admin/*', (c) => admin.fetch(c.req.raw));
    app.use(toHono(cms));
    await check(await listen(createAdaptorServer({ fetch: app.fetch }) as http.Server), admin);
  });

  it('fetch', async () => {
    const admin = await adminHandler({ apiRoot: '/cms-json', assets });
    const api = toFetchHandler(cms);
    const handle = (request: Request) => (admin.matches(new URL(request.url).pathname) ? admin.fetch(request) : api(request));
    await check(await listen(createAdaptorServer({ fetch: handle }) as http.Server), admin);
    const outside = await admin.fetch(new Request('http://x.test/elsewhere'));
    assert.equal(outside.status, 404);
  });
});
