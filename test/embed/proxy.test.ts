import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import type { CmsOptions } from '../../src/cms.js';
import { fixtureClient, makeEmbedSite, q, secretsOf } from './helpers.js';
import { startProviders, TRUSTED_VIDEO, type Providers } from './provider-fixture.js';

let env: Providers;
before(async () => {
  env = await startProviders();
});
after(async () => {
  await env.close();
});
beforeEach(() => env.reset());

const proxySite = (options: Partial<CmsOptions> = {}) =>
  makeEmbedSite({ httpClient: fixtureClient(), ...options, oembed: { providers: env.providers, ...options.oembed } });

describe('GET /oembed/1.0/proxy: access and arguments', () => {
  it('needs edit_posts: 401 anonymous, 403 subscriber, contributors and up may', async () => {
    const site = await proxySite();
    const post = await site.create({ title: 'Mine', status: 'publish' });
    const anonymous = await site.proxy(null, q({ url: post.link }));
    assert.equal(anonymous.status, 401);
    assert.deepEqual(anonymous.json, {
      code: 'rest_forbidden', message: 'Sorry, you are not allowed to make proxied oEmbed requests.', data: { status: 401 },
    });
    const subscriber = await site.proxy('subscriber', q({ url: post.link }));
    assert.equal(subscriber.status, 403);
    assert.equal(subscriber.json.code, 'rest_forbidden');
    for (const role of ['contributor', 'author', 'editor', 'administrator'] as const) {
      assert.equal((await site.proxy(role, q({ url: post.link }))).json.title, 'Mine', role);
    }
    assert.equal(env.fixture.connections(), 0);
  });

  it('checks arguments before permission, with the reference codes', async () => {
    const site = await proxySite();
    const missing = await site.proxy(null, '');
    assert.equal(missing.status, 400);
    assert.equal(missing.json.code, 'rest_missing_callback_param');
    assert.deepEqual(missing.json.data.params, ['url']);
    const cases: [string, string][] = [
      ['format=yaml', 'format is not one of json and xml.'],
      ['maxwidth=abc', 'maxwidth is not of type integer.'],
      ['maxheight=1.5', 'maxheight is not of type integer.'],
      ['discover=maybe', 'discover is not of type boolean.'],
      ['url=not-a-url', 'url is not a valid http or https URL.'],
    ];
    for (const [query, message] of cases) {
      const response = await site.proxy('administrator', query.startsWith('url=') ? query : `${q({ url: 'http://trusted.test/a' })}&${query}`);
      assert.equal(response.status, 400, query);
      assert.equal(response.json.code, 'rest_invalid_param', query);
      assert.equal(Object.values(response.json.data.params)[0], message, query);
    }
    assert.equal((await site.proxy(null, 'format=yaml&url=http://trusted.test/a')).status, 400, 'a bad parameter beats the missing permission');
    assert.equal(env.fixture.hits.length, 0);
  });
});

describe('GET /oembed/1.0/proxy: lookups', () => {
  it("answers this site's own posts locally, clamped, without any fetch, and never fetches its own pages", async () => {
    const fetched: string[] = [];
    const site = await proxySite({
      httpClient: { fetch: async (request) => { fetched.push(request.url); throw new Error('no fetch expected'); } },
    });
    const post = await site.create({ title: 'Local', status: 'publish' });
    const draft = await site.create({ title: 'Draft', status: 'draft' });
    const local = await site.proxy('contributor', `${q({ url: post.link })}&maxwidth=1000&maxheight=50`);
    assert.equal(local.status, 200);
    assert.deepEqual([local.json.title, local.json.type, local.json.width, local.json.height], ['Local', 'rich', 600, 338]);
    const small = await site.proxy('contributor', `${q({ url: post.link })}&maxwidth=-250`);
    assert.deepEqual([small.json.width, small.json.height], [250, 200]);
    for (const url of ['http://example.test/no-such-page/', `http://www.example.test/?p=${draft.id}`, 'http://example.test/page.mp4/']) {
      assert.equal((await site.proxy('administrator', q({ url }))).status, 404, url);
    }
    const ownVideo = await site.proxy('administrator', q({ url: 'http://example.test:8080/uploads/clip.mp4' }));
    assert.equal(ownVideo.json.html, '[video  src="http://example.test:8080/uploads/clip.mp4" /]', 'own media files still embed');
    assert.deepEqual(fetched, []);
  });

  it('asks a trusted provider with the reference query and serves its object with the html it sent', async () => {
    const site = await proxySite();
    const url = 'http://trusted.test/clip/1?t=2';
    const response = await site.proxy('author', q({ url }));
    assert.equal(response.status, 200);
    assert.deepEqual(env.fixture.hits, [`/oembed?maxwidth=600&maxheight=750&url=${encodeURIComponent(url)}&dnt=1&format=json`]);
    assert.deepEqual(response.json, {
      ...TRUSTED_VIDEO,
      html: '<iframe title="Clip" src="https://player.test/1" width="640"></iframe><script>player()</script>',
    });
    env.reset();
    await site.proxy('author', `${q({ url })}&maxwidth=-320&maxheight=240`);
    assert.deepEqual(env.fixture.hits, [`/oembed?maxwidth=320&maxheight=240&url=${encodeURIComponent(url)}&dnt=1&format=json`]);
  });

  it('asks again with format=xml when the provider answers 501, and reads its XML', async () => {
    const site = await proxySite();
    const response = await site.proxy('administrator', q({ url: 'http://old.test/photo/9' }));
    assert.equal(response.status, 200);
    assert.deepEqual(env.fixture.hits.map((hit) => new URL(hit, 'http://x').searchParams.get('format')), ['json', 'xml']);
    assert.deepEqual(response.json, {
      version: '1.0', type: 'photo', title: 'Photo & more', url: 'https://img.test/p.jpg', width: '400', height: '300',
      html: '<a href="http://old.test/photo/9"><img src="https://img.test/p.jpg" alt="Photo &amp; more" width="400" height="300" /></a>',
    });
  });

  it('builds html by type: photo, link; anything else, or a photo without a size, is false', async () => {
    const site = await proxySite();
    const photo = await site.proxy('administrator', q({ url: 'http://photo.test/a?b=1&c=2' }));
    assert.equal(photo.json.html, '<a href="http://photo.test/a?b=1&#038;c=2"><img src="https://img.test/v.jpg" alt="A &quot;view&quot;" width="800" height="600" /></a>');
    const link = await site.proxy('administrator', q({ url: 'http://link.test/x' }));
    assert.equal(link.json.html, '<a href="http://link.test/x">Just &lt;a&gt; link</a>');
    const incomplete = await site.proxy('administrator', q({ url: 'http://incomplete.test/x' }));
    assert.equal(incomplete.status, 200);
    assert.equal(incomplete.json.html, false);
    const unknown = await site.proxy('administrator', q({ url: `${env.fixture.base}/page-unknown-type` }));
    assert.equal(unknown.status, 200);
    assert.equal(unknown.json.type, 'hologram');
    assert.equal(unknown.json.html, false, 'an unknown type keeps its fields and loses its html');
  });

  it('discovers endpoints with a real tokenizer and cuts untrusted html down to a sandboxed frame', async () => {
    const site = await proxySite();
    const page = `${env.fixture.base}/page-json`;
    const response = await site.proxy('editor', q({ url: page }));
    assert.equal(response.status, 200);
    assert.equal(env.fixture.hits[0], '/page-json');
    assert.equal(new URL(env.fixture.hits[1]!, 'http://x').pathname, '/discovered', 'JSON is preferred over the XML link before it');
    assert.equal(new URL(env.fixture.hits[1]!, 'http://x').searchParams.get('x'), '2', 'entities in href are decoded');
    const { secrets } = secretsOf(response.json.html);
    const secret = secrets[0]!;
    assert.match(secret, /^[A-Za-z0-9]{10}$/);
    assert.equal(response.json.html,
      `<blockquote class="wp-embedded-content" data-secret="${secret}"><a href="https://x.test/p">Post</a></blockquote>`
      + '<iframe class="wp-embedded-content" sandbox="allow-scripts" security="restricted"'
      + ' style="position: absolute; clip: rect(1px, 1px, 1px, 1px);" title="Discovered"'
      + ` src="https://x.test/embed?a=1&#038;b=2#?secret=${secret}" data-secret="${secret}" width="500" height="300"></iframe>`);
    assert.equal(response.json.provider_name, 'Elsewhere');

    const noFrame = await site.proxy('editor', q({ url: `${env.fixture.base}/page-no-frame` }));
    assert.equal(noFrame.json.html, false, 'untrusted markup without a frame is dropped');
    const xmlOnly = await site.proxy('editor', q({ url: `${env.fixture.base}/page-xml-only` }));
    assert.equal(xmlOnly.json.type, 'photo');
    assert.equal(xmlOnly.json.width, '400');
  });

  it('finds no endpoint in the body, in comments or in scripts, and none without discover', async () => {
    const site = await proxySite();
    for (const page of ['/page-body-link', '/page-hidden-links', '/nowhere']) {
      const response = await site.proxy('administrator', q({ url: `${env.fixture.base}${page}` }));
      assert.equal(response.status, 404, page);
      assert.deepEqual(response.json, { code: 'oembed_invalid_url', message: 'Not Found', data: { status: 404 } });
    }
    assert.ok(!env.fixture.hits.some((hit) => hit.startsWith('/discovered')));
    env.reset();
    const off = await site.proxy('administrator', `${q({ url: `${env.fixture.base}/page-json` })}&discover=false`);
    assert.equal(off.status, 404);
    assert.equal(env.fixture.connections(), 0);
  });

  it('reads only the head of a large page', async () => {
    const site = await proxySite();
    const response = await site.proxy('administrator', q({ url: `${env.fixture.base}/page-big` }));
    assert.equal(response.status, 200);
    assert.equal(response.json.title, 'Discovered');
  });

  it('refuses answers that are no oEmbed object: lists, DOCTYPEs, oversized or failed answers', async () => {
    const site = await proxySite();
    for (const host of ['list', 'doctype', 'huge', 'broken']) {
      const response = await site.proxy('administrator', q({ url: `http://${host}.test/item` }));
      assert.equal(response.status, 404, host);
      assert.equal(response.json.code, 'oembed_invalid_url', host);
    }
    const proto = await site.proxy('administrator', q({ url: 'http://proto.test/item' }));
    assert.equal(proto.status, 200);
    assert.deepEqual(Object.keys(proto.json), ['type', 'title', 'html']);
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
  });

  it('falls back to the built-in handlers: YouTube frames, audio and video files', async () => {
    const site = await proxySite();
    const frame = await site.proxy('administrator', `${q({ url: 'https://www.youtube.com/embed/abc123' })}&discover=false`);
    assert.equal(frame.status, 200);
    assert.deepEqual(frame.json, {
      provider_name: 'Embed Handler', scripts: [],
      html: '<iframe title="Tube" src="https://www.youtube.com/embed/abc123"></iframe>',
    });
    assert.deepEqual(env.fixture.hits, [
      `/youtube?maxwidth=500&maxheight=750&url=${encodeURIComponent('https://youtube.com/watch?v=abc123')}&dnt=1&format=json`,
    ]);
    const video = await site.proxy('administrator', q({ url: `${env.fixture.base}/files/movie.mp4` }));
    assert.deepEqual(video.json, { provider_name: 'Embed Handler', html: `[video  src="${env.fixture.base}/files/movie.mp4" /]`, scripts: [] });
    const sized = await site.proxy('administrator', `${q({ url: `${env.fixture.base}/files/movie.webm` })}&maxheight=400&discover=false`);
    assert.equal(sized.json.html, `[video width="600" height="400"  src="${env.fixture.base}/files/movie.webm" /]`);
    const audio = await site.proxy('administrator', `${q({ url: 'https://sounds.example/a.mp3?x=1&y=2' })}&discover=false`);
    assert.equal(audio.status, 404, 'a query after the extension is no audio file');
    const song = await site.proxy('administrator', `${q({ url: 'https://sounds.example/song.MP3' })}&discover=false`);
    assert.equal(song.json.html, '[audio src="https://sounds.example/song.MP3" /]');
  });
});

describe('secrets of untrusted frames', () => {
  it('are new for every answer that is not served from the cache', async () => {
    const site = await proxySite();
    const first = await site.proxy('administrator', q({ url: `${env.fixture.base}/page-json` }));
    const second = await site.proxy('editor', q({ url: `${env.fixture.base}/page-json` }));
    assert.notEqual(secretsOf(first.json.html).secrets[0], secretsOf(second.json.html).secrets[0]);
  });
});
