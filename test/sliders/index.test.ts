import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { makeSite, STORES } from './helpers.js';

const ROUTES = [
  '/slider',
  '/slider/sliders',
  '/slider/sliders/(?P<slider>[\\w\\-]+)',
  '/slider/sliders/slides/(?P<id>\\d+)',
  '/slider/sliders/stream/(?P<id>[0-9,]+)',
  '/slider/sliders/modal/(?P<slider>[\\w\\-]+)',
];

describe('slider routes in the index', () => {
  it('lists the read routes with "args": [] and the write routes with their arguments', async () => {
    const site = await makeSite(STORES[0]!.open());
    const root = (await site.anonymous('GET', '/slider')).json;
    assert.equal(root.namespace, 'slider');
    assert.deepEqual(Object.keys(root.routes), ROUTES);
    const index = (await site.anonymous('GET', '/')).json;
    assert.ok(index.namespaces.includes('slider'));
    for (const route of ROUTES) assert.deepEqual(index.routes[route], root.routes[route], route);

    const [, list, item, slides, stream, modal] = ROUTES.map((route) => root.routes[route]);
    for (const route of [slides, stream, modal]) {
      assert.deepEqual(route.methods, ['GET']);
      assert.deepEqual(route.endpoints, [{ methods: ['GET'], args: [] }]);
      assert.equal(route._links, undefined, 'routes with parameters do not link to themselves');
    }
    assert.deepEqual(list.methods, ['GET', 'POST']);
    assert.deepEqual(list._links, { self: [{ href: 'http://example.test/cms-json/slider/sliders' }] });
    assert.deepEqual(list.endpoints[0], { methods: ['GET'], args: [] });
    const create = list.endpoints[1].args;
    assert.deepEqual(Object.keys(create), ['alias', 'title', 'settings', 'slides']);
    assert.equal(create.alias.required, true);
    assert.equal(create.alias.type, 'string');
    assert.equal(create.alias.pattern, '^[\\w-]+$');
    assert.equal(create.settings.type, 'object');
    assert.equal(create.slides.type, 'array');
    assert.equal(create.slides.items.additionalProperties, false);
    assert.deepEqual(Object.keys(create.slides.items.properties), ['slide', 'layers']);

    assert.deepEqual(item.methods, ['GET', 'PUT', 'PATCH', 'DELETE']);
    assert.equal(item._links, undefined);
    assert.deepEqual(item.endpoints[0], { methods: ['GET'], args: [] });
    assert.deepEqual(item.endpoints[1].methods, ['PUT', 'PATCH']);
    assert.equal(item.endpoints[1].args.alias.required, false);
    assert.deepEqual(item.endpoints[2], { methods: ['DELETE'], args: [] });
  });

  it('answers OPTIONS with the methods the caller may use', async () => {
    const site = await makeSite(STORES[0]!.open());
    assert.equal((await site.anonymous('OPTIONS', '/slider/sliders/anchor')).headers.Allow, 'GET');
    assert.equal((await site.as('editor')('OPTIONS', '/slider/sliders/anchor')).headers.Allow, 'GET');
    assert.equal((await site.admin('OPTIONS', '/slider/sliders/anchor')).headers.Allow, 'GET, PUT, PATCH, DELETE');
    assert.equal((await site.admin('OPTIONS', '/slider/sliders')).headers.Allow, 'GET, POST');
    assert.equal((await site.anonymous('OPTIONS', '/slider/sliders/stream/1,2')).headers.Allow, 'GET');
  });
});
