/** The slider storage service on every store: memory, SQLite, and PostgreSQL when a server can be started. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { StoragePort } from '../../src/ports/storage.js';
import { checkSliderBody } from '../../src/sliders/input.js';
import { SLIDERS_COLLECTION, SLIDES_COLLECTION } from '../../src/sliders/record.js';
import { createSliderService } from '../../src/sliders/service.js';
import { postgresStorage } from '../../src/storage/postgres/index.js';
import { postgresForTests } from '../storage/postgres-setup.js';
import { anchorHero, STORES } from './helpers.js';

function serviceSuite(name: string, open: () => Promise<StoragePort>): void {
  describe(`slider service (${name})`, () => {
    it('keeps a slider and its slides, read back by id, alias and slide', async () => {
      const storage = await open();
      const service = createSliderService(storage);
      const created = await service.create(checkSliderBody(anchorHero(), true));
      const slider = await service.getSlider(created.id);
      assert.equal(slider!.alias, 'anchor-hero');
      assert.equal(slider!.revision, 1);
      assert.equal((await service.findByAlias('Anchor-Hero'))!.id, created.id);
      assert.equal(await service.findByAlias('anchor'), null);
      assert.equal(await service.findByAlias(''), null);
      const slides = await service.slidesOf(created.id);
      assert.deepEqual(slides.map((slide) => slide.id), created.slide_ids);
      assert.deepEqual(slides.map((slide) => slide.menu_order), [0, 1, 2, 3, 4]);
      const staticSlide = await service.getSlide(created.slide_ids[4]!);
      assert.equal(staticSlide!.static, true);
      assert.equal(staticSlide!.parent, created.id);
      assert.equal(await service.getSlide(0), null);
      assert.equal(await service.getSlide(Number.MAX_SAFE_INTEGER + 2), null);
      assert.equal(await service.getSlider(-1), null);
    });

    it('updates in one transaction: a taken alias changes nothing', async () => {
      const storage = await open();
      const service = createSliderService(storage);
      const hero = await service.create(checkSliderBody(anchorHero(), true));
      const other = await service.create(checkSliderBody({ alias: 'other', slides: [{}, {}] }, true));
      const snapshot = async () => [
        (await storage.list(SLIDERS_COLLECTION)).items,
        (await storage.list(SLIDES_COLLECTION)).items,
      ];
      const before = await snapshot();
      await assert.rejects(service.update(other.id, checkSliderBody({ alias: 'ANCHOR-HERO', slides: [] }, false)), /Invalid parameter/);
      assert.deepEqual(await snapshot(), before);
      await assert.rejects(service.create(checkSliderBody({ alias: 'other', slides: [{}] }, true)), /Invalid parameter/);
      assert.deepEqual(await snapshot(), before);

      const updated = await service.update(other.id, checkSliderBody({ title: 'T', slides: [{ slide: { global: true } }, { slide: { n: 1 } }] }, false));
      assert.equal(updated!.title, 'T');
      assert.equal((await service.getSlider(other.id))!.revision, 2);
      const slides = await service.slidesOf(other.id);
      assert.deepEqual(slides.map((slide) => slide.static), [true, false]);
      assert.deepEqual(updated!.slide_ids, slides.map((slide) => slide.id));
      // The static slide was given first, yet written last.
      assert.ok(updated!.slide_ids[0]! > updated!.slide_ids[1]!);
      assert.equal((await service.slidesOf(hero.id)).length, 5);
      assert.equal(await service.update(9999, checkSliderBody({ title: 'x' }, false)), null);
    });

    it('removes a slider with its slides and lists the rest by id', async () => {
      const storage = await open();
      const service = createSliderService(storage);
      const made = [];
      for (const alias of ['a', 'b', 'c']) made.push(await service.create(checkSliderBody({ alias, slides: [{}] }, true)));
      const removed = await service.remove(made[1]!.id);
      assert.deepEqual(removed, made[1]);
      assert.equal(await service.remove(made[1]!.id), null);
      assert.deepEqual((await service.slidesOf(made[1]!.id)), []);
      const page = await service.list(1, 1);
      assert.equal(page.total, 2);
      assert.deepEqual(page.items.map((slider) => slider.alias), ['c']);
    });
  });
}

for (const store of STORES) serviceSuite(store.name, async () => store.open());

const postgres = await postgresForTests('slider service (PostgreSQL)', { schemaPrefix: 'quire_sliders', poolSize: 5 });
if (postgres) serviceSuite('PostgreSQL', () => postgresStorage({ pool: postgres.pool, schema: postgres.freshSchema() }));
