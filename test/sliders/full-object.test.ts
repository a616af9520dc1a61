import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EncodedJson } from '../../src/core/encode.js';
import { createFullObjectReader } from '../../src/sliders/full-object.js';
import { publishClock } from '../../src/sliders/publish-window.js';
import { createSliderService } from '../../src/sliders/service.js';
import { anchorHero, anchorPlain, makeSite, STORES } from './helpers.js';

const VERSION = '6.7.20';

for (const store of STORES) {
  describe(`slider full object (${store.name})`, () => {
    it('answers the observed shape: settings merged and cut, slides keyed by id, static last, id a string', async () => {
      const site = await makeSite(store.open());
      const { id, slide_ids: [first, second, , , staticId] } = await site.cms.sliders.create(anchorHero());
      const response = await site.anonymous('GET', `/slider/sliders/${id}`);
      assert.equal(response.status, 200);
      assert.equal(response.headers['Content-Type'], 'application/json; charset=UTF-8');
      assert.deepEqual(response.json, {
        success: true,
        message: '',
        settings: {
          layout: { type: 'fullwidth' },
          general: { lazyLoad: 'smart', slideshow: { autoPlay: true, globalViewPort: true, globalViewDist: '-200px' } },
          modal: { cover: true, bg: 'rgba(0,0,0,0.75)', sp: 2 },
          source: { type: 'gallery', post: { excerptLimit: 55, maxPosts: 30 }, instagram: { count: 8 } },
          version: VERSION,
        },
        slides: {
          [first!]: {
            id: first,
            slide: { title: 'First', publish: { state: 'published' }, version: VERSION },
            layers: [{ type: 'text', content: { text: 'Hello' }, toggle: { text: '' } }, { type: 'image', content: { src: 'a.jpg' } }],
          },
          [second!]: {
            id: second,
            slide: { title: 'Second', version: VERSION },
            layers: [{ type: 'button', content: { text: 'Go' }, toggle: { set: true, text: '' } }],
          },
          [staticId!]: { id: String(staticId), slide: { title: 'Static', global: true, version: VERSION }, layers: [{ type: 'text', content: { text: 'Always' } }] },
        },
        id: String(id),
        addOns: [],
      });
      const text = JSON.stringify(response.json);
      assert.ok(!text.includes('secret'), 'the source token is never served');
      assert.deepEqual(Object.keys(response.json), ['success', 'message', 'settings', 'slides', 'id', 'addOns']);
      assert.deepEqual(Object.keys(response.json.settings), ['layout', 'general', 'modal', 'source', 'version']);
      assert.deepEqual(Object.keys(response.json.slides), [String(first), String(second), String(staticId)]);
    });

    it('adds the global values only where the slider does not set lazy loading, and always the viewport', async () => {
      const site = await makeSite(store.open());
      await site.cms.sliders.create({ alias: 'lazy', settings: { general: { lazyLoad: 'all', slideshow: { globalViewPort: false, globalViewDist: '10px' } }, version: 'old' }, slides: [{}] });
      await site.cms.sliders.create({ alias: 'bare', slides: [{}] });
      const lazy = (await site.anonymous('GET', '/slider/sliders/lazy')).json.settings;
      assert.deepEqual(lazy, { general: { lazyLoad: 'all', slideshow: { globalViewPort: true, globalViewDist: '-200px' } }, version: VERSION });
      const bare = (await site.anonymous('GET', '/slider/sliders/bare')).json.settings;
      assert.deepEqual(bare, { version: VERSION, general: { lazyLoad: 'smart', slideshow: { globalViewPort: true, globalViewDist: '-200px' } } });
    });

    it('cuts every source kind down to its type and counters', async () => {
      const site = await makeSite(store.open());
      const source = {
        type: 'youtube',
        youtube: { api: 'AIza-key', channel_id: 'abc', count: 5 },
        facebook: { token: 'fb-secret', appId: '1', count: 3, maxPosts: 4 },
        woo: { maxProducts: 12, excerptLimit: '20chars', category: 'x' },
        flickr: { apiKey: 'flickr-secret' },
        custom: { token: 'other-secret' },
        post: 'not an object',
      };
      await site.cms.sliders.create({ alias: 'social', settings: { source }, slides: [{}] });
      const served = (await site.anonymous('GET', '/slider/sliders/social')).json.settings.source;
      assert.deepEqual(served, { type: 'youtube', woo: { excerptLimit: '20chars', maxProducts: 12 }, facebook: { maxPosts: 4, count: 3 }, youtube: { count: 5 } });
      assert.ok(!JSON.stringify(served).includes('secret'));
      assert.ok(!JSON.stringify(served).includes('AIza'));
      await site.cms.sliders.create({ alias: 'untyped', settings: { source: 'gallery' }, slides: [{}] });
      assert.deepEqual((await site.anonymous('GET', '/slider/sliders/untyped')).json.settings.source, { type: '' });
    });

    it('serves layer maps as maps, adds text and toggle to text-like layers and links to link actions', async () => {
      const site = await makeSite(store.open());
      const layers = {
        top: { type: 'text' },
        picture: { type: 'image' },
        shape: { type: 'shape', content: {} },
        box: { content: { text: 'Boxed' }, toggle: 'raw', actions: { action: [
          { action: 'link', link: 'https://example.com/a', link_type: 'a' },
          { action: 'link', link: 'javascript:x', link_type: 'jquery' },
          { action: 'menu', menu: '#menu' },
          { action: 'menu' },
          { action: 'scroll_under' },
        ] } },
      };
      const { slide_ids: [slideId] } = await site.cms.sliders.create({ alias: 'layers', slides: [{ slide: {}, layers }] });
      const served = (await site.anonymous('GET', '/slider/sliders/layers')).json.slides[slideId!].layers;
      assert.deepEqual(served, {
        top: { type: 'text', content: { text: '' }, toggle: { text: '' } },
        picture: { type: 'image' },
        shape: { type: 'shape', content: {} },
        box: { content: { text: 'Boxed' }, toggle: 'raw', actions: { action: [
          { action: 'link', link: 'https://example.com/a', link_type: 'a', image_link: 'https://example.com/a' },
          { action: 'link', link: 'javascript:x', link_type: 'jquery' },
          { action: 'menu', menu: '#menu', menu_link: '#menu' },
          { action: 'menu', menu_link: '' },
          { action: 'scroll_under' },
        ] } },
      });
      const document = await site.cms.sliders.get('layers');
      assert.deepEqual(document!.slides[0]!.layers, layers, 'what is stored stays as written');
    });

    it('unwraps timeline values wrapped in an object', async () => {
      const site = await makeSite(store.open());
      const timeline = { duration: [{ 0: 500, 1: 700 }], easeIn: ['power1'], slots: [{}], speed: [{ 0: 1 }] };
      const { slide_ids: [slideId] } = await site.cms.sliders.create({ alias: 'timeline', slides: [{ slide: { timeline } }] });
      const served = (await site.anonymous('GET', '/slider/sliders/timeline')).json.slides[slideId!].slide;
      assert.deepEqual(served.timeline, { duration: [500, 700], easeIn: ['power1'], slots: [], speed: [{ 0: 1 }] });
    });

    it('leaves out unpublished slides and slides outside their window, in the site\'s time', async () => {
      const storage = store.open();
      const site = await makeSite(storage, { site: { gmtOffset: 2 } });
      // Now is 17:11:35 UTC, 19:11:35 on the site.
      const windows = [
        { from: '2026-11-21 19:00' },
        { from: '2026-11-21 19:30' },
        { to: '2026-11-21 19:00' },
        { to: '2026-11-21 19:11:35' },
        { from: '2026-11-21T17:30:00Z' },
        { from: '2026-11-21T17:00:00+00:00', to: '2026-11-21T18:00:00+00:00' },
        { from: 'soon' },
        { to: 'never' },
        { state: 'unpublished', from: '2000-01-01' },
        { state: 'published' },
      ];
      const { id, slide_ids: ids } = await site.cms.sliders.create({ alias: 'windows', slides: windows.map((publish) => ({ slide: { publish } })) });
      const shown = async () => Object.keys((await site.anonymous('GET', `/slider/sliders/${id}`)).json.slides).map(Number);
      assert.deepEqual(await shown(), [ids[0], ids[3], ids[5], ids[6], ids[9]]);
      site.clock.set('2026-11-21T17:45:00Z');
      assert.deepEqual(await shown(), [ids[0], ids[1], ids[4], ids[5], ids[6], ids[9]]);
      site.clock.set('2026-11-21T18:00:01Z');
      assert.deepEqual(await shown(), [ids[0], ids[1], ids[4], ids[6], ids[9]]);
    });

    it('answers only the slides asked for with slideid, without settings and id', async () => {
      const site = await makeSite(store.open());
      const { id, slide_ids: [first, second, hidden, , staticId] } = await site.cms.sliders.create(anchorHero());
      const get = async (query: string) => (await site.anonymous('GET', `/slider/sliders/${id}?${query}`)).json;
      const one = await get(`slideid=${second}`);
      assert.deepEqual(Object.keys(one), ['success', 'message', 'slides', 'addOns']);
      assert.deepEqual(Object.keys(one.slides), [String(second)]);
      assert.deepEqual(await get(`slideid=${hidden}`), { success: true, message: '', slides: [], addOns: [] });
      assert.deepEqual(Object.keys((await get(`slideid[]=${first}&slideid[]=${staticId}`)).slides), [String(first), String(staticId)]);
      assert.deepEqual(Object.keys((await get(`slideid=${staticId}`)).slides), [String(staticId)]);
      // Ordinary slides compare loosely (PHP's ==), the static slide strictly.
      assert.deepEqual(Object.keys((await get(`slideid[]=0${first}&slideid[]=0${staticId}`)).slides), [String(first)]);
      assert.deepEqual((await get('slideid=999')).slides, []);
      // An empty value ('' or '0') restricts nothing.
      assert.ok('settings' in (await get('slideid=0')));
      assert.ok('settings' in (await get('slideid=')));
    });

    it('answers a slider without ordinary slides as the reference does: no slides, no static slide, no addOns', async () => {
      const site = await makeSite(store.open());
      const empty = await site.cms.sliders.create({ alias: 'empty', settings: { source: { type: 'instagram', instagram: { token: 'tok', count: 2 } } } });
      await site.cms.sliders.create({ alias: 'static-only', slides: [{ slide: { global: true }, layers: [] }] });
      assert.deepEqual((await site.anonymous('GET', '/slider/sliders/empty')).json, {
        success: true,
        message: '',
        settings: { source: { type: 'instagram', instagram: { count: 2 } }, version: VERSION, general: { lazyLoad: 'smart', slideshow: { globalViewPort: true, globalViewDist: '-200px' } } },
        slides: [],
        id: String(empty.id),
      });
      const staticOnly = (await site.anonymous('GET', '/slider/sliders/static-only')).json;
      assert.deepEqual(staticOnly.slides, []);
      assert.equal('addOns' in staticOnly, false);
    });

    it('shows a write at once: the prepared slides follow every change', async () => {
      const site = await makeSite(store.open());
      const { id } = await site.cms.sliders.create(anchorPlain());
      const before = (await site.anonymous('GET', `/slider/sliders/${id}`)).json;
      assert.equal(Object.values<any>(before.slides)[0].slide.title, 'Only');
      const { slide_ids: [replaced] } = await site.cms.sliders.update(id, { slides: [{ slide: { title: 'Replaced' }, layers: [{ type: 'text' }] }] });
      const after = (await site.anonymous('GET', `/slider/sliders/${id}`)).json;
      assert.deepEqual(Object.keys(after.slides), [String(replaced)]);
      assert.equal(after.slides[replaced!].slide.title, 'Replaced');
      await site.admin('PATCH', `/slider/sliders/${id}`, { json: { settings: { modal: { cover: true } } } });
      assert.deepEqual((await site.anonymous('GET', `/slider/sliders/${id}`)).json.settings.modal, { cover: true });
    });

    it('gives every reader its own answer: changing one does not change the next', async () => {
      const site = await makeSite(store.open());
      const { id, slide_ids: [first] } = await site.cms.sliders.create(anchorHero());
      const read = await site.anonymous('GET', `/slider/sliders/${id}`);
      // Either the slides cannot be changed (frozen) or the change stays in this answer: the next one is intact.
      try { read.json.slides[first!].slide.title = 'Changed'; } catch { /* frozen */ }
      read.json.settings.modal.bg = 'changed';
      const again = (await site.anonymous('GET', `/slider/sliders/${id}`)).json;
      assert.equal(again.slides[first!].slide.title, 'First');
      assert.equal(again.settings.modal.bg, 'rgba(0,0,0,0.75)');
    });

    it('joins the kept JSON of each slide into the very bytes JSON.stringify gives, while the loop keeps turning', async () => {
      const site = await makeSite(store.open());
      const many = anchorHero();
      many.slides = Array.from({ length: 200 }, (_, index) => ({
        slide: { title: `Slide "${index}"`, publish: { state: 'published' } },
        layers: Array.from({ length: 40 }, (_, layer) => ({
          type: layer % 4 === 0 ? 'image' : 'text', content: { text: `L${layer} é \u2028 ${'words '.repeat(40)}` }, actions: { action: [{ action: 'link', link: 'x' }] },
        })),
      })) as typeof many.slides;
      const { id, slide_ids: ids } = await site.cms.sliders.create(many);
      const service = createSliderService(site.storage);
      const slider = (await service.getSlider(id))!;
      const clock = publishClock(new Date(), { timezone: 'UTC' } as never);
      let turns = 0;
      const ticker = setInterval(() => { turns += 1; }, 0);
      const encoded = await createFullObjectReader(service).read(slider, undefined, clock, true);
      clearInterval(ticker);
      assert.ok(turns > 0, 'the event loop turned while the slides were prepared');
      assert.ok(encoded instanceof EncodedJson);
      const plain = await createFullObjectReader(service).read(slider, undefined, clock, false);
      assert.equal(new TextDecoder().decode(encoded.bytes), JSON.stringify(plain));
      for (const slideid of [String(ids[3]), [ids[5], ids[2]], 'none']) {
        const part = await createFullObjectReader(service).read(slider, slideid, clock, true) as EncodedJson;
        assert.equal(new TextDecoder().decode(part.bytes), JSON.stringify(await createFullObjectReader(service).read(slider, slideid, clock)));
      }
    });
  });
}
