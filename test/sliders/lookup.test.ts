import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { anchorHero, anchorPlain, makeSite, STORES, type Site } from './helpers.js';

async function seeded(site: Site) {
  const hero = await site.cms.sliders.create(anchorHero());
  const plain = await site.cms.sliders.create(anchorPlain());
  return { hero, plain };
}

function failure(status: number, code: string, message: string) {
  return { status, body: { success: false, message, code, data: { status } } };
}

for (const store of STORES) {
  describe(`slider lookups (${store.name})`, () => {
    it('finds a slider by every observed form of id and alias', async () => {
      const site = await makeSite(store.open());
      const { hero, plain } = await seeded(site);
      const [first, , hidden, , staticId] = hero.slide_ids;
      const heroId = String(hero.id);
      const paths = [
        `/slider/sliders/${hero.id}`,
        '/slider/sliders/anchor-hero',
        '/slider/sliders/ANCHOR-HERO',
        `/slider/sliders?id=slider-${hero.id}`,
        `/slider/sliders?id=slider-${hero.id}.0`,
        '/slider/sliders?alias=anchor-hero',
        '/slider/sliders?alias=anchor%20hero',
        `/slider/sliders?id=${first}`,
        `/slider/sliders?id=${hidden}`,
        `/slider/sliders?id=${staticId}`,
        `/slider/sliders?id=static_${staticId}`,
        `/slider/sliders/slides/${first}`,
        `/slider/sliders/slides/${hidden}`,
        `/slider/sliders/slides/${staticId}`,
        // A path alias wins over a query alias; a query alias wins over a path id.
        '/slider/sliders/anchor-hero?alias=anchor-plain',
        `/slider/sliders/${plain.id}?alias=anchor-hero`,
        `/slider/sliders/slides/${plain.slide_ids[0]}?alias=anchor-hero`,
        `/slider/sliders/${plain.id}?slider=anchor-hero`,
        `/slider/sliders/${hero.id}?srengine=7`,
        `/slider/sliders/${hero.id}?srengine=9`,
      ];
      for (const path of paths) {
        const response = await site.anonymous('GET', path);
        assert.equal(response.status, 200, path);
        assert.equal(response.json.success, true, path);
        assert.equal(response.json.id, heroId, path);
      }
    });

    it('fails as the reference does, with real statuses', async () => {
      const site = await makeSite(store.open());
      const { hero, plain } = await seeded(site);
      const cases: [string, ReturnType<typeof failure>][] = [
        ['/slider/sliders/0', failure(404, 'slider_not_found', 'Slider with alias 0 not found.')],
        ['/slider/sliders/no-such-slider', failure(404, 'slider_not_found', 'Slider with alias no-such-slider not found.')],
        ['/slider/sliders/9x', failure(400, 'slider_invalid_id', 'Slider ID should be numeric')],
        ['/slider/sliders/4242', failure(404, 'slider_not_found', 'Slider not found.')],
        [`/slider/sliders/${hero.id}?alias=true`, failure(404, 'slider_not_found', 'Slider with alias true not found.')],
        ['/slider/sliders/slides', failure(404, 'slider_not_found', 'Slider with alias slides not found.')],
        ['/slider/sliders/modal', failure(404, 'slider_not_found', 'Slider with alias modal not found.')],
        ['/slider/sliders/slides/4242', failure(404, 'slide_not_found', 'V7 Slider could not be found')],
        ['/slider/sliders?id=abc', failure(400, 'slide_invalid_id', 'Slide ID should be numeric')],
        ['/slider/sliders?id[]=1', failure(400, 'slide_invalid_id', 'Slide ID should be numeric')],
        ['/slider/sliders?id=slider-', failure(400, 'slider_invalid_id', 'Slider ID should not be empty')],
        ['/slider/sliders?id=slider-abc', failure(400, 'slider_invalid_id', 'Slider ID should be numeric')],
        ['/slider/sliders?id=static_x', failure(400, 'slide_invalid_id', 'Static Slide ID should be numeric')],
        [`/slider/sliders?id=static_${hero.slide_ids[0]}`, failure(404, 'slide_not_found', 'V7 Slider could not be found')],
        ['/slider/sliders?alias=%3Cb%3Ex%3C/b%3E', failure(404, 'slider_not_found', 'Slider with alias &lt;b&gt;x&lt;/b&gt; not found.')],
        [`/slider/sliders/${hero.id}?srengine=6`, failure(404, 'slider_not_found', 'Slider not found.')],
        ['/slider/sliders/anchor-hero?srengine=6', failure(404, 'slider_not_found', 'Slider with alias anchor-hero not found.')],
        [`/slider/sliders?id=${plain.slide_ids[0]}&srengine=6`, failure(404, 'slide_not_found', 'Slider could not be loaded')],
        [`/slider/sliders/modal/${hero.id}?srengine=6`, failure(404, 'slider_not_found', 'Slider not found.')],
        ['/slider/sliders/modal/0', failure(404, 'slider_not_found', 'Slider with alias 0 not found.')],
        ['/slider/sliders/modal/9x', failure(400, 'slider_invalid_id', 'Slider ID should be numeric')],
        ['/slider/sliders/modal/4242', failure(404, 'slider_not_found', 'Slider not found.')],
        ['/slider/sliders/stream/4242', failure(404, 'slider_not_found', 'Slider could not be loaded')],
      ];
      for (const [path, expected] of cases) {
        const response = await site.anonymous('GET', path);
        assert.equal(response.status, expected.status, path);
        assert.deepEqual(response.json, expected.body, path);
      }
      // A query id in place of the path's must be one the path would match, as on every namespace.
      for (const path of ['/slider/sliders/stream/1?id=abc', '/slider/sliders/stream/1?id[a]=1']) {
        const response = await site.anonymous('GET', path);
        assert.equal(response.status, 400, path);
        assert.equal(response.json.code, 'rest_invalid_param', path);
      }
    });

    it('leaves routing errors to the core: rest_no_route', async () => {
      const site = await makeSite(store.open());
      await seeded(site);
      for (const [method, path] of [['GET', '/slider/sliders/slides/abc'], ['GET', '/slider/sliders/a.b'], ['GET', '/slider/sliders/stream/a'], ['PUT', '/slider/sliders']]) {
        const response = await site.anonymous(method!, path!);
        assert.equal(response.status, 404, path);
        assert.equal(response.json.code, 'rest_no_route', path);
      }
    });

    it('lists the sliders when no slider is named, a page at a time', async () => {
      const site = await makeSite(store.open());
      const { hero, plain } = await seeded(site);
      assert.deepEqual((await site.anonymous('GET', '/slider/sliders')).json, {
        success: true,
        message: '',
        sliders: [{ id: hero.id, alias: 'anchor-hero', title: 'Anchor hero' }, { id: plain.id, alias: 'anchor-plain', title: 'Anchor plain' }],
        total: 2,
        total_pages: 1,
      });
      const second = (await site.anonymous('GET', '/slider/sliders?per_page=1&page=2')).json;
      assert.deepEqual(second.sliders, [{ id: plain.id, alias: 'anchor-plain', title: 'Anchor plain' }]);
      assert.equal(second.total_pages, 2);
      assert.deepEqual((await site.anonymous('GET', '/slider/sliders?page=9')).json.sliders, []);
      assert.equal((await site.anonymous('GET', '/slider/sliders?per_page=1000&page=-3')).json.sliders.length, 2);
      assert.equal((await site.anonymous('GET', '/slider/sliders?id=&alias=')).json.total, 2);
    });

    it('answers the modal data: cover colour and speed, or empty strings without a cover', async () => {
      const site = await makeSite(store.open());
      const { hero, plain } = await seeded(site);
      const defaults = await site.cms.sliders.create({ alias: 'defaults', settings: {} });
      const stringCover = await site.cms.sliders.create({ alias: 'string-cover', settings: { modal: { cover: 'true', bg: 'red' } } });
      const modal = async (path: string) => (await site.anonymous('GET', `/slider/sliders/modal/${path}`)).json;
      const covered = { success: true, message: '', id: String(hero.id), bg: 'rgba(0,0,0,0.75)', sp: 2, addons: [], v6v7ids: false };
      assert.deepEqual(await modal(String(hero.id)), covered);
      assert.deepEqual(Object.keys(await modal('anchor-hero')), ['success', 'message', 'id', 'bg', 'sp', 'addons', 'v6v7ids']);
      assert.deepEqual(await modal('anchor-hero'), covered);
      assert.deepEqual(await modal(`0${hero.id}`), { ...covered, id: `0${hero.id}` });
      assert.deepEqual(await modal(`anchor-plain`), { success: true, message: '', id: String(plain.id), bg: '', sp: '', addons: [], v6v7ids: false });
      assert.deepEqual(await modal('defaults'), { success: true, message: '', id: String(defaults.id), bg: 'rgba(0,0,0,0.5)', sp: 1, addons: [], v6v7ids: false });
      assert.deepEqual(await modal(String(stringCover.id)), { success: true, message: '', id: String(stringCover.id), bg: '', sp: '', addons: [], v6v7ids: false });
      assert.deepEqual(await modal(`${plain.id}?alias=anchor-hero`), covered);
    });

    it('answers a gallery slider\'s stream with no data', async () => {
      const site = await makeSite(store.open());
      const { hero, plain } = await seeded(site);
      for (const id of [hero.id, plain.id]) {
        const response = await site.anonymous('GET', `/slider/sliders/stream/${id}`);
        assert.equal(response.status, 200);
        assert.deepEqual(response.json, { success: true, message: '', data: [] });
      }
    });
  });
}
