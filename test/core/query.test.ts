import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildQueryString, parseQueryString } from '../../src/core/query.js';

describe('PHP-style query parsing', () => {
  it('lets the last repeated key win and builds lists and maps from brackets', () => {
    assert.deepEqual(parseQueryString('a=1&a=2'), { a: '2' });
    assert.deepEqual(parseQueryString('a[]=1&a[]=2'), { a: ['1', '2'] });
    assert.deepEqual(parseQueryString('a[x][y]=3'), { a: { x: { y: '3' } } });
    assert.deepEqual(parseQueryString('a[0]=x&a[2]=y&a[]=z'), { a: { 0: 'x', 2: 'y', 3: 'z' } });
    assert.deepEqual(parseQueryString('categories[terms][]=4&categories[operator]=AND'), { categories: { terms: ['4'], operator: 'AND' } });
  });

  it('decodes + as a space, turns dots and spaces in names into underscores, keeps bare keys', () => {
    assert.deepEqual(parseQueryString('q=a+b%20c&c.d=1&e+f=2&_embed'), { q: 'a b c', c_d: '1', e_f: '2', _embed: '' });
  });

  it('survives malformed percent escapes', () => {
    assert.deepEqual(parseQueryString('a=%zz%41&b=%E0%A4'), { a: '%zzA', b: '\u00e0\u00a4' });
  });

  it('keeps __proto__, constructor and prototype as ordinary keys, never reaching a prototype', () => {
    const parsed = parseQueryString('__proto__[polluted]=1&a[__proto__][b]=2&constructor[prototype][c]=3&__proto__=4');
    assert.deepEqual(Object.keys(parsed), ['__proto__', 'a', 'constructor']);
    assert.equal(Object.getPrototypeOf(parsed), Object.prototype);
    assert.equal(Object.getOwnPropertyDescriptor(parsed, '__proto__')?.value, '4');
    assert.deepEqual(Object.getOwnPropertyDescriptor(parsed.a, '__proto__')?.value, { b: '2' });
    assert.equal(Object.getPrototypeOf(parsed.a), Object.prototype);
    const probe: Record<string, unknown> = {};
    assert.equal(probe.polluted, undefined);
    assert.equal(probe.b, undefined);
    assert.equal(probe.c, undefined);
  });

  it('encodes back the way pagination links need', () => {
    assert.equal(buildQueryString({ per_page: 5, page: 2, _fields: 'id,title', s: 'a b' }), 'per_page=5&page=2&_fields=id%2Ctitle&s=a+b');
    assert.equal(buildQueryString({ a: ['1', '2'], b: { c: 'd' } }), 'a%5B0%5D=1&a%5B1%5D=2&b%5Bc%5D=d');
  });
});
