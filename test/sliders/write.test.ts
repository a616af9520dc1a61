import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CmsError } from '../../src/core/errors.js';
import { SLIDERS_COLLECTION, SLIDES_COLLECTION } from '../../src/sliders/index.js';
import { anchorHero, makeSite, ROLES, STORES, type Site } from './helpers.js';

async function stored(site: Site) {
  const sliders = (await site.storage.list(SLIDERS_COLLECTION)).items;
  const slides = (await site.storage.list(SLIDES_COLLECTION)).items;
  return { sliders, slides };
}

for (const store of STORES) {
  describe(`slider writes (${store.name})`, () => {
    it('creates a slider: 201, Location, ids of the slides in the order given', async () => {
      const site = await makeSite(store.open());
      const response = await site.admin('POST', '/slider/sliders', { json: anchorHero() });
      assert.equal(response.status, 201);
      const { id, alias, title, slide_ids: slideIds } = response.json;
      assert.deepEqual(Object.keys(response.json), ['id', 'alias', 'title', 'slide_ids']);
      assert.equal(alias, 'anchor-hero');
      assert.equal(title, 'Anchor hero');
      assert.equal(response.headers.Location, `http://example.test/cms-json/slider/sliders/${id}`);
      assert.equal(slideIds.length, 5);
      const { slides } = await stored(site);
      const byId = new Map(slides.map((slide) => [slide.id, slide]));
      assert.deepEqual(slideIds.map((slideId: number) => (byId.get(slideId)!.slide as { title: string }).title),
        ['First', 'Second', 'Hidden', 'Expired', 'Static']);
      assert.deepEqual(slideIds.map((slideId: number) => byId.get(slideId)!.static), [false, false, false, false, true]);
      // The static slide is written last, so ids ascend in the order reads show the slides.
      assert.equal(Math.max(...slideIds), slideIds[4]);
      assert.deepEqual(slideIds.map((slideId: number) => byId.get(slideId)!.state), ['published', 'published', 'unpublished', 'published', 'published']);
      assert.equal(byId.get(slideIds[3])!.publish_to, '2020-06-30 23:59');
    });

    it('stores settings, slides and layers as given', async () => {
      const site = await makeSite(store.open());
      const input = anchorHero();
      const { id } = await site.cms.sliders.create(input);
      const document = await site.cms.sliders.get(id);
      assert.deepEqual(document!.settings, input.settings);
      assert.deepEqual(document!.slides.map((slide) => slide.slide), input.slides.map((slide) => slide.slide));
      assert.deepEqual(document!.slides[1]!.layers, input.slides[1]!.layers);
      // Layers keyed 0…n-1 are a list, as the reference's PHP arrays are.
      assert.deepEqual(document!.slides[0]!.layers, [{ type: 'text', content: { text: 'Hello' } }, { type: 'image', content: { src: 'a.jpg' } }]);
      assert.equal((await site.cms.sliders.get('anchor-hero'))!.id, id);
      assert.equal(await site.cms.sliders.get('no-such'), null);
      assert.equal(await site.cms.sliders.get(999), null);
    });

    it('takes the alias as title when none is given, and defaults settings and slides', async () => {
      const site = await makeSite(store.open());
      const response = await site.admin('POST', '/slider/sliders', { json: { alias: 'bare' } });
      assert.equal(response.status, 201);
      assert.equal(response.json.title, 'bare');
      assert.deepEqual(response.json.slide_ids, []);
      const document = await site.cms.sliders.get('bare');
      assert.deepEqual(document!.settings, {});
    });

    it('refuses bad bodies with rest_invalid_param and stores nothing', async () => {
      const site = await makeSite(store.open());
      const cases: [unknown, string, RegExp][] = [
        [{ alias: 'has space' }, 'alias', /does not match pattern/],
        [{ alias: 'caf\u00e9' }, 'alias', /only the letters/],
        [{ alias: '12-hero' }, 'alias', /must not begin with a number/],
        [{ alias: 5 }, 'alias', /is not of type string/],
        [{ alias: 'x'.repeat(201) }, 'alias', /at most 200/],
        [{ alias: 'ok', settings: 'x' }, 'settings', /settings is not of type object/],
        [{ alias: 'ok', settings: [1, 2] }, 'settings', /settings is not of type object/],
        [{ alias: 'ok', slides: [{ slide: 'x' }] }, 'slides', /slides\[0\]\[slide\] is not of type object/],
        [{ alias: 'ok', slides: [5] }, 'slides', /slides\[0\] is not of type object/],
        [{ alias: 'ok', slides: [{ layers: [1] }] }, 'slides', /slides\[0\]\[layers\]\[0\] is not of type object/],
        [{ alias: 'ok', slides: [{ layers: { top: 'x' } }] }, 'slides', /slides\[0\]\[layers\]\[top\] is not of type object/],
        [{ alias: 'ok', slides: [{ slide: {}, extra: 1 }] }, 'slides', /extra is not a valid property/],
        [{ alias: 'ok', slides: [{ slide: { global: true } }, { slide: { global: true } }] }, 'slides', /only one static slide/],
        [{ alias: 'ok', slides: Array.from({ length: 1001 }, () => ({})) }, 'slides', /at most 1,000 items/],
      ];
      for (const [body, param, message] of cases) {
        const response = await site.admin('POST', '/slider/sliders', { json: body });
        assert.equal(response.status, 400, JSON.stringify(body).slice(0, 80));
        assert.equal(response.json.code, 'rest_invalid_param');
        assert.match(response.json.data.params[param], message);
        assert.equal(response.json.data.status, 400);
        await assert.rejects(site.cms.sliders.create(body), (error: unknown) => {
          assert.ok(error instanceof CmsError);
          assert.equal(error.code, 'rest_invalid_param');
          assert.match(String((error.extra.params as Record<string, string>)[param]), message);
          // One engine: the in-process error is the route's, details included.
          assert.deepEqual(error.extra.params, response.json.data.params);
          assert.deepEqual(error.extra.details, response.json.data.details);
          return true;
        });
      }
      const missing = await site.admin('POST', '/slider/sliders', { json: { title: 'No alias' } });
      assert.equal(missing.status, 400);
      assert.equal(missing.json.code, 'rest_missing_callback_param');
      assert.deepEqual(missing.json.data.params, ['alias']);
      await assert.rejects(site.cms.sliders.create({ title: 'No alias' }), /Missing parameter\(s\): alias/);
      await assert.rejects(site.cms.sliders.create('nope'), /A slider is an object/);
      assert.deepEqual(await stored(site), { sliders: [], slides: [] });
    });

    it('keeps aliases unique, without regard to case', async () => {
      const site = await makeSite(store.open());
      await site.cms.sliders.create({ alias: 'hero' });
      const again = await site.admin('POST', '/slider/sliders', { json: { alias: 'Hero', slides: [{}] } });
      assert.equal(again.status, 400);
      assert.equal(again.json.code, 'rest_invalid_param');
      assert.equal(again.json.data.params.alias, 'A slider with the alias Hero already exists.');
      const { sliders, slides } = await stored(site);
      assert.equal(sliders.length, 1);
      assert.equal(slides.length, 0);
      const other = await site.cms.sliders.create({ alias: 'other' });
      const renamed = await site.admin('PATCH', `/slider/sliders/${other.id}`, { json: { alias: 'HERO' } });
      assert.equal(renamed.status, 400);
      assert.equal((await site.cms.sliders.get(other.id))!.alias, 'other');
      // Changing only the case of its own alias is allowed.
      const recased = await site.admin('PATCH', '/slider/sliders/hero', { json: { alias: 'HERO' } });
      assert.equal(recased.status, 200);
      assert.equal(recased.json.alias, 'HERO');
    });

    it('updates by id or alias with PUT and PATCH; slides replace every slide', async () => {
      const site = await makeSite(store.open());
      const created = await site.cms.sliders.create(anchorHero());
      const titled = await site.admin('PATCH', '/slider/sliders/anchor-hero', { json: { title: 'Renamed' } });
      assert.equal(titled.status, 200);
      assert.deepEqual(titled.json, { ...created, title: 'Renamed' });
      const replaced = await site.admin('PUT', `/slider/sliders/${created.id}`, {
        json: { settings: { modal: { cover: false } }, slides: [{ slide: { title: 'New' }, layers: [{ type: 'text' }] }] },
      });
      assert.equal(replaced.status, 200);
      assert.equal(replaced.json.alias, 'anchor-hero');
      assert.equal(replaced.json.slide_ids.length, 1);
      assert.ok(replaced.json.slide_ids[0] > Math.max(...created.slide_ids));
      const { slides } = await stored(site);
      assert.deepEqual(slides.map((slide) => slide.id), replaced.json.slide_ids);
      const document = await site.cms.sliders.get(created.id);
      assert.deepEqual(document!.settings, { modal: { cover: false } });
      assert.equal(document!.title, 'Renamed');
      const viaApi = await site.cms.sliders.update('anchor-hero', { alias: 'anchor-new' });
      assert.equal(viaApi.alias, 'anchor-new');
      assert.deepEqual(viaApi.slide_ids, replaced.json.slide_ids);
    });

    it('answers 404 for an unknown slider and 400 for a malformed id on update and delete', async () => {
      const site = await makeSite(store.open());
      for (const method of ['PUT', 'PATCH', 'DELETE']) {
        const unknown = await site.admin(method, '/slider/sliders/42', { json: { title: 'x' } });
        assert.equal(unknown.status, 404);
        assert.deepEqual(unknown.json, { code: 'slider_not_found', message: 'Slider not found.', data: { status: 404 } });
        const byAlias = await site.admin(method, '/slider/sliders/nothing', { json: { title: 'x' } });
        assert.equal(byAlias.status, 404);
        const malformed = await site.admin(method, '/slider/sliders/9x', { json: { title: 'x' } });
        assert.equal(malformed.status, 400);
        assert.equal(malformed.json.code, 'slider_invalid_id');
        assert.equal(malformed.json.message, 'Slider ID should be numeric');
      }
      await assert.rejects(site.cms.sliders.update(42, { title: 'x' }), (error: unknown) => error instanceof CmsError && error.status === 404);
      await assert.rejects(site.cms.sliders.delete('nothing'), (error: unknown) => error instanceof CmsError && error.status === 404);
    });

    it('refuses a bad update without changing anything', async () => {
      const site = await makeSite(store.open());
      const created = await site.cms.sliders.create(anchorHero());
      const before = await stored(site);
      const response = await site.admin('PATCH', `/slider/sliders/${created.id}`, { json: { title: 'New', slides: [{ layers: ['x'] }] } });
      assert.equal(response.status, 400);
      assert.deepEqual(await stored(site), before);
    });

    it('deletes a slider with its slides', async () => {
      const site = await makeSite(store.open());
      const created = await site.cms.sliders.create(anchorHero());
      const kept = await site.cms.sliders.create({ alias: 'kept', slides: [{}] });
      const response = await site.admin('DELETE', '/slider/sliders/anchor-hero');
      assert.equal(response.status, 200);
      assert.deepEqual(response.json, { deleted: true, previous: created });
      const { sliders, slides } = await stored(site);
      assert.deepEqual(sliders.map((slider) => slider.id), [kept.id]);
      assert.deepEqual(slides.map((slide) => slide.id), kept.slide_ids);
      assert.equal((await site.anonymous('GET', `/slider/sliders/${created.id}`)).status, 404);
      assert.deepEqual(await site.cms.sliders.delete(kept.id), kept);
      assert.deepEqual(await site.cms.sliders.list(), []);
    });

    it('lets only administrators write (manage_options), role by role', async () => {
      const site = await makeSite(store.open());
      await site.cms.sliders.create({ alias: 'target' });
      for (const role of [null, ...ROLES.filter((name) => name !== 'administrator')] as const) {
        const send = site.as(role);
        const expected = role === null ? 401 : 403;
        for (const [method, path] of [['POST', '/slider/sliders'], ['PUT', '/slider/sliders/target'], ['PATCH', '/slider/sliders/target'], ['DELETE', '/slider/sliders/target'], ['PATCH', '/slider/sliders/missing']]) {
          const response = await send(method!, path!, { json: { alias: 'by-someone' } });
          assert.equal(response.status, expected, `${role} ${method} ${path}`);
          assert.equal(response.json.code, 'rest_forbidden');
        }
      }
      assert.deepEqual((await site.cms.sliders.list()).map((slider) => slider.alias), ['target']);
    });

    it('has no update by POST on a slider, as the reference has no POST there', async () => {
      const site = await makeSite(store.open());
      await site.cms.sliders.create({ alias: 'target' });
      const response = await site.admin('POST', '/slider/sliders/target', { json: { title: 'x' } });
      assert.equal(response.status, 404);
      assert.equal(response.json.code, 'rest_no_route');
    });

    it('never lets a __proto__ key reach a prototype', async () => {
      const site = await makeSite(store.open());
      const body = '{"alias":"proto","settings":{"__proto__":{"polluted":true},"a":1},"slides":[{"slide":{"__proto__":{"x":1}},"layers":[{"constructor":{"prototype":{"y":2}}}]}]}';
      const response = await site.admin('POST', '/slider/sliders', { json: body });
      assert.equal(response.status, 201);
      assert.equal(({} as Record<string, unknown>).polluted, undefined);
      const read = await site.anonymous('GET', '/slider/sliders/proto');
      assert.equal(read.status, 200);
      assert.equal(read.json.settings.a, 1);
      assert.equal(({} as Record<string, unknown>).x, undefined);
      assert.equal(({} as Record<string, unknown>).y, undefined);
    });

    it('lists every slider in-process', async () => {
      const site = await makeSite(store.open());
      const created = [];
      for (let index = 0; index < 105; index++) created.push(await site.cms.sliders.create({ alias: `s-${index}`, title: `S ${index}` }));
      const listed = await site.cms.sliders.list();
      assert.equal(listed.length, 105);
      assert.deepEqual(listed[104], { id: created[104]!.id, alias: 's-104', title: 'S 104' });
    });
  });
}
