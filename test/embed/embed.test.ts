import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { encodePng, Image } from 'image-js';
import { HOST_SCRIPT_TAG } from '../../src/embed/host-script.js';
import { makeEmbedSite, q, sameRecords, secretsOf } from './helpers.js';

describe('GET /oembed/1.0/embed', () => {
  it("answers a published post's oEmbed object with the reference's fields, sizes and markup", async () => {
    const site = await makeEmbedSite();
    const post = await site.create({ title: 'Hello world!', content: 'Body', status: 'publish' });
    const response = await site.embed(q({ url: post.link }));
    assert.equal(response.status, 200);
    assert.equal(response.headers['Content-Type'], 'application/json; charset=UTF-8');
    const data = response.json;
    assert.deepEqual(Object.keys(data), [
      'version', 'provider_name', 'provider_url', 'author_name', 'author_url', 'title', 'type', 'width', 'height', 'html',
    ]);
    assert.equal(data.version, '1.0');
    assert.equal(data.provider_name, 'Ref Site');
    assert.equal(data.provider_url, 'http://example.test');
    assert.equal(data.author_name, 'Ada Admin');
    assert.equal(data.author_url, 'http://example.test/author/administrator/');
    assert.equal(data.title, 'Hello world!');
    assert.equal(data.type, 'rich');
    assert.equal(data.width, 600);
    assert.equal(data.height, 338);

    const { secrets, src } = secretsOf(data.html);
    assert.equal(secrets.length, 2);
    assert.match(secrets[0]!, /^[A-Za-z0-9]{10}$/);
    assert.equal(secrets[1], secrets[0]);
    const secret = secrets[0]!;
    assert.equal(src, `http://example.test/2026/11/21/hello-world/embed/#?secret=${secret}`);
    assert.equal(data.html,
      `<blockquote class="wp-embedded-content" data-secret="${secret}"><a href="http://example.test/2026/11/21/hello-world/">Hello world!</a></blockquote>`
      + `<iframe sandbox="allow-scripts" security="restricted" src="${src}" width="600" height="338"`
      + ` title="&#8220;Hello world!&#8221; &#8212; Ref Site" data-secret="${secret}" frameborder="0" marginwidth="0"`
      + ` marginheight="0" scrolling="no" class="wp-embedded-content"></iframe>${HOST_SCRIPT_TAG}`);
    const again = await site.embed(q({ url: post.link }));
    assert.notEqual(secretsOf(again.json.html).secrets[0], secret, 'every answer gets its own secret');
  });

  it('clamps the width to 200–600 and derives the height (16:9, at least 200)', async () => {
    const site = await makeEmbedSite();
    const post = await site.create({ title: 'Sizes', status: 'publish' });
    const sizes: [string, number, number][] = [
      ['600', 600, 338], ['300', 300, 200], ['100', 200, 200], ['1000', 600, 338], ['abc', 200, 200], ['-300', 300, 200],
      ['99999999999999999999999', 600, 338], ['450', 450, 254], ['', 200, 200], ['0', 200, 200], ['500px', 500, 282],
    ];
    for (const [maxwidth, width, height] of sizes) {
      const response = await site.embed(`${q({ url: post.link })}&maxwidth=${encodeURIComponent(maxwidth)}`);
      assert.equal(response.status, 200, maxwidth);
      assert.deepEqual([response.json.width, response.json.height], [width, height], `maxwidth=${maxwidth}`);
      assert.match(response.json.html, new RegExp(`width="${width}" height="${height}"`));
    }
    const list = await site.embed(`${q({ url: post.link })}&maxwidth[]=300`);
    assert.equal(list.status, 200);
    assert.equal(list.json.width, 200);
    const ignored = await site.embed(`${q({ url: post.link })}&maxheight=50`);
    assert.deepEqual([ignored.json.width, ignored.json.height], [600, 338], 'maxheight is not an argument here');
  });

  it('resolves ?p=, ?page_id=, pretty page paths and the front page', async () => {
    const site = await makeEmbedSite();
    const post = await site.create({ title: 'By id', status: 'publish' });
    const parent = await site.create({ title: 'Parent', status: 'publish' }, { base: 'pages' });
    const child = await site.create({ title: 'Child', status: 'publish', parent: parent.id }, { base: 'pages' });
    assert.equal(child.link, 'http://example.test/parent/child/');

    const byP = await site.embed(q({ url: `http://example.test/?p=${post.id}` }));
    assert.equal(byP.json.title, 'By id');
    const byPageId = await site.embed(q({ url: `http://example.test/?page_id=${child.id}` }));
    assert.equal(byPageId.json.title, 'Child');
    const pretty = await site.embed(q({ url: 'http://example.test/parent/child/' }));
    assert.equal(pretty.json.title, 'Child');
    assert.equal(secretsOf(pretty.json.html).frameUrl, 'http://example.test/parent/child/embed/');
    const noSlash = await site.embed(q({ url: 'http://EXAMPLE.test/parent/child?utm=x#top' }));
    assert.equal(noSlash.json.title, 'Child', 'query, fragment, trailing slash and host case do not matter');
    const www = await site.embed(q({ url: 'https://www.example.test/parent/child/' }));
    assert.equal(www.json.title, 'Child', 'www. and the scheme are ignored as in the reference');
    const wrongParent = await site.embed(q({ url: 'http://example.test/child/' }));
    assert.equal(wrongParent.status, 404, 'a page is found only at its own path');
    const wrongDate = await site.embed(q({ url: 'http://example.test/2020/01/01/by-id/' }));
    assert.equal(wrongDate.status, 404, 'a post is found only at its own permalink');

    const root = await site.embed(q({ url: 'http://example.test/' }));
    assert.equal(root.status, 404, 'the root names no post while posts are on the front');
    const front = await makeEmbedSite({ site: { showOnFront: 'page', pageOnFront: 0 } });
    const home = await front.create({ title: 'Welcome', status: 'publish' }, { base: 'pages' });
    const withFront = sameRecords(front, { site: { showOnFront: 'page', pageOnFront: home.id } });
    const frontAnswer = await withFront.embed(q({ url: 'http://example.test' }));
    assert.equal(frontAnswer.status, 200);
    assert.equal(frontAnswer.json.title, 'Welcome');
    assert.equal(secretsOf(frontAnswer.json.html).frameUrl, 'http://example.test/embed/');
    assert.equal((await withFront.embed(q({ url: home.link }))).json.title, 'Welcome', 'its own page address works too');
  });

  it('follows the permalink structure, and plain permalinks embed with ?embed=true', async () => {
    const plain = await makeEmbedSite({ posts: { permalinkStructure: '' } });
    const post = await plain.create({ title: 'Plain', status: 'publish' });
    assert.equal(post.link, `http://example.test/?p=${post.id}`);
    const answer = await plain.embed(q({ url: post.link }));
    assert.equal(answer.status, 200);
    assert.match(answer.json.html, new RegExp(`<a href="http://example.test/\\?p=${post.id}">Plain</a>`));
    assert.equal(secretsOf(answer.json.html).frameUrl, `http://example.test/?p=${post.id}&#038;embed=true`);
    assert.equal(answer.json.author_url, `http://example.test/?author=${plain.ids.administrator}`);
    assert.equal((await plain.embed(q({ url: 'http://example.test/plain/' }))).status, 404);

    const byName = await makeEmbedSite({ posts: { permalinkStructure: '/%postname%/' } });
    const named = await byName.create({ title: 'Named post', status: 'publish' });
    assert.equal((await byName.embed(q({ url: 'http://example.test/named-post/' }))).json.title, 'Named post');
    const byId = await makeEmbedSite({ posts: { permalinkStructure: '/archives/%post_id%' } });
    const numbered = await byId.create({ title: 'Numbered', status: 'publish' });
    const numberedAnswer = await byId.embed(q({ url: `http://example.test/archives/${numbered.id}` }));
    assert.equal(numberedAnswer.json.title, 'Numbered');
    assert.equal(secretsOf(numberedAnswer.json.html).frameUrl, `http://example.test/archives/${numbered.id}/embed`);
    assert.equal(named.id > 0, true);
  });

  it('falls back to ?embed=true when a real page already lives at …/embed/', async () => {
    const site = await makeEmbedSite({ posts: { permalinkStructure: '/%postname%/' } });
    const page = await site.create({ title: 'Guide', status: 'publish' }, { base: 'pages' });
    const child = await site.create({ title: 'Embed', slug: 'embed', status: 'publish', parent: page.id }, { base: 'pages' });
    assert.equal(child.slug, 'embed-2', 'the API never hands out the reserved slug');
    assert.equal(secretsOf((await site.embed(q({ url: page.link }))).json.html).frameUrl, 'http://example.test/guide/embed/');
    // Records imported straight into the store can still hold it.
    await site.cms.deps.storage.update('posts', child.id, { slug: 'embed' });
    const answer = await site.embed(q({ url: page.link }));
    assert.equal(secretsOf(answer.json.html).frameUrl, 'http://example.test/guide/?embed=true');
  });

  it('answers 404 oembed_invalid_url "Not Found" for drafts, private, future, trashed, unknown and foreign URLs', async () => {
    const site = await makeEmbedSite();
    const draft = await site.create({ title: 'Draft', status: 'draft' });
    const privatePost = await site.create({ title: 'Secret', status: 'private' });
    const future = await site.create({ title: 'Later', status: 'future', date: '2030-01-01T00:00:00' });
    const trashed = await site.create({ title: 'Gone', status: 'publish' });
    await site.admin('DELETE', `/cms/v2/posts/${trashed.id}`);
    const pending = await site.create({ title: 'Waiting', status: 'pending' });
    const urls = [
      draft.link, `http://example.test/?p=${draft.id}`, privatePost.link, `http://example.test/?p=${privatePost.id}`,
      future.link, `http://example.test/?p=${future.id}`, trashed.link, `http://example.test/?p=${trashed.id}`,
      `http://example.test/?p=${pending.id}`, 'http://example.test/?p=999999', 'http://example.test/2026/11/21/nothing-here/',
      'http://other.test/2026/11/21/gone/', `http://other.test/?p=${trashed.id - 1}`, 'http://example.test/?p=0',
      'http://example.test/?p=99999999999999999999999',
    ];
    for (const url of urls) {
      for (const role of [null, 'administrator'] as const) {
        const response = await site.as(role)('GET', `/oembed/1.0/embed?${q({ url })}`);
        assert.equal(response.status, 404, `${url} as ${role}`);
        assert.deepEqual(response.json, { code: 'oembed_invalid_url', message: 'Not Found', data: { status: 404 } });
      }
    }
  });

  it('embeds a password-protected post with the "Protected: " title and nothing of its content', async () => {
    const site = await makeEmbedSite();
    const post = await site.create({ title: 'Locked', content: 'The hidden words', excerpt: 'Hidden excerpt', password: 'pw', status: 'publish' });
    const response = await site.embed(q({ url: post.link }));
    assert.equal(response.status, 200);
    assert.equal(response.json.title, 'Protected: Locked');
    assert.match(response.json.html, /<a href="[^"]+">Protected: Locked<\/a>/);
    assert.match(response.json.html, /title="&#8220;Protected: Locked&#8221; &#8212; Ref Site"/);
    assert.doesNotMatch(JSON.stringify(response.json), /hidden/i);
  });

  it('escapes titles and site names in the markup', async () => {
    const site = await makeEmbedSite({ site: { name: 'Tom & "Jerry"' } });
    const post = await site.create({ title: 'Fish & <em>Chips</em>', status: 'publish' });
    const data = (await site.embed(q({ url: post.link }))).json;
    assert.equal(data.title, 'Fish &#038; <em>Chips</em>');
    assert.equal(data.provider_name, 'Tom & "Jerry"');
    assert.match(data.html, /title="&#8220;Fish &#038; &lt;em&gt;Chips&lt;\/em&gt;&#8221; &#8212; Tom &amp; &quot;Jerry&quot;"/);
  });

  it('adds the featured image as thumbnail, at the width of the frame', async () => {
    const site = await makeEmbedSite();
    const upload = await site.cms.handle({
      method: 'POST', path: '/cms/v2/media', query: '', user: { id: site.ids.administrator },
      headers: { 'content-type': 'image/png', 'content-disposition': 'attachment; filename="photo.png"' },
      body: encodePng(new Image(800, 600, { colorModel: 'RGB' })),
    });
    assert.equal(upload.status, 201);
    const mediaId = (upload.body as { id: number }).id;
    const post = await site.create({ title: 'With picture', status: 'publish', featured_media: mediaId });
    const wide = await site.embed(q({ url: post.link }));
    assert.deepEqual(Object.keys(wide.json).slice(-3), ['thumbnail_url', 'thumbnail_width', 'thumbnail_height']);
    assert.equal(wide.json.thumbnail_url, 'http://example.test/uploads/2026/11/photo.png');
    assert.deepEqual([wide.json.thumbnail_width, wide.json.thumbnail_height], [600, 450]);
    const narrow = await site.embed(`${q({ url: post.link })}&maxwidth=300`);
    assert.deepEqual([narrow.json.thumbnail_width, narrow.json.thumbnail_height], [300, 225]);
    const cdn = sameRecords(site, { uploads: { baseUrl: 'https://cdn.example.test/files/' } });
    assert.equal((await cdn.embed(q({ url: post.link }))).json.thumbnail_url, 'https://cdn.example.test/files/2026/11/photo.png');
    const plain = await site.create({ title: 'No picture', status: 'publish', featured_media: 424242 });
    assert.equal((await site.embed(q({ url: plain.link }))).json.thumbnail_url, undefined);
  });

  it('falls back to the site as author when the author is gone', async () => {
    const site = await makeEmbedSite();
    const post = await site.create({ title: 'Orphan', status: 'publish' }, { role: 'author' });
    assert.equal((await site.embed(q({ url: post.link }))).json.author_name, 'author');
    await site.cms.users.delete(site.ids.author, { reassign: 0 });
    const answer = await site.embed(q({ url: post.link }));
    assert.equal(answer.json.author_name, 'Ref Site');
    assert.equal(answer.json.author_url, 'http://example.test');
  });

  it('leaves the host script out when the host asks', async () => {
    const site = await makeEmbedSite({ oembed: { hostScript: false } });
    const post = await site.create({ title: 'Quiet', status: 'publish' });
    assert.match((await site.embed(q({ url: post.link }))).json.html, /<\/iframe>$/);
  });

  it('rejects bad input with the reference codes, and never answers 500', async () => {
    const site = await makeEmbedSite();
    const post = await site.create({ title: 'Fine', status: 'publish' });
    const missing = await site.embed('');
    assert.equal(missing.status, 400);
    assert.deepEqual(missing.json, { code: 'rest_missing_callback_param', message: 'Missing parameter(s): url', data: { status: 400, params: ['url'] } });
    assert.equal((await site.embed('url=')).json.code, 'rest_invalid_param', 'an empty value is sent, and is no URL');
    for (const bad of ['not a url', 'javascript:alert(1)', '/relative/path', 'ftp://example.test/file', 'http://']) {
      const response = await site.embed(q({ url: bad }));
      assert.equal(response.status, 400, bad);
      assert.equal(response.json.code, 'rest_invalid_param', bad);
      assert.equal(response.json.data.details.url.code, 'rest_invalid_url', bad);
    }
    const tooLong = await site.embed(q({ url: `http://example.test/${'a'.repeat(9000)}` }));
    assert.equal(tooLong.json.data.details.url.code, 'rest_too_long');
    assert.equal((await site.embed('url[]=x')).status, 400);
    const yaml = await site.embed(`${q({ url: post.link })}&format=yaml`);
    assert.equal(yaml.status, 200, 'an unknown format answers JSON');
    assert.equal(yaml.headers['Content-Type'], 'application/json; charset=UTF-8');
    const odd = ['url=%00', 'url=http%3A%2F%2F%5B%3A%3A1%5D%2F', `url=${encodeURIComponent('http://example.test/%E0%A4%A')}`,
      `url=${encodeURIComponent('http://example.test/?q[__proto__]=1')}`, `url=${encodeURIComponent(`http://example.test/${'%2F'.repeat(2000)}`)}`];
    for (const query of odd) assert.ok([400, 404].includes((await site.embed(query)).status), query);
    const hostile = await site.embed(`${q({ url: `http://example.test/?p=${post.id}` })}&__proto__[polluted]=1&constructor[prototype][x]=1&__proto__[format]=xml`);
    assert.equal(hostile.status, 200);
    assert.equal(hostile.json.title, 'Fine');
    assert.equal(hostile.headers['Content-Type'], 'application/json; charset=UTF-8', 'a format smuggled through __proto__ is no format');
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
    assert.equal(({} as Record<string, unknown>).x, undefined);
  });

  it('is public: anonymous callers and every role get the same answer', async () => {
    const site = await makeEmbedSite();
    const post = await site.create({ title: 'Open', status: 'publish' });
    for (const role of [null, 'subscriber', 'administrator'] as const) {
      const response = await site.as(role)('GET', `/oembed/1.0/embed?${q({ url: post.link })}`);
      assert.equal(response.status, 200);
      assert.equal(response.json.title, 'Open');
    }
  });
});
