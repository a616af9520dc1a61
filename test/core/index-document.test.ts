import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createCms, NAMESPACES } from '../../src/cms.js';
import { isFromKeptBytes } from '../../src/core/encode.js';
import { send } from '../helpers/request.js';

describe('the index document', () => {
  const cms = createCms({
    site: {
      name: 'Quire site',
      description: 'Words',
      url: 'https://example.com/',
      timezone: 'Europe/Paris',
      gmtOffset: 1,
      showOnFront: 'page',
      pageOnFront: 5,
      pageForPosts: 6,
      authorizationUrl: 'https://example.com/authorize',
    },
  });

  it('carries every field of the spec, in the reference order', async () => {
    const response = await send(cms, 'GET', '/');
    assert.equal(response.status, 200);
    const body = response.json;
    assert.deepEqual(Object.keys(body), [
      'name', 'description', 'url', 'home', 'gmt_offset', 'timezone_string', 'page_for_posts', 'page_on_front',
      'show_on_front', 'namespaces', 'authentication', 'routes', 'site_logo', 'site_icon', 'site_icon_url', '_links',
    ]);
    assert.equal(body.name, 'Quire site');
    assert.equal(body.url, 'https://example.com');
    assert.equal(body.home, 'https://example.com');
    assert.equal(body.gmt_offset, '1');
    assert.equal(body.timezone_string, 'Europe/Paris');
    assert.equal(body.page_on_front, 5);
    assert.equal(body.page_for_posts, 6);
    assert.equal(body.show_on_front, 'page');
    assert.deepEqual(body.namespaces, [...NAMESPACES]);
    assert.deepEqual(body.authentication, {
      'application-passwords': { endpoints: { authorization: 'https://example.com/authorize' } },
    });
    assert.deepEqual(body._links, { help: [{ href: 'https://developer.wordpress.org/rest-api/' }] });
  });

  it('describes routes from their definitions', async () => {
    const { routes } = (await send(cms, 'GET', '/')).json;
    assert.deepEqual(Object.keys(routes).slice(0, 3), ['/', '/batch/v1', '/oembed/1.0']);
    assert.deepEqual(routes['/'], {
      namespace: '',
      methods: ['GET'],
      endpoints: [{ methods: ['GET'], args: { context: { default: 'view', required: false } } }],
      _links: { self: [{ href: 'https://example.com/cms-json/' }] },
    });
    assert.deepEqual(routes['/cms/v2'], {
      namespace: 'cms/v2',
      methods: ['GET'],
      endpoints: [{
        methods: ['GET'],
        args: { namespace: { default: 'cms/v2', required: false }, context: { default: 'view', required: false } },
      }],
      _links: { self: [{ href: 'https://example.com/cms-json/cms/v2' }] },
    });
    for (const namespace of NAMESPACES) assert.ok(routes[`/${namespace}`], namespace);
  });

  it('serves a root for every namespace, with its own routes and an up link', async () => {
    for (const namespace of NAMESPACES) {
      const response = await send(cms, 'GET', `/${namespace}`);
      assert.equal(response.status, 200, namespace);
      assert.equal(response.json.namespace, namespace);
      assert.ok(response.json.routes[`/${namespace}`]);
      assert.ok(Object.keys(response.json.routes).every((pattern) => pattern.startsWith(`/${namespace}`)));
      assert.deepEqual(response.json._links, { up: [{ href: 'https://example.com/cms-json/' }] });
    }
  });

  it('links only parameterless routes to themselves, alike in the index, a namespace root and OPTIONS', async () => {
    const index = (await send(cms, 'GET', '/')).json.routes;
    const namespace = (await send(cms, 'GET', '/cms/v2')).json.routes;
    const withParameters = Object.keys(namespace).filter((pattern) => pattern.includes('(?P<'));
    assert.ok(withParameters.includes('/cms/v2/posts/(?P<id>[\\d]+)') && withParameters.length > 10);
    for (const pattern of Object.keys(namespace)) {
      const expected = pattern.includes('(?P<') ? undefined : { self: [{ href: `https://example.com/cms-json${pattern}` }] };
      assert.deepEqual(namespace[pattern]._links, expected, pattern);
      assert.deepEqual(index[pattern]._links, expected, pattern);
    }
    const item = await send(cms, 'OPTIONS', '/cms/v2/posts/1');
    assert.equal(item.json.namespace, 'cms/v2');
    assert.equal('_links' in item.json, false, 'an item route has no links');
    const collection = await send(cms, 'OPTIONS', '/cms/v2/posts');
    assert.deepEqual(collection.json._links, { self: [{ href: 'https://example.com/cms-json/cms/v2/posts' }] });
  });

  it('answers an unknown ?namespace= with 404 rest_invalid_namespace', async () => {
    const response = await send(cms, 'GET', '/cms/v2?namespace=foo');
    assert.equal(response.status, 404);
    assert.deepEqual(response.body, {
      code: 'rest_invalid_namespace', message: 'The specified namespace could not be found.', data: { status: 404 },
    });
  });

  it('selects _links on the index and namespace roots with _fields, as everywhere else', async () => {
    assert.deepEqual((await send(cms, 'GET', '/?_fields=name,url')).json, { name: 'Quire site', url: 'https://example.com' });
    const withLinks = (await send(cms, 'GET', '/?_fields=name,_links')).json;
    assert.deepEqual(Object.keys(withLinks), ['name', '_links']);
    assert.deepEqual(withLinks._links, { help: [{ href: 'https://developer.wordpress.org/rest-api/' }] });
    assert.deepEqual(Object.keys((await send(cms, 'GET', '/?_fields=name,_links.help')).json), ['name', '_links']);
    assert.deepEqual(Object.keys((await send(cms, 'GET', '/cms/v2?_fields=namespace')).json), ['namespace']);
    assert.deepEqual(Object.keys((await send(cms, 'GET', '/cms/v2?_fields=namespace,_links')).json), ['namespace', '_links']);
  });

  it('builds links from the request when no url is configured', async () => {
    const bare = createCms();
    const response = await bare.handle({ method: 'GET', path: '/', baseUrl: 'http://127.0.0.1:9999/cms-json' });
    const body = response.body as Record<string, any>;
    assert.equal(body.url, 'http://127.0.0.1:9999');
    assert.equal(response.headers.Link, '<http://127.0.0.1:9999/cms-json/>; rel="https://api.w.org/"');
  });

  it('keeps index answers per site address and query; no caller can change what others are sent', async () => {
    const bare = createCms();
    const first = await bare.handle({ method: 'GET', path: '/', query: '', baseUrl: 'http://one.test/cms-json' });
    (first.body as Record<string, unknown>).name = 'changed by the first caller';
    const again = await bare.handle({ method: 'GET', path: '/', query: '', baseUrl: 'http://one.test/cms-json' });
    const other = await bare.handle({ method: 'GET', path: '/', query: '', baseUrl: 'http://two.test/cms-json' });
    assert.ok(isFromKeptBytes(again), 'the second answer is the kept one');
    assert.equal((again.body as Record<string, string>).name, 'quire');
    assert.equal(again.headers.ETag, first.headers.ETag);
    assert.equal((other.body as Record<string, string>).url, 'http://two.test');
    assert.notEqual(other.headers.ETag, first.headers.ETag);
    const head = await bare.handle({ method: 'HEAD', path: '/', query: '', baseUrl: 'http://one.test/cms-json' });
    assert.equal(head.body, null);
    const filtered = await bare.handle({ method: 'GET', path: '/', query: '_fields=name', baseUrl: 'http://one.test/cms-json' });
    assert.deepEqual(Object.keys(filtered.body as object), ['name'], '_fields selects the index\'s links too');
    const withCors = await bare.handle({ method: 'GET', path: '/', query: '', headers: { origin: 'https://app.test' }, baseUrl: 'http://one.test/cms-json' });
    assert.equal(withCors.headers['Access-Control-Allow-Origin'], 'https://app.test', 'per-request headers still apply');
  });
});
