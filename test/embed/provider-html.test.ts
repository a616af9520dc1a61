import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { findEndpointLink } from '../../src/embed/discovery.js';
import { parseAnswer } from '../../src/embed/provider-fetch.js';
import { providerHtml, withoutLineBreaks } from '../../src/embed/provider-html.js';
import { DEFAULT_PROVIDERS, trustedEndpoint } from '../../src/embed/providers.js';

const PAGE = 'https://site.example/post/1';

describe('findEndpointLink', () => {
  it('reads link elements of the head in any attribute order, quoting and case', () => {
    assert.equal(findEndpointLink('<head><link href="/o?u=1&amp;f=json" type="application/json+oembed" rel="alternate"></head>', PAGE),
      'https://site.example/o?u=1&f=json');
    assert.equal(findEndpointLink("<HEAD><LINK TYPE='Application/JSON+oEmbed' HREF=//cdn.example/o></HEAD>", PAGE), 'https://cdn.example/o');
    assert.equal(findEndpointLink('<link type="text/xml+oembed" href="/x.xml"><link type="application/json+oembed" href="/j">', PAGE),
      'https://site.example/j', 'JSON wins over an XML link before it');
    assert.equal(findEndpointLink('<link type="application/xml+oembed" href="/x.xml">', PAGE), 'https://site.example/x.xml');
  });

  it('ignores links after the head, in comments, in scripts, without href, or with other schemes', () => {
    const ignored = [
      '<head></head><body><link type="application/json+oembed" href="/j"></body>',
      '<head><!-- <link type="application/json+oembed" href="/j"> --></head>',
      '<head><script>var s = \'<link type="application/json+oembed" href="/j">\';</script></head>',
      '<head><link type="application/json+oembed"></head>',
      '<head><link type="application/json+oembed" href="javascript:alert(1)"></head>',
      '<head><link type="application/json+oembed" href="http://[bad"></head>',
      '<head><meta name="x" content=\'<link type="application/json+oembed" href="/j">\'></head>',
      '',
    ];
    for (const html of ignored) assert.equal(findEndpointLink(html, PAGE), null, html);
  });

  it('copes with broken markup without throwing', () => {
    assert.equal(findEndpointLink('<head><link type="application/json+oembed" href="/j"', PAGE), null);
    assert.equal(findEndpointLink('<<<>>><link type=application/json+oembed href=/ok>', PAGE), 'https://site.example/ok');
  });
});

describe('providerHtml', () => {
  it('adds the object title to the first frame, keeps a frame title it has, and moves it first', () => {
    const data = { type: 'rich', title: 'T "1"', html: '<div><iframe src="a" width=5 allowfullscreen></iframe></div>' };
    assert.equal(providerHtml(data, 'https://x.example/', true), '<div><iframe title="T &quot;1&quot;" src="a" width="5" allowfullscreen=""></iframe></div>');
    const own = { type: 'video', title: 'Object', html: '<IFRAME SRC="a" TITLE="Own"></IFRAME>' };
    assert.equal(providerHtml(own, 'https://x.example/', true), '<iframe title="Own" src="a"></IFRAME>');
    const none = { type: 'rich', html: '<iframe src="a"></iframe>' };
    assert.equal(providerHtml(none, 'https://x.example/', true), '<iframe src="a"></iframe>');
  });

  it('keeps only a leading quote and the last frame of untrusted markup', () => {
    const leadingText = { type: 'rich', html: 'text<blockquote>q</blockquote><iframe src="https://a.example/1"></iframe><iframe src="https://a.example/2"></iframe>' };
    const html = providerHtml(leadingText, 'https://x.example/', false) as string;
    assert.match(html, /^<iframe class="wp-embedded-content" sandbox="allow-scripts" security="restricted" src="https:\/\/a\.example\/2#\?secret=[A-Za-z0-9]{10}" data-secret="[A-Za-z0-9]{10}"><\/iframe>$/);
    const noSource = { type: 'video', html: '<blockquote>q</blockquote><iframe width="3" onload="x()"></iframe>' };
    assert.equal(providerHtml(noSource, 'https://x.example/', false),
      '<blockquote class="wp-embedded-content">q</blockquote><iframe class="wp-embedded-content" sandbox="allow-scripts" security="restricted"'
      + ' style="position: absolute; clip: rect(1px, 1px, 1px, 1px);" width="3"></iframe>');
    const hostile = { type: 'rich', html: '<iframe src="javascript:alert(1)" srcdoc="<script>x</script>"></iframe>' };
    assert.doesNotMatch(String(providerHtml(hostile, 'https://x.example/', false)), /javascript|srcdoc|<script/);
  });

  it('only filters rich and video; other types build their own safe markup', () => {
    assert.equal(providerHtml({ type: 'link', title: '' }, 'https://x.example/', false), false);
    assert.equal(providerHtml({ type: 'rich', html: '' }, 'https://x.example/', true), false);
    assert.equal(providerHtml({ type: 'rich', html: ['not', 'text'] }, 'https://x.example/', true), false);
    assert.equal(providerHtml({ type: 'photo', url: 'javascript:alert(1)', width: 1, height: 1 }, 'https://x.example/', false),
      '<a href="https://x.example/"><img src="" alt="" width="1" height="1" /></a>');
    assert.equal(providerHtml({ type: 'photo', url: 'https://i.example/p', width: 'wide', height: 1 }, 'https://x.example/', false), false);
    assert.equal(providerHtml({ title: 'no type' }, 'https://x.example/', true), false);
  });

  it('removes line breaks outside <pre>', () => {
    assert.equal(withoutLineBreaks('a\nb<PRE class="c">x\ny</PRE>\nz\r\n'), 'ab<PRE class="c">x\ny</PRE>z');
    assert.equal(withoutLineBreaks('<pre>\nunclosed\n'), '<pre>unclosed');
    assert.equal(withoutLineBreaks(`${'<pre'.repeat(20_000)}\n`), '<pre'.repeat(20_000), 'stays linear on hostile input');
  });
});

describe('parseAnswer', () => {
  it('takes JSON objects and XML documents, nothing else', () => {
    assert.deepEqual(parseAnswer(' {"type":"link","title":"x"} '), { type: 'link', title: 'x' });
    assert.deepEqual(parseAnswer('<oembed><type>link</type></oembed>'), { type: 'link' });
    for (const text of ['[]', '"x"', '12', 'null', '', '{broken', `${'['.repeat(100_000)}`]) assert.equal(parseAnswer(text), null, text.slice(0, 10));
    let deep = '1';
    for (let level = 0; level < 50; level++) deep = `{"a":${deep}}`;
    assert.equal(parseAnswer(deep), null, 'deeper than the bound');
  });
});

describe('the trusted provider list', () => {
  it("holds the reference's 6.1 entries, first match wins, {format} becomes json", () => {
    const home = 'https://my.example';
    const cases: [string, string | null][] = [
      ['https://www.youtube.com/watch?v=x', 'https://www.youtube.com/oembed'],
      ['https://youtu.be/x', 'https://www.youtube.com/oembed'],
      ['https://vimeo.com/123', 'https://vimeo.com/api/oembed.json'],
      ['https://twitter.com/someone/status/1', 'https://publish.twitter.com/oembed'],
      ['https://twitter.com/someone', 'https://publish.twitter.com/oembed'],
      ['https://www.reddit.com/r/x/comments/1/y', 'https://www.reddit.com/oembed'],
      ['https://www.ted.com/talks/x', 'https://www.ted.com/services/v1/oembed.json'],
      ['https://videopress.com/v/abc', 'https://public-api.wordpress.com/oembed/?for=https%3A%2F%2Fmy.example'],
      ['https://pca.st/abc', 'https://pca.st/oembed.json'],
      ['https://x.com/someone/status/1', null],
      ['https://www.instagram.com/p/x', null],
      ['https://www.facebook.com/x', null],
    ];
    for (const [url, endpoint] of cases) assert.equal(trustedEndpoint(url, DEFAULT_PROVIDERS, home), endpoint, url);
    assert.ok(DEFAULT_PROVIDERS.length >= 55);
    assert.ok(Object.isFrozen(DEFAULT_PROVIDERS));
    const sticky = [{ pattern: /^https:\/\/g\.example\//g, endpoint: 'https://g.example/o' }];
    assert.equal(trustedEndpoint('https://g.example/a', sticky, home), 'https://g.example/o');
    assert.equal(trustedEndpoint('https://g.example/a', sticky, home), 'https://g.example/o', 'a global pattern matches every time');
  });
});
