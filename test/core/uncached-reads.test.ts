import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createCms } from '../../src/cms.js';
import { encodeResponse } from '../../src/core/encode.js';
import { allowAnyone, type EndpointDefinition } from '../../src/core/registry.js';
import { reply } from '../../src/core/response.js';
import type { CmsRequest } from '../../src/core/types.js';
import { createMemoryStorage } from '../../src/storage/memory/index.js';
import { ids, makeSite } from '../content/posts/helpers.js';

const decoder = new TextDecoder();

/** What the wire carries of a response. */
function wire(response: Parameters<typeof encodeResponse>[0]) {
  const encoded = encodeResponse(response);
  return { status: encoded.status, headers: { ...encoded.headers }, body: encoded.body === null ? null : decoder.decode(encoded.body) };
}

describe('uncached reads', () => {
  it('answer byte for byte as the cached configuration does, request after request, whatever came before', async () => {
    const cached = await makeSite();
    const uncached = createCms({ clock: cached.clock, storage: cached.cms.deps.storage, site: { url: 'http://example.test' }, responseCache: false });
    for (let index = 0; index < 3; index++) await cached.create({ title: `Post ${index}`, status: 'publish' });
    const first = await cached.anonymous('GET', '/cms/v2/posts');
    const tag = first.headers.ETag!;
    const single = (first.json as { id: number }[])[0]!.id;
    const admin = { id: cached.ids.administrator };
    const sequence: CmsRequest[] = [
      { method: 'GET', path: '/cms/v2/posts', query: 'per_page=2' },
      { method: 'GET', path: '/cms/v2/posts', query: 'per_page=2', headers: { origin: 'https://a.test' } },
      { method: 'GET', path: '/cms/v2/posts', query: 'per_page=2' },
      { method: 'HEAD', path: '/cms/v2/posts', query: 'per_page=2' },
      { method: 'GET', path: '/cms/v2/posts', query: '', headers: { 'if-none-match': tag } },
      { method: 'GET', path: '/cms/v2/posts', query: '', headers: { 'if-none-match': '"other"', origin: 'null' } },
      { method: 'GET', path: '/cms/v2/posts', query: 'per_page=2&context=edit', user: admin },
      { method: 'GET', path: '/cms/v2/posts', query: 'per_page=2&context=edit' },
      { method: 'GET', path: '/cms/v2/posts', query: 'per_page=2', user: admin, headers: { origin: 'https://b.test' } },
      { method: 'GET', path: `/cms/v2/posts/${single}`, query: '' },
      { method: 'GET', path: `/cms/v2/posts/${single}`, query: '', user: admin },
      { method: 'HEAD', path: `/cms/v2/posts/${single}`, query: '', headers: { origin: 'https://a.test' } },
      { method: 'GET', path: `/cms/v2/posts/${single}`, query: '_envelope' },
      { method: 'GET', path: '/cms/v2/posts', query: 'per_page=1&_pretty' },
    ];
    for (let round = 0; round < 2; round++) {
      for (const request of sequence) {
        const copy = (): CmsRequest => ({ ...request, headers: { ...request.headers } });
        const expected = wire(await cached.cms.handle(copy()));
        const actual = wire(await uncached.handle(copy()));
        assert.deepEqual(actual, expected, `${request.method} ${request.path}?${request.query} ${JSON.stringify(request.headers ?? {})}`);
        assert.deepEqual(Object.keys(actual.headers), Object.keys(expected.headers), 'the headers in the same order');
      }
    }
  });

  it('carry no header of an earlier answer, and a changed response changes no later one', async () => {
    const cms = createCms({ site: { url: 'http://site.test' }, storage: createMemoryStorage(), responseCache: false });
    let calls = 0;
    cms.registry.add('cms/v2', '/fresh', [{ methods: ['GET'], permission: allowAnyone, handler: () => reply({ call: (calls += 1) }) }], { cache: { varies: 'caller' } });
    const get = (headers: Record<string, string> = {}): CmsRequest => ({ method: 'GET', path: '/cms/v2/fresh', query: '', headers });
    const withOrigin = await cms.handle(get({ origin: 'https://a.test' }));
    assert.equal(withOrigin.headers['Access-Control-Allow-Origin'], 'https://a.test');
    withOrigin.headers.Extra = 'added';
    const plain = await cms.handle(get());
    assert.equal(plain.headers['Access-Control-Allow-Origin'], undefined);
    assert.equal(plain.headers.Extra, undefined);
    assert.equal(plain.headers.Vary, 'Origin');
    assert.deepEqual(plain.body, { call: 2 }, 'computed again: nothing is kept');
    assert.notEqual(plain.headers.ETag, withOrigin.headers.ETag);
    const notModified = await cms.handle(get({ 'if-none-match': plain.headers.ETag! }));
    assert.equal(notModified.status, 200, 'a new answer, a new tag');
    assert.deepEqual(notModified.body, { call: 3 });
  });

  it('tell `Allow` by the caller, and after a change of role', async () => {
    const site = await makeSite({ responseCache: false });
    const post = await site.create({ title: 'One', status: 'publish' });
    const allow = async (role: Parameters<typeof site.as>[0], path: string, method = 'GET') =>
      (await site.as(role)(method, path)).headers.Allow;
    for (let round = 0; round < 2; round++) {
      assert.equal(await allow(null, '/cms/v2/posts'), 'GET');
      assert.equal(await allow('administrator', '/cms/v2/posts'), 'GET, POST');
      assert.equal(await allow('subscriber', '/cms/v2/posts'), 'GET');
      assert.equal(await allow('subscriber', '/cms/v2/posts', 'HEAD'), 'GET');
      assert.equal(await allow(null, `/cms/v2/posts/${post.id}`), 'GET');
      assert.equal(await allow('administrator', `/cms/v2/posts/${post.id}`), 'GET, POST, PUT, PATCH, DELETE');
      assert.equal(await allow('author', `/cms/v2/posts/${post.id}`), 'GET');
    }
    const promoted = await site.admin('POST', `/cms/v2/users/${site.ids.subscriber}`, { json: { roles: ['editor'] } });
    assert.equal(promoted.status, 200);
    assert.equal(await allow('subscriber', '/cms/v2/posts'), 'GET, POST');
    assert.equal(await allow('subscriber', `/cms/v2/posts/${post.id}`), 'GET, POST, PUT, PATCH, DELETE');
    assert.equal(await allow(null, '/cms/v2/posts'), 'GET');
  });

  it('spell `Allow` for routes of many endpoints, in their order', async () => {
    const cms = createCms({ site: { url: 'http://site.test' }, storage: createMemoryStorage(), responseCache: false });
    const methods = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
    const endpoints: EndpointDefinition[] = [];
    // More endpoints than one number's bits: every other one granted.
    for (let index = 0; index < 40; index++) {
      endpoints.push({ methods: [methods[index % 5]!], permission: () => index % 2 === 0, handler: () => reply(index) });
    }
    cms.registry.add('cms/v2', '/many', endpoints, { cache: { varies: 'caller' } });
    const expected = endpoints.filter((_, index) => index % 2 === 0).map((endpoint) => endpoint.methods[0]).join(', ');
    for (let round = 0; round < 2; round++) assert.equal((await cms.handle({ method: 'GET', path: '/cms/v2/many', query: '' })).headers.Allow, expected);
  });

  it('see a scheduled post once the clock passes its date, the store unchanged', async () => {
    const site = await makeSite({ responseCache: false });
    const post = await site.create({ title: 'Tomorrow', status: 'publish', date: '2026-11-22T09:00:00' });
    for (let round = 0; round < 3; round++) assert.deepEqual(ids((await site.anonymous('GET', '/cms/v2/posts')).json), []);
    site.clock.set('2026-11-22T08:59:59Z');
    assert.deepEqual(ids((await site.anonymous('GET', '/cms/v2/posts')).json), []);
    site.clock.set('2026-11-22T09:00:00Z');
    assert.deepEqual(ids((await site.anonymous('GET', '/cms/v2/posts')).json), [post.id]);
    assert.equal((await site.anonymous('GET', `/cms/v2/posts/${post.id}`)).json.status, 'publish');
  });

  it('take kept parameters by the query string sent, and each path its own', async () => {
    const site = await makeSite({ responseCache: false });
    const posts = [];
    for (let index = 0; index < 3; index++) posts.push(await site.create({ title: `Post ${index}`, status: 'publish' }));
    const list = async (query: CmsRequest['query']) => ids((await site.cms.handle({ method: 'GET', path: '/cms/v2/posts', query })).body);
    for (let round = 0; round < 2; round++) {
      assert.equal((await list('per_page=2')).length, 2);
      assert.equal((await list({ per_page: '1' })).length, 1, 'a query the host parsed');
      assert.equal((await list('per_page=3')).length, 3);
      assert.equal((await list(`per_page=1&search=${'x'.repeat(600)}`)).length, 0, 'a long query string');
      for (const post of posts) {
        const read = await site.cms.handle({ method: 'GET', path: `/cms/v2/posts/${post.id}`, query: '_fields=id' });
        assert.deepEqual(read.body, { id: post.id });
      }
    }
  });
});

describe('refusals', () => {
  it('are shared, frozen, and told apart by status, code and message', async () => {
    const { forbidden } = await import('../../src/core/errors.js');
    const anonymous = forbidden(null, 'rest_cannot_edit', 'Sorry, you are not allowed to edit this post.');
    assert.equal(anonymous, forbidden(undefined, 'rest_cannot_edit', 'Sorry, you are not allowed to edit this post.'));
    assert.equal(anonymous.status, 401);
    const signedIn = forbidden({ id: 3 }, 'rest_cannot_edit', 'Sorry, you are not allowed to edit this post.');
    assert.equal(signedIn.status, 403);
    assert.notEqual(forbidden(null, 'rest_cannot_edit', 'Another message.'), anonymous);
    assert.notEqual(forbidden(null, 'rest_cannot_delete', 'Sorry, you are not allowed to edit this post.'), anonymous);
    assert.equal(forbidden(null).code, 'rest_forbidden');
    for (const part of [anonymous, anonymous.extra, anonymous.headers, anonymous.additional, anonymous.additionalData]) assert.ok(Object.isFrozen(part));
    assert.throws(() => { (anonymous.headers as Record<string, string>).Extra = 'x'; }, TypeError);
    assert.deepEqual(anonymous.toBody(), { code: 'rest_cannot_edit', message: 'Sorry, you are not allowed to edit this post.', data: { status: 401 } });
  });

  it('answer each caller with its own status, request after request', async () => {
    const site = await makeSite({ responseCache: false });
    const post = await site.create({ title: 'One', status: 'publish' });
    for (let round = 0; round < 3; round++) {
      const anonymous = await site.anonymous('PUT', `/cms/v2/posts/${post.id}`, { json: { title: 'x' } });
      assert.equal(anonymous.status, 401);
      assert.deepEqual(anonymous.json, { code: 'rest_cannot_edit', message: 'Sorry, you are not allowed to edit this post.', data: { status: 401 } });
      const subscriber = await site.as('subscriber')('DELETE', `/cms/v2/posts/${post.id}`);
      assert.equal(subscriber.status, 403);
      assert.equal(subscriber.json.code, 'rest_cannot_delete');
    }
  });
});
