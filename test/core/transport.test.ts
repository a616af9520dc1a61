import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { resolveSite } from '../../src/core/site.js';
import { answerHeaders, MAX_QUERY_STRING_LENGTH, readIncoming } from '../../src/core/transport.js';
import { createCms, createMemoryStorage, encodeResponse } from '../../src/index.js';
import { longestTurnCpu } from '../helpers/event-loop.js';

describe('reading the outer request', () => {
  it('reads a repeated query string alike, and hands each request a map of its own', () => {
    const request = { method: 'get', path: '/ignored/', query: '_method=put&rest_route=/a/b/&_jsonp=cb&_envelope&_embed=author,replies&x=1', headers: {} };
    const first = readIncoming(request);
    first.query.x = 'changed';
    delete first.query._method;
    const second = readIncoming(request);
    for (const incoming of [first, second]) {
      assert.equal(incoming.method, 'PUT');
      assert.equal(incoming.realMethod, 'GET');
      assert.equal(incoming.path, '/a/b');
      assert.equal(incoming.jsonp, true);
      assert.equal(incoming.envelope, true);
    }
    assert.deepEqual(second.embed, ['author', 'replies']);
    assert.equal(second.query.x, '1');
    assert.equal(second.query._method, 'put');
    assert.notEqual(first.query, second.query);
  });

  it('reads a query without switches as the plain request, and a host-parsed query as given', () => {
    const plain = readIncoming({ method: 'HEAD', path: '/p', query: 'per_page=10', headers: { 'X-HTTP-Method-Override': 'delete' } });
    assert.deepEqual([plain.method, plain.path, plain.jsonp, plain.envelope, plain.embed, plain.overrideHeader], ['DELETE', '/p', false, false, null, true]);
    assert.equal(plain.query.per_page, '10');
    const hosted = readIncoming({ method: 'GET', path: '/', query: { rest_route: '/q', _embed: '' }, headers: {} });
    assert.deepEqual([hosted.path, hosted.embed, Object.getPrototypeOf(hosted.query)], ['/q', true, null]);
  });

  it('reads the request\'s own headers, names lower-cased and repeated values joined, in their order', () => {
    const headers = Object.assign(Object.create({ authorization: 'Basic inherited' }) as Record<string, string | string[]>, {
      Host: 'example.test', 'X-Forwarded-For': ['192.0.2.1', '192.0.2.2'], Accept: '*/*',
    });
    const incoming = readIncoming({ method: 'GET', path: '/', query: '', headers });
    assert.deepEqual(incoming.headers, { host: 'example.test', 'x-forwarded-for': '192.0.2.1,192.0.2.2', accept: '*/*' });
    assert.deepEqual(Object.keys(incoming.headers), ['host', 'x-forwarded-for', 'accept']);
    assert.equal('authorization' in incoming.headers, false, 'an inherited header is not the request\'s');
  });

  it('remembers a bounded number of query strings, and still reads every one right', () => {
    for (let index = 0; index < 1500; index += 1) {
      const incoming = readIncoming({ method: 'GET', path: '/', query: `rest_route=/r/${index}&n=${index}`, headers: {} });
      assert.equal(incoming.path, `/r/${index}`);
      assert.equal(incoming.query.n, String(index));
    }
    const long = `rest_route=/long&pad=${'x'.repeat(5000)}`;
    for (let round = 0; round < 2; round += 1) assert.equal(readIncoming({ method: 'GET', path: '/', query: long, headers: {} }).path, '/long');
  });
});

describe('answerHeaders', () => {
  const siteA = resolveSite({ url: 'http://a.test' }, undefined);
  const siteB = resolveSite({}, 'http://b.test/api');

  it('starts from the fixed headers of this site, prefix and format, whichever were asked before', () => {
    const expected = (apiUrl: string, prefix: string, jsonp: boolean) => ({
      'Content-Type': jsonp ? 'application/javascript; charset=UTF-8' : 'application/json; charset=UTF-8',
      'X-Robots-Tag': 'noindex',
      Link: `<${apiUrl}/>; rel="https://api.w.org/"`,
      'X-Content-Type-Options': 'nosniff',
      'Access-Control-Expose-Headers': `${prefix}-Total, ${prefix}-TotalPages, Link`,
      'Access-Control-Allow-Headers': 'Authorization, X-WP-Nonce, Content-Disposition, Content-MD5, Content-Type',
    });
    for (const [site, prefix, jsonp] of [
      [siteA, 'X-WP', false], [siteA, 'X-WP', false], [siteB, 'X-WP', false], [siteA, 'X-CMS', false], [siteA, 'X-CMS', true],
      [siteB, 'X-CMS', true], [siteA, 'X-WP', false], [siteA, 'X-WP', true],
    ] as const) {
      const headers = answerHeaders(site, prefix, jsonp, {});
      assert.deepEqual(headers, expected(site.apiUrl, prefix, jsonp));
      headers['X-Robots-Tag'] = 'changed by the caller';
    }
  });

  it('lays the answer\'s own headers over them in their places, as text', () => {
    const headers = answerHeaders(siteA, 'X-WP', false, { 'X-WP-Total': 5, Link: '<x>; rel="next"', Allow: 'GET', Empty: '' });
    assert.deepEqual(Object.keys(headers), [
      'Content-Type', 'X-Robots-Tag', 'Link', 'X-Content-Type-Options', 'Access-Control-Expose-Headers', 'Access-Control-Allow-Headers',
      'X-WP-Total', 'Allow', 'Empty',
    ]);
    assert.equal(headers['X-WP-Total'], '5');
    assert.equal(headers.Link, '<x>; rel="next"');
    assert.equal(answerHeaders(siteA, 'X-WP', false, {}).Link, `<${siteA.apiUrl}/>; rel="https://api.w.org/"`);
    const inherited = Object.assign(Object.create({ Hidden: 'x' }) as Record<string, string>, { Shown: 'y' });
    assert.equal(answerHeaders(siteA, 'X-WP', false, inherited).Shown, 'y');
    assert.equal('Hidden' in answerHeaders(siteA, 'X-WP', false, inherited), false, 'own headers only');
  });
});

describe('the query string\'s length', () => {
  it(`answers 414 past ${MAX_QUERY_STRING_LENGTH} characters before anything decodes it, and reads one at the limit`, async () => {
    const cms = createCms({ storage: createMemoryStorage(), site: { url: 'http://example.test' } });
    const at = `per_page=1&x=${'y'.repeat(MAX_QUERY_STRING_LENGTH - 13)}`;
    assert.equal(at.length, MAX_QUERY_STRING_LENGTH);
    assert.equal((await cms.handle({ method: 'GET', path: '/cms/v2/posts', query: at, headers: {} })).status, 200);
    const long = `search=${'%F0%9F%98%80'.repeat(2 ** 21)}`;
    let answer: Awaited<ReturnType<typeof cms.handle>> | undefined;
    const turnCpu = await longestTurnCpu(async () => {
      answer = await cms.handle({ method: 'GET', path: '/cms/v2/posts', query: long, headers: {} });
    });
    assert.equal(answer!.status, 414);
    assert.deepEqual(JSON.parse(new TextDecoder().decode(encodeResponse(answer!).body!)), {
      code: 'rest_request_uri_too_long', message: `The query string is longer than the ${MAX_QUERY_STRING_LENGTH} characters allowed.`,
      data: { status: 414, max_length: MAX_QUERY_STRING_LENGTH },
    });
    assert.ok(turnCpu < 20, `longest turn ${turnCpu.toFixed(1)} ms of CPU`);
    // A host's own map of parameters is not a query string: nothing to decode.
    const hosted = await cms.handle({ method: 'GET', path: '/cms/v2/posts', query: { per_page: '1', x: 'y'.repeat(MAX_QUERY_STRING_LENGTH + 1) }, headers: {} });
    assert.equal(hosted.status, 200);
  });
});
