import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { makeEmbedSite, q, secretsOf } from './helpers.js';

describe('cms.oembed (in-process)', () => {
  it("gives a published post's discovery links for the page head and the Link header", async () => {
    const site = await makeEmbedSite();
    const post = await site.create({ title: 'Discover me', status: 'publish' });
    const links = await site.cms.oembed.discoveryLinks(post.id);
    assert.ok(links);
    const json = 'http://example.test/cms-json/oembed/1.0/embed?url=http%3A%2F%2Fexample.test%2F2026%2F11%2F21%2Fdiscover-me%2F';
    assert.deepEqual(links, {
      json,
      xml: `${json}&format=xml`,
      html: `<link rel="alternate" type="application/json+oembed" href="${json}" />\n`
        + `<link rel="alternate" type="text/xml+oembed" href="${json}&#038;format=xml" />\n`,
      header: `<${json}>; rel="alternate"; type="application/json+oembed", <${json}&format=xml>; rel="alternate"; type="text/xml+oembed"`,
      permalink: 'http://example.test/2026/11/21/discover-me/',
      embedUrl: 'http://example.test/2026/11/21/discover-me/embed/',
    });
    // The advertised endpoints answer.
    const viaLink = await site.cms.handle({ method: 'GET', path: '/oembed/1.0/embed', query: links.xml.split('?')[1]! });
    assert.equal(viaLink.status, 200);
    assert.equal(viaLink.headers['Content-Type'], 'text/xml; charset=UTF-8');
  });

  it('gives no links for what cannot be embedded', async () => {
    const site = await makeEmbedSite();
    const draft = await site.create({ title: 'Draft', status: 'draft' });
    const privatePost = await site.create({ title: 'Private', status: 'private' });
    for (const id of [draft.id, privatePost.id, 987654, 0, -1, 1.5, Number.NaN]) {
      assert.equal(await site.cms.oembed.discoveryLinks(id), null, String(id));
    }
  });

  it('follows the API root a request reached when no site address is configured', async () => {
    const site = await makeEmbedSite({ site: { url: undefined } });
    const post = await site.create({ title: 'Anywhere', status: 'publish' }, {});
    const links = await site.cms.oembed.discoveryLinks(post.id, 'https://blog.example/api');
    assert.ok(links?.json.startsWith('https://blog.example/api/oembed/1.0/embed?url='));
  });

  it("answers this site's oEmbed objects as the route does", async () => {
    const site = await makeEmbedSite();
    const post = await site.create({ title: 'Direct', status: 'publish' });
    const data = await site.cms.oembed.embed(post.link, 300);
    assert.equal(data?.title, 'Direct');
    assert.deepEqual([data?.width, data?.height], [300, 200]);
    assert.equal(secretsOf(String(data?.html)).frameUrl, 'http://example.test/2026/11/21/direct/embed/');
    assert.equal(await site.cms.oembed.embed('http://elsewhere.example/x'), null);
    assert.equal(await site.cms.oembed.embed('not a url'), null);
  });

  it('leaves single post reads as the reference has them: no oEmbed fields or links', async () => {
    const site = await makeEmbedSite();
    const post = await site.create({ title: 'Read', status: 'publish' });
    const read = await site.anonymous('GET', `/cms/v2/posts/${post.id}`);
    assert.equal(read.status, 200);
    assert.doesNotMatch(JSON.stringify(read.json), /oembed/i);
    assert.doesNotMatch(read.headers.Link ?? '', /oembed/i);
    assert.equal((await site.embed(q({ url: read.json.link }))).json.title, 'Read', 'the post link it carries embeds');
  });
});
