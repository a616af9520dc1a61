import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { createCms, type CmsOptions } from '../../src/cms.js';
import { cacheKey, CACHE_COLLECTION, createStorageCache } from '../../src/embed/cache.js';
import { fixedClock } from '../../src/ports/clock.js';
import type { StoragePort } from '../../src/ports/storage.js';
import { createMemoryStorage } from '../../src/storage/memory/index.js';
import { sqliteStorage } from '../../src/storage/sqlite/index.js';
import { send } from '../helpers/request.js';
import { fixtureClient, makeEmbedSite, NOW, q } from './helpers.js';
import { startProviders, type Providers } from './provider-fixture.js';

let env: Providers;
before(async () => {
  env = await startProviders();
});
after(async () => {
  await env.close();
});
beforeEach(() => env.reset());

const DAY = 86_400_000;
const providerHits = () => env.fixture.hits.filter((hit) => hit.startsWith('/oembed')).length;

const cachedSite = (options: Partial<CmsOptions> = {}) =>
  makeEmbedSite({ httpClient: fixtureClient(), ...options, oembed: { providers: env.providers, ...options.oembed } });

describe('the proxy cache (in memory, the default)', () => {
  it('keeps an answer a day, keyed by every parameter and the caller', async () => {
    const site = await cachedSite();
    const url = 'http://trusted.test/clip/1';
    const first = await site.proxy('administrator', q({ url }));
    const second = await site.proxy('administrator', q({ url }));
    assert.equal(providerHits(), 1);
    assert.deepEqual(second.json, first.json);
    await site.proxy('administrator', `${q({ url })}&maxwidth=400`);
    await site.proxy('administrator', `${q({ url })}&_locale=user`);
    assert.equal(providerHits(), 3, 'other parameters are other questions');
    await site.proxy('editor', q({ url }));
    assert.equal(providerHits(), 4, 'another caller asks anew');
    site.clock.advance(DAY - 1000);
    await site.proxy('administrator', q({ url }));
    assert.equal(providerHits(), 4);
    site.clock.advance(2000);
    await site.proxy('administrator', q({ url }));
    assert.equal(providerHits(), 5, 'after a day the provider is asked again');
  });

  it('remembers failures briefly, so a bad URL does not hammer its provider', async () => {
    const site = await cachedSite();
    const url = 'http://broken.test/x';
    for (let attempt = 0; attempt < 5; attempt++) assert.equal((await site.proxy('administrator', q({ url }))).status, 404);
    assert.equal(providerHits(), 1);
    site.clock.advance(5 * 60_000 + 1);
    await site.proxy('administrator', q({ url }));
    assert.equal(providerHits(), 2);
  });

  it('takes the time to live and the size from the options, and never caches local answers', async () => {
    const site = await cachedSite({ oembed: { cache: { ttlMs: 1000, failureTtlMs: 10, maxEntries: 2 } } });
    const ask = (path: string) => site.proxy('administrator', q({ url: `http://trusted.test/${path}` }));
    await ask('a');
    site.clock.advance(1001);
    await ask('a');
    assert.equal(providerHits(), 2);
    await ask('b');
    await ask('c');
    await ask('a');
    assert.equal(providerHits(), 5, 'the oldest answer made room for newer ones');

    const post = await site.create({ title: 'Local', status: 'publish' });
    assert.equal((await site.proxy('administrator', q({ url: post.link }))).json.title, 'Local');
    await site.admin('POST', `/cms/v2/posts/${post.id}`, { json: { status: 'draft' } });
    assert.equal((await site.proxy('administrator', q({ url: post.link }))).status, 404, 'a local answer is never served stale');
  });
});

function sharedStoreSites(storage: StoragePort) {
  const clock = fixedClock(NOW);
  const make = () => createCms({
    clock, storage, httpClient: fixtureClient(), site: { url: 'http://example.test' },
    oembed: { providers: env.providers, cache: { store: 'storage', maxEntries: 3 } },
  });
  return { clock, first: make(), second: make() };
}

for (const [name, open] of [['memory', () => createMemoryStorage()], ['sqlite', () => sqliteStorage({ path: ':memory:' })]] as const) {
  describe(`the store-backed proxy cache (${name})`, () => {
    it('is shared by every process on the same database, expires and stays bounded', async () => {
      const storage = open();
      const { clock, first, second } = sharedStoreSites(storage);
      const admin = await first.users.create({ login: 'admin', email: 'admin@example.test', roles: ['administrator'] });
      const ask = (cms: typeof first, path: string) =>
        send(cms, 'GET', `/oembed/1.0/proxy?${q({ url: `http://trusted.test/${path}` })}`, { user: { id: admin.id } });
      const original = await ask(first, 'a');
      assert.equal(original.status, 200);
      const shared = await ask(second, 'a');
      assert.deepEqual(shared.json, original.json);
      assert.equal(providerHits(), 1, 'the second process read the first one\'s answer');

      const failure = await send(second, 'GET', `/oembed/1.0/proxy?${q({ url: 'http://broken.test/z' })}`, { user: { id: admin.id } });
      assert.equal(failure.status, 404);
      assert.equal((await send(first, 'GET', `/oembed/1.0/proxy?${q({ url: 'http://broken.test/z' })}`, { user: { id: admin.id } })).status, 404);
      assert.equal(providerHits(), 2, 'the failure is shared too');

      for (const path of ['b', 'c', 'd', 'e']) await ask(first, path);
      const { total } = await storage.list(CACHE_COLLECTION, { withTotal: true, limit: 0 });
      assert.ok(total !== undefined && total <= 3, `at most maxEntries records are kept (${total})`);

      clock.advance(DAY + 1);
      env.reset();
      await ask(second, 'e');
      assert.equal(providerHits(), 1, 'an expired record is not served');
      const { items } = await storage.list(CACHE_COLLECTION);
      assert.ok(items.every((record) => typeof record.expires_at === 'number' && record.expires_at > clock.now().getTime()), 'expired records are pruned');
      await storage.close?.();
    });
  });
}

describe('cacheKey', () => {
  it('is stable across parameter order, differs by value and caller, and ignores the nonce', () => {
    const key = cacheKey({ url: 'u', maxwidth: 600, discover: true, list: { b: 1, a: [1, 2] } }, 3);
    assert.equal(key, cacheKey({ list: { a: [1, 2], b: 1 }, discover: true, maxwidth: 600, url: 'u', _wpnonce: 'x' }, 3));
    assert.notEqual(key, cacheKey({ url: 'u', maxwidth: 601, discover: true, list: { b: 1, a: [1, 2] } }, 3));
    assert.notEqual(key, cacheKey({ url: 'u', maxwidth: 600, discover: true, list: { b: 1, a: [1, 2] } }, 4));
    assert.match(key, /^oembed_[0-9a-f]{64}$/);
  });

  it('ignores records of other shapes in the store', async () => {
    const storage = createMemoryStorage();
    const cache = createStorageCache(storage, 10, fixedClock(NOW));
    await storage.insert(CACHE_COLLECTION, { key: 'k', ok: true, data: 'not an object', expires_at: Date.parse(NOW) + 1000 });
    assert.equal(await cache.get('k'), undefined);
    await cache.set('k', { ok: true, data: { type: 'link' } }, 1000);
    assert.deepEqual(await cache.get('k'), { ok: true, data: { type: 'link' } });
  });
});
