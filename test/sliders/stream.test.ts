import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { png, quarters, uploadRaw } from '../media/helpers.js';
import { makeSite, ROLES, STORES, type Role, type Site } from './helpers.js';

interface Content {
  site: Site;
  ids: Record<string, number>;
  image: { full: string; thumb: string; width: number; height: number };
}

async function created(site: Site, role: Role, base: string, fields: Record<string, unknown>): Promise<number> {
  const response = await site.as(role)('POST', `/cms/v2/${base}`, { json: fields });
  assert.equal(response.status, 201, JSON.stringify(response.json));
  return response.json.id;
}

/** Posts and pages in every status, a protected post, images with and without a readable parent. */
async function content(site: Site): Promise<Content> {
  const upload = await uploadRaw(site, { name: 'picture.png', type: 'image/png', bytes: png(quarters(300, 200)) });
  assert.equal(upload.status, 201);
  const media = upload.json;
  const image = { full: media.source_url, thumb: media.media_details.sizes.thumbnail.source_url, width: 300, height: 200 };
  const tag = async (name: string) => (await site.admin('POST', '/cms/v2/tags', { json: { name } })).json.id;
  const tags = [await tag('Zeta'), await tag('alpha')];
  const ids: Record<string, number> = {};
  ids.image = media.id;
  ids.published = await created(site, 'administrator', 'posts', {
    title: 'Hello & welcome', status: 'publish', date: '2021-01-08T10:00:00', content: '<p>Body <em>text</em></p>',
    excerpt: 'One <b>two</b> <em>three</em><br /> four [caption]x[/caption]', tags, featured_media: media.id,
  });
  // A post created with a date is modified at that date; an edit makes it modified now.
  assert.equal((await site.admin('PATCH', `/cms/v2/posts/${ids.published}`, { json: { comment_status: 'closed' } })).status, 200);
  ids.private = await created(site, 'administrator', 'posts', { title: 'Private', status: 'private', content: 'Private body' });
  ids.ownPrivate = await created(site, 'author', 'posts', { title: 'Author private', status: 'private', content: 'Mine' });
  ids.draft = await created(site, 'administrator', 'posts', { title: 'Draft', status: 'draft', content: 'Not yet' });
  ids.pending = await created(site, 'contributor', 'posts', { title: 'Pending', status: 'pending', content: 'Waiting' });
  ids.future = await created(site, 'administrator', 'posts', { title: 'Future', status: 'future', date: '2030-01-01T00:00:00' });
  ids.trashed = await created(site, 'administrator', 'posts', { title: 'Trashed', status: 'publish' });
  assert.equal((await site.admin('DELETE', `/cms/v2/posts/${ids.trashed}`)).json.status, 'trash');
  ids.protected = await created(site, 'administrator', 'posts', {
    title: 'Protected', status: 'publish', password: 'open sesame', content: 'The secret text', excerpt: 'The secret excerpt',
  });
  ids.page = await created(site, 'editor', 'pages', { title: 'A page', status: 'publish', content: 'Page body' });
  const hiddenImage = await uploadRaw(site, { name: 'hidden.png', type: 'image/png', bytes: png(quarters(100, 100)) }, { query: `post=${ids.draft}` });
  assert.equal(hiddenImage.status, 201);
  ids.imageOfDraft = hiddenImage.json.id;
  return { site, ids, image };
}

const stream = async (site: Site, role: Role | null, list: string) => {
  const response = await site.as(role)('GET', `/slider/sliders/stream/${list}`);
  assert.equal(response.status, 200);
  assert.equal(response.json.success, true);
  assert.equal(response.json.message, '');
  return response.json.data as Record<string, any>[];
};

for (const store of STORES) {
  describe(`slider stream of post ids (${store.name})`, () => {
    let seeded: Content;
    before(async () => {
      seeded = await content(await makeSite(store.open()));
    });

    it('answers, role by role, only the posts and pages the caller may read, in the order given', async () => {
      const { site, ids } = seeded;
      const order = ['page', 'trashed', 'ownPrivate', 'published', 'draft', 'private', 'pending', 'future', 'protected'];
      const list = [...order.map((name) => ids[name]), 99999].join(',');
      const expected: Record<string, string[]> = {
        anonymous: ['page', 'published', 'protected'],
        subscriber: ['page', 'published', 'protected'],
        contributor: ['page', 'published', 'protected'],
        author: ['page', 'ownPrivate', 'published', 'protected'],
        editor: ['page', 'ownPrivate', 'published', 'private', 'protected'],
        administrator: ['page', 'ownPrivate', 'published', 'private', 'protected'],
      };
      for (const role of [null, ...ROLES] as const) {
        const data = await stream(site, role, list);
        assert.deepEqual(data.map((item) => item.id), expected[role ?? 'anonymous']!.map((name) => ids[name]), String(role));
      }
      const reversed = await stream(site, null, [ids.protected, ids.page, ids.published].join(','));
      assert.deepEqual(reversed.map((item) => item.id), [ids.protected, ids.page, ids.published]);
    });

    it('answers a post with the observed fields and formats', async () => {
      const { site, ids, image } = seeded;
      const [item] = await stream(site, null, `${ids.published},`);
      const author = (await site.admin('GET', `/cms/v2/users/${site.ids.administrator}`)).json.name;
      const link = (await site.anonymous('GET', `/cms/v2/posts/${ids.published}`)).json.link;
      const tagLinks = '<a href="http://example.test/tag/alpha/" rel="tag">alpha</a>,<a href="http://example.test/tag/zeta/" rel="tag">Zeta</a>';
      assert.deepEqual(item, {
        id: ids.published,
        author,
        content: { content: '<p>Body <em>text</em></p>' },
        excerpt: 'One <b>two</b> three four x',
        link,
        media: image.full,
        mediatag: `<img src="${image.full}" width="300" height="200" alt="Hello &amp; welcome" data-no-retina />`,
        meta: [],
        modified: 'November 21, 2026',
        numcomments: '0',
        publish: 'January 8, 2021',
        navthumb: '',
        thumb: image.thumb,
        thumbtag: `<img src="${image.thumb}" width="150" height="150" alt="Hello &amp; welcome" data-no-retina />`,
        taglist: tagLinks,
        title: 'Hello & welcome',
      });
      assert.deepEqual(Object.keys(item!), ['id', 'author', 'content', 'excerpt', 'link', 'media', 'mediatag', 'meta', 'modified',
        'numcomments', 'publish', 'navthumb', 'thumb', 'thumbtag', 'taglist', 'title']);
      const [page] = await stream(site, null, `${ids.page},0`);
      assert.equal(page!.media, '');
      assert.equal(page!.mediatag, '');
      assert.equal(page!.taglist, false);
      assert.equal(page!.excerpt, '');
      assert.equal(page!.link, (await site.anonymous('GET', `/cms/v2/pages/${ids.page}`)).json.link);
    });

    it('never serves a protected post\'s text, to anyone', async () => {
      const { site, ids } = seeded;
      for (const role of [null, ...ROLES] as const) {
        const [item] = await stream(site, role, `${ids.protected},${ids.draft}`);
        assert.equal(item!.id, ids.protected);
        assert.deepEqual(item!.content, { content: '' });
        assert.equal(item!.excerpt, '');
        assert.ok(!JSON.stringify(item).includes('secret'));
      }
    });

    it('answers the images alone when the list names readable images, each its own media', async () => {
      const { site, ids, image } = seeded;
      const data = await stream(site, null, `${ids.published},${ids.image}`);
      assert.deepEqual(data.map((item) => item.id), [ids.image]);
      assert.equal(data[0]!.media, image.full);
      assert.equal(data[0]!.thumb, image.thumb);
      assert.equal(data[0]!.taglist, false);
      // An image attached to a draft is as unreadable as the draft: the posts are answered instead.
      const anonymous = await stream(site, null, `${ids.imageOfDraft},${ids.published}`);
      assert.deepEqual(anonymous.map((item) => item.id), [ids.published]);
      const admin = await stream(site, 'administrator', `${ids.imageOfDraft},${ids.published}`);
      assert.deepEqual(admin.map((item) => item.id), [ids.imageOfDraft]);
      assert.equal(admin[0]!.thumb, admin[0]!.media, 'an image smaller than the thumbnail is its own thumbnail');
      assert.match(admin[0]!.thumbtag, / width="100" height="100" /);
    });

    it('skips unknown and repeated ids and keeps to a page of ten', async () => {
      const { site, ids } = seeded;
      assert.deepEqual((await stream(site, null, `${ids.published},${ids.published},0,99999`)).map((item) => item.id), [ids.published]);
      assert.deepEqual(await stream(site, null, '99998,99999'), []);
      assert.deepEqual(await stream(site, null, ','), []);
      const many: number[] = [];
      for (let index = 0; index < 12; index++) {
        many.push(await created(site, 'administrator', 'posts', { title: `Many ${index}`, status: 'publish' }));
      }
      const data = await stream(site, null, many.reverse().join(','));
      assert.deepEqual(data.map((item) => item.id), many.slice(0, 10));
    });
  });
}

describe('slider stream excerpts', () => {
  it('keeps the first 55 words of a long excerpt and marks the cut', async () => {
    const site = await makeSite(STORES[0]!.open());
    const words = Array.from({ length: 60 }, (_, index) => `w${index}`);
    const id = await created(site, 'administrator', 'posts', { title: 'Long', status: 'publish', excerpt: words.join(' ') });
    const [item] = await stream(site, null, `${id},`);
    assert.equal(item!.excerpt, `${words.slice(0, 55).join(' ')}...`);
  });

  it('publishes scheduled posts whose time has come before answering', async () => {
    const site = await makeSite(STORES[0]!.open());
    const id = await created(site, 'administrator', 'posts', { title: 'Soon', status: 'future', date: '2026-11-22T00:00:00' });
    assert.deepEqual(await stream(site, null, `${id},`), []);
    site.clock.set('2026-11-22T00:00:01Z');
    assert.deepEqual((await stream(site, null, `${id},`)).map((item) => item.id), [id]);
  });
});
