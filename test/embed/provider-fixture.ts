/**
 * The other sites the proxy tests talk to: a loopback server with trusted-provider endpoints, pages to discover
 * and the answers they point at, and a second server on a loopback address that is NOT allow-listed, which must
 * never see a connection.
 */
import type { OembedProvider } from '../../src/embed/index.js';
import { DEFAULT_PROVIDERS } from '../../src/embed/index.js';
import { html, json, startFixture, type Fixture } from './helpers.js';

export const TRUSTED_VIDEO = {
  type: 'video', version: '1.0', title: 'Clip', provider_name: 'Trusted', width: 640, height: 360,
  html: '<iframe src="https://player.test/1"\nwidth="640"></iframe>\n<script>player()</script>', extra: { nested: [1, 2] },
};

export const DISCOVERED_RICH = {
  type: 'rich', version: '1.0', title: 'Discovered', provider_name: 'Elsewhere',
  html: '<blockquote><a href="https://x.test/p" onclick="steal()">Post</a><script>evil()</script></blockquote><p>between</p>'
    + '<iframe src="https://x.test/embed?a=1&amp;b=2" width="500" height="300" onload="evil()" allow="autoplay" style="border:0"></iframe>'
    + '<img src="x" onerror="evil()">',
};

const PHOTO_XML = '<?xml version="1.0" encoding="utf-8"?>\n<oembed><version>1.0</version><type>photo</type><title>Photo &amp; more</title>'
  + '<url>https://img.test/p.jpg</url><width>400</width><height>300</height></oembed>';

export async function startProviders() {
  const blocked = await startFixture({ '/oembed': json({ type: 'rich', html: '<iframe src="x"></iframe>' }) }, '127.0.0.2');
  const fixture: Fixture = await startFixture({
    '/oembed': json(TRUSTED_VIDEO),
    '/oembed-501': (_request, response, url) => {
      if (url.searchParams.get('format') === 'json') {
        response.writeHead(501);
        response.end();
        return;
      }
      response.writeHead(200, { 'content-type': 'text/xml' });
      response.end(PHOTO_XML);
    },
    '/oembed-photo': json({ type: 'photo', title: 'A "view"', url: 'https://img.test/v.jpg', width: 800, height: '600' }),
    '/oembed-photo-incomplete': json({ type: 'photo', title: 'No size', url: 'https://img.test/v.jpg' }),
    '/oembed-link': json({ type: 'link', title: 'Just <a> link', version: '1.0' }),
    '/oembed-unknown': json({ type: 'hologram', title: 'Future', html: '<iframe src="https://x.test/h"></iframe>' }),
    '/oembed-array': json([{ type: 'rich' }]),
    '/oembed-doctype': (_request, response) => {
      response.writeHead(200, { 'content-type': 'text/xml' });
      response.end('<?xml version="1.0"?><!DOCTYPE oembed [<!ENTITY x SYSTEM "file:///etc/passwd">]><oembed><type>link</type><title>&x;</title></oembed>');
    },
    '/oembed-huge': json({ type: 'rich', html: `<iframe src="https://x.test/"></iframe>${'x'.repeat(1_100_000)}` }),
    '/oembed-500': json({ type: 'rich', html: '<iframe src="https://x.test/"></iframe>' }, 500),
    '/oembed-proto': json('{"type":"link","title":"Proto","__proto__":{"polluted":true},"constructor":{"prototype":{"bad":1}}}'),
    '/youtube': json({ type: 'video', title: 'Tube', html: '<iframe src="https://www.youtube.com/embed/abc123"></iframe>' }),
    '/discovered': json(DISCOVERED_RICH),
    '/discovered-no-frame': json({ type: 'rich', title: 'Text only', html: '<blockquote>Only words</blockquote><script>x()</script>' }),
    '/discovered-xml': (_request, response) => {
      response.writeHead(200, { 'content-type': 'text/xml; charset=utf-8' });
      response.end(PHOTO_XML);
    },
    '/page-json': html('<!doctype html><HTML><Head><title>Page</title>\n<LINK Rel="alternate" TYPE="text/xml+oembed" href="/discovered-xml">'
      + "<link rel='alternate' type='application/json+oembed' href='/discovered?id=1&amp;x=2' title='oEmbed'></head><body>Hi</body></HTML>"),
    '/page-xml-only': html('<html><head><link rel="alternate" type="text/xml+oembed" href="/discovered-xml" /></head><body></body></html>'),
    '/page-no-frame': html('<html><head><link rel="alternate" type="application/json+oembed" href="/discovered-no-frame"></head></html>'),
    '/page-body-link': html('<html><head><title>x</title></head><body><link rel="alternate" type="application/json+oembed" href="/discovered"></body></html>'),
    '/page-hidden-links': html('<html><head><!-- <link type="application/json+oembed" href="/discovered"> -->'
      + '<script>document.write(\'<link type="application/json+oembed" href="/discovered">\')</script></head><body></body></html>'),
    '/page-unknown-type': html('<html><head><link rel="alternate" type="application/json+oembed" href="/oembed-unknown"></head></html>'),
    '/page-private-endpoint': html(`<html><head><link type="application/json+oembed" href="${blocked.base}/oembed"></head></html>`),
    '/page-big': html(`<html><head><link type="application/json+oembed" href="/discovered"></head><body>${'<p>filler</p>'.repeat(30_000)}</body></html>`),
    '/redirect-private': (_request, response) => {
      response.writeHead(302, { location: `${blocked.base}/oembed` });
      response.end();
    },
  });

  /** Trusted patterns pointing at the fixture, then the reference's list with YouTube answered by the fixture. */
  const providers = (defaults: readonly OembedProvider[]): OembedProvider[] => [
    { pattern: /^https?:\/\/trusted\.test\//i, endpoint: `${fixture.base}/oembed` },
    { pattern: /^https?:\/\/old\.test\//i, endpoint: `${fixture.base}/oembed-501` },
    { pattern: /^https?:\/\/photo\.test\//i, endpoint: `${fixture.base}/oembed-photo` },
    { pattern: /^https?:\/\/incomplete\.test\//i, endpoint: `${fixture.base}/oembed-photo-incomplete` },
    { pattern: /^https?:\/\/link\.test\//i, endpoint: `${fixture.base}/oembed-link` },
    { pattern: /^https?:\/\/list\.test\//i, endpoint: `${fixture.base}/oembed-array` },
    { pattern: /^https?:\/\/doctype\.test\//i, endpoint: `${fixture.base}/oembed-doctype` },
    { pattern: /^https?:\/\/huge\.test\//i, endpoint: `${fixture.base}/oembed-huge` },
    { pattern: /^https?:\/\/broken\.test\//i, endpoint: `${fixture.base}/oembed-500` },
    { pattern: /^https?:\/\/proto\.test\//i, endpoint: `${fixture.base}/oembed-proto` },
    { pattern: /^https?:\/\/private\.test\//i, endpoint: `${blocked.base}/oembed` },
    { pattern: /^https?:\/\/redirect\.test\//i, endpoint: `${fixture.base}/redirect-private` },
    ...defaults.map((entry) => (entry.endpoint === 'https://www.youtube.com/oembed' ? { ...entry, endpoint: `${fixture.base}/youtube` } : entry)),
  ];

  return {
    fixture,
    blocked,
    providers,
    reset() {
      fixture.reset();
      blocked.reset();
    },
    async close() {
      await fixture.close();
      await blocked.close();
    },
  };
}

export type Providers = Awaited<ReturnType<typeof startProviders>>;

export { DEFAULT_PROVIDERS };
