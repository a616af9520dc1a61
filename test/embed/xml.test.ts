import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { XMLValidator } from 'fast-xml-parser';
import { oembedXml, parseProviderXml } from '../../src/embed/xml.js';
import { makeEmbedSite, q, secretsOf, textOf, xmlParser } from './helpers.js';

/** JSON data as the XML carries it: every leaf a string. */
function asXmlStrings(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(asXmlStrings);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, asXmlStrings(item)]));
  }
  return String(value);
}

describe('oEmbed XML (format=xml on the embed route)', () => {
  it('serialises the same object as the JSON answer, and round-trips through a parser', async () => {
    const site = await makeEmbedSite({ site: { name: 'Fish & <Chips>' } });
    const post = await site.create({ title: '"Quoted" & <b>bold</b>', status: 'publish' });
    const response = await site.embed(`${q({ url: post.link })}&format=xml&maxwidth=300`);
    assert.equal(response.status, 200);
    assert.equal(response.headers['Content-Type'], 'text/xml; charset=UTF-8');
    const text = textOf(response);
    assert.ok(text.startsWith('<?xml version="1.0"?>\n<oembed><version>1.0</version><provider_name>Fish &amp; &lt;Chips&gt;</provider_name>'));
    assert.ok(text.endsWith('</oembed>\n'));
    assert.equal(XMLValidator.validate(text), true);
    const parsed = xmlParser.parse(text).oembed;
    const json = (await site.embed(`${q({ url: post.link })}&maxwidth=300`)).json;
    // The secrets differ between two answers; everything else is the same data.
    const withoutSecrets = (data: Record<string, unknown>) =>
      ({ ...data, html: String(data.html).replaceAll(secretsOf(String(data.html)).secrets[0]!, 'SECRET') });
    assert.deepEqual(withoutSecrets(parsed), withoutSecrets(asXmlStrings(json) as Record<string, unknown>));
    assert.deepEqual(Object.keys(parsed), Object.keys(json));
    assert.ok(parsed.html.startsWith('<blockquote class="wp-embedded-content" data-secret="'), 'the HTML comes back exactly');
  });

  it('serialises errors the same way and keeps their status', async () => {
    const site = await makeEmbedSite();
    const notFound = await site.embed(`${q({ url: 'http://example.test/?p=12345' })}&format=xml`);
    assert.equal(notFound.status, 404);
    assert.equal(notFound.headers['Content-Type'], 'text/xml; charset=UTF-8');
    assert.equal(textOf(notFound),
      '<?xml version="1.0"?>\n<oembed><code>oembed_invalid_url</code><message>Not Found</message><data><status>404</status></data></oembed>\n');

    const missing = await site.embed('format=xml');
    assert.equal(missing.status, 400);
    assert.deepEqual(xmlParser.parse(textOf(missing)), {
      oembed: { code: 'rest_missing_callback_param', message: 'Missing parameter(s): url', data: { status: '400', params: { oembed: 'url' } } },
    });

    const invalid = await site.embed('format=xml&url=nope');
    assert.equal(invalid.status, 400);
    const body = xmlParser.parse(textOf(invalid)).oembed;
    assert.equal(body.code, 'rest_invalid_param');
    assert.equal(body.data.details.url.code, 'rest_invalid_url');
    assert.equal(body.data.details.url.data, '', 'null becomes an empty element');
  });

  it('answers JSON for any other format, for HEAD, and for the proxy route', async () => {
    const site = await makeEmbedSite();
    const post = await site.create({ title: 'Formats', status: 'publish' });
    for (const format of ['json', 'yaml', 'XML', '']) {
      const response = await site.embed(`${q({ url: post.link })}&format=${format}`);
      assert.equal(response.headers['Content-Type'], 'application/json; charset=UTF-8', format);
      assert.equal(response.json.title, 'Formats');
    }
    const listFormat = await site.embed(`${q({ url: post.link })}&format[]=xml`);
    assert.equal(listFormat.headers['Content-Type'], 'application/json; charset=UTF-8');
    const head = await site.cms.handle({ method: 'HEAD', path: '/oembed/1.0/embed', query: `${q({ url: post.link })}&format=xml` });
    assert.equal(head.status, 200);
    assert.equal(head.body, null);
    const proxy = await site.proxy('administrator', `${q({ url: post.link })}&format=xml`);
    assert.equal(proxy.headers['Content-Type'], 'application/json; charset=UTF-8', 'the proxy accepts format=xml but answers JSON');
    assert.equal(proxy.json.title, 'Formats');
  });

  it('wins over JSONP and pretty printing, as the reference serves XML before either', async () => {
    const site = await makeEmbedSite();
    const post = await site.create({ title: 'Callbacks', status: 'publish' });
    const response = await site.embed(`${q({ url: post.link })}&format=xml&_jsonp=cb&_pretty`);
    assert.equal(response.headers['Content-Type'], 'text/xml; charset=UTF-8');
    assert.equal(xmlParser.parse(textOf(response)).oembed.title, 'Callbacks');
    const enveloped = await site.embed(`${q({ url: post.link })}&format=xml&_envelope`);
    assert.equal(enveloped.status, 200);
    const envelope = xmlParser.parse(textOf(enveloped)).oembed;
    assert.equal(envelope.status, '200');
    assert.equal(envelope.body.title, 'Callbacks');
  });
});

describe('oembedXml', () => {
  it('writes list items as <oembed> elements, in order, nested lists too', () => {
    const xml = oembedXml({ a: ['x', 'y'], b: [['p', 'q']], c: {}, d: true, e: false, f: null, g: 1.5 })!;
    assert.equal(xml, '<?xml version="1.0"?>\n<oembed><a><oembed>x</oembed><oembed>y</oembed></a>'
      + '<b><oembed><oembed>p</oembed><oembed>q</oembed></oembed></b><c/><d>1</d><e/><f/><g>1.5</g></oembed>\n');
    assert.equal(oembedXml(['only']), '<?xml version="1.0"?>\n<oembed><oembed>only</oembed></oembed>\n');
  });

  it('gives nothing for answers that make no document: scalars, empty objects, keys that are no element names', () => {
    assert.equal(oembedXml('text'), null);
    assert.equal(oembedXml(null), null);
    assert.equal(oembedXml({}), null);
    assert.equal(oembedXml({ 'bad key': 1 }), null);
    assert.equal(oembedXml({ ok: { '<x>': 1 } }), null);
    let deep: unknown = 'leaf';
    for (let level = 0; level < 100; level++) deep = { level: deep };
    assert.equal(oembedXml(deep), null);
  });
});

describe('parseProviderXml', () => {
  it("reads the root's children as string fields", () => {
    const fields = parseProviderXml('<?xml version="1.0" encoding="utf-8"?>\n<oembed><type>video</type><width>640</width>'
      + '<html>&lt;iframe src="x"&gt;&lt;/iframe&gt;</html><title>A &amp; B</title><empty/></oembed>');
    assert.deepEqual(fields, { type: 'video', width: '640', html: '<iframe src="x"></iframe>', title: 'A & B', empty: '' });
  });

  it('refuses DOCTYPEs and entity declarations, broken documents, and keeps prototypes out', () => {
    assert.equal(parseProviderXml('<!DOCTYPE oembed [<!ENTITY e SYSTEM "file:///etc/passwd">]><oembed><title>&e;</title></oembed>'), null);
    assert.equal(parseProviderXml('<oembed><title>unclosed</oembed>'), null);
    assert.equal(parseProviderXml('not xml'), null);
    const hostile = parseProviderXml('<oembed><__proto__>x</__proto__><type>rich</type></oembed>');
    assert.ok(hostile === null || !Object.hasOwn(hostile, '__proto__'));
    assert.equal(({} as Record<string, unknown>).x, undefined);
    const constructorTag = parseProviderXml('<oembed><constructor>c</constructor><type>rich</type></oembed>');
    assert.ok(constructorTag === null || !Object.hasOwn(constructorTag, 'constructor'));
    assert.deepEqual(parseProviderXml('<oembed><title>first</title><title>last</title></oembed>'), { title: 'last' });
    assert.deepEqual(parseProviderXml('<response><type>link</type><title>Other root</title></response>'), { type: 'link', title: 'Other root' });
  });
});
