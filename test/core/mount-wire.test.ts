import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { apiRootUrl, corePath, flatHeaders, serverAuthority, splitTarget } from '../../src/core/mount.js';

describe('the headers as written to the wire', () => {
  const headers = { 'Content-Type': 'application/json; charset=UTF-8', ETag: '"x"', Vary: 'Origin' };

  test('names and values in order, the length last', () => {
    assert.deepEqual(flatHeaders(headers, 12, false), ['Content-Type', 'application/json; charset=UTF-8', 'ETag', '"x"', 'Vary', 'Origin', 'Content-Length', 12]);
    assert.deepEqual(flatHeaders(headers, undefined, false), ['Content-Type', 'application/json; charset=UTF-8', 'ETag', '"x"', 'Vary', 'Origin']);
    assert.deepEqual(flatHeaders({}, 0, true), ['Content-Length', 0, 'Connection', 'close']);
  });

  test('a length or connection the answer has keeps its place and takes the value the body and the request call for', () => {
    const own = { 'Content-Length': '99', Location: '/x', Connection: 'keep-alive' };
    assert.deepEqual(flatHeaders(own, 3, true), ['Content-Length', 3, 'Location', '/x', 'Connection', 'close']);
    assert.deepEqual(flatHeaders(own, undefined, false), ['Content-Length', '99', 'Location', '/x', 'Connection', 'keep-alive']);
    assert.deepEqual(own, { 'Content-Length': '99', Location: '/x', Connection: 'keep-alive' }, 'the answer is not changed');
    const closing = { Location: '/y', Connection: 'keep-alive', Vary: 'Origin' };
    assert.deepEqual(flatHeaders(closing, 7, true), ['Location', '/y', 'Connection', 'close', 'Vary', 'Origin', 'Content-Length', 7]);
    assert.deepEqual(flatHeaders({ 'Content-Length': '5', Vary: 'Origin' }, 4, true), ['Content-Length', 4, 'Vary', 'Origin', 'Connection', 'close']);
    const list = flatHeaders(closing, 7, false);
    assert.deepEqual(list, ['Location', '/y', 'Connection', 'keep-alive', 'Vary', 'Origin', 'Content-Length', 7]);
    assert.equal(list.length, 8, 'no room left over');
    const inherited = Object.assign(Object.create({ Hidden: 'x' }) as Record<string, string>, { Shown: 'y' });
    assert.deepEqual(flatHeaders(inherited, 1, false), ['Shown', 'y', 'Content-Length', 1], 'own headers only');
  });

  test('frozen headers are listed once for each length and connection asked, and a list handed out never changes', () => {
    const frozen = Object.freeze({ ...headers });
    const first = flatHeaders(frozen, 12, false);
    assert.equal(flatHeaders(frozen, 12, false), first, 'the same list again');
    assert.ok(Object.isFrozen(first), 'no one can change a list handed out again');
    const head = flatHeaders(frozen, undefined, false);
    assert.deepEqual(head, ['Content-Type', 'application/json; charset=UTF-8', 'ETag', '"x"', 'Vary', 'Origin']);
    const closing = flatHeaders(frozen, 12, true);
    assert.deepEqual(closing, [...first, 'Connection', 'close']);
    assert.deepEqual(flatHeaders(frozen, 13, false), ['Content-Type', 'application/json; charset=UTF-8', 'ETag', '"x"', 'Vary', 'Origin', 'Content-Length', 13]);
    assert.deepEqual(first, ['Content-Type', 'application/json; charset=UTF-8', 'ETag', '"x"', 'Vary', 'Origin', 'Content-Length', 12]);
    const open = { ...headers };
    const list = flatHeaders(open, 12, false);
    assert.notEqual(flatHeaders(open, 12, false), list, 'headers that may change are listed anew');
    open.Vary = 'Accept';
    assert.deepEqual(flatHeaders(open, 12, false), ['Content-Type', 'application/json; charset=UTF-8', 'ETag', '"x"', 'Vary', 'Accept', 'Content-Length', 12]);
  });

  test('inherited names are not written', () => {
    const inherited = Object.assign(Object.create({ Leaked: 'yes' }) as Record<string, string>, { Own: '1' });
    assert.deepEqual(flatHeaders(inherited, undefined, false), ['Own', '1']);
  });
});

describe('what is remembered from the last request', () => {
  test('the API root follows every part of the request', () => {
    assert.equal(apiRootUrl('http', 'a.test', 'fallback:80', '/cms-json'), 'http://a.test/cms-json');
    assert.equal(apiRootUrl('http', 'a.test', 'fallback:80', '/cms-json'), 'http://a.test/cms-json');
    assert.equal(apiRootUrl('https', 'a.test', 'fallback:80', '/cms-json'), 'https://a.test/cms-json');
    assert.equal(apiRootUrl('https', 'b.test:8443', 'fallback:80', '/cms-json'), 'https://b.test:8443/cms-json');
    assert.equal(apiRootUrl('https', 'b.test:8443', 'fallback:80', '/wp-json'), 'https://b.test:8443/wp-json');
    assert.equal(apiRootUrl('https', 'bad host', 'fallback:80', '/wp-json'), 'https://fallback:80/wp-json');
    assert.equal(apiRootUrl('https', 'bad host', 'other:81', '/wp-json'), 'https://other:81/wp-json');
  });

  test("the server's own authority follows its address and port", () => {
    assert.equal(serverAuthority('127.0.0.1', 8080), '127.0.0.1:8080');
    assert.equal(serverAuthority('127.0.0.1', 8080), '127.0.0.1:8080');
    assert.equal(serverAuthority('127.0.0.1', 8081), '127.0.0.1:8081');
    assert.equal(serverAuthority('::1', 8081), '[::1]:8081');
    assert.equal(serverAuthority(undefined, undefined), 'localhost:80');
  });

  test('the split of a request target follows the target, and the same target gives the same strings', () => {
    const first = splitTarget('/cms-json/cms/v2/posts/1?a=1');
    assert.deepEqual(first, { pathname: '/cms-json/cms/v2/posts/1', query: 'a=1' });
    assert.equal(splitTarget(['/cms-json/cms/v2/posts/1', 'a=1'].join('?')), first, 'a target spelt anew');
    assert.ok(Object.isFrozen(first));
    assert.deepEqual(splitTarget('/cms-json/cms/v2/posts/1'), { pathname: '/cms-json/cms/v2/posts/1', query: '' });
    assert.deepEqual(splitTarget('http://a.test/cms-json/x?b'), { pathname: '/cms-json/x', query: 'b' });
    assert.deepEqual(splitTarget('/cms-json/cms/v2/posts/1?a=1'), first);
  });

  test('the API path follows the path, the query and the prefix, one after the other', () => {
    assert.equal(corePath('/cms-json/cms/v2/posts/1', '', '/cms-json'), '/cms/v2/posts/1');
    assert.equal(corePath('/cms-json/cms/v2/posts/1', '', '/cms-json'), '/cms/v2/posts/1');
    assert.equal(corePath('/cms-json/cms/v2/posts/1', '', '/cms'), null);
    assert.equal(corePath('/other', '', '/cms-json'), null);
    assert.equal(corePath('/other', 'rest_route=/cms/v2', '/cms-json'), '/');
    assert.equal(corePath('/other', '', '/cms-json'), null);
    assert.equal(corePath('/other', 'rest_route=', '/cms-json'), null);
  });

  test('the API path: the prefix followed by a slash, or the prefix alone', () => {
    assert.equal(corePath('/cms-json/cms/v2', '', '/cms-json'), '/cms/v2');
    assert.equal(corePath('/cms-json', '', '/cms-json'), '/');
    assert.equal(corePath('/cms-jsonx/cms/v2', '', '/cms-json'), null);
    assert.equal(corePath('/cms-json-other', '', '/cms-json'), null);
    assert.equal(corePath('/anything', '', ''), '/anything');
  });
});
