import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildQueryString, InputCollector, MAX_INPUT_NESTING, MAX_INPUT_VARS, PairReader, parseQueryString, trimmedName } from '../../src/core/query.js';

/** The parse result as plain data (parsed maps are prototype-less). */
const parse = (text: string) => structuredClone(parseQueryString(text));

function assertPrototypeLess(value: unknown, path = 'params'): void {
  if (value === null || typeof value !== 'object') return;
  if (!Array.isArray(value)) assert.equal(Object.getPrototypeOf(value), null, `${path} is prototype-less`);
  for (const [key, child] of Object.entries(value)) assertPrototypeLess(child, `${path}.${key}`);
}

describe('PHP-style query parsing', () => {
  it('lets the last repeated key win and builds lists and maps from brackets', () => {
    assert.deepEqual(parse('a=1&a=2'), { a: '2' });
    assert.deepEqual(parse('a[]=1&a[]=2'), { a: ['1', '2'] });
    assert.deepEqual(parse('a[x][y]=3'), { a: { x: { y: '3' } } });
    assert.deepEqual(parse('a[0]=x&a[2]=y&a[]=z'), { a: { 0: 'x', 2: 'y', 3: 'z' } });
    assert.deepEqual(parse('categories[terms][]=4&categories[operator]=AND'), { categories: { terms: ['4'], operator: 'AND' } });
  });

  it('decodes + as a space, turns dots and spaces in names into underscores, keeps bare keys', () => {
    assert.deepEqual(parse('q=a+b%20c&c.d=1&e+f=2&_embed'), { q: 'a b c', c_d: '1', e_f: '2', _embed: '' });
  });

  it('survives malformed percent escapes', () => {
    assert.deepEqual(parse('a=%zz%41&b=%E0%A4'), { a: '%zzA', b: '\u00e0\u00a4' });
  });

  // Each expectation below is what PHP 8.2's parse_str gives for the same string.
  it('reads odd names as PHP does', () => {
    assert.deepEqual(parse('[x]=1& a=2&a.b c=3&a[b=4&a[b][c=5&a[b]x=6'), { a: { b: '6' }, a_b_c: '3', a_b: '4' });
    assert.deepEqual(parse('d[]=1&d[5]=2&d[]=3&e[-3]=1&e[]=2&f[05]=1&f[]=2'),
      { d: { 0: '1', 5: '2', 6: '3' }, e: { '-3': '1', '-2': '2' }, f: { '05': '1', 0: '2' } });
    assert.deepEqual(parse('g[]=1&g[x]=2&g[]=3&h=1&h[]=2&i[]=1&i=2&j[a][]=1&j[a][]=2&k[]][]=z'),
      { g: { 0: '1', x: '2', 1: '3' }, h: ['2'], i: '2', j: { a: ['1', '2'] }, k: ['z'] });
    assert.deepEqual(parse('l[a[b]]=1&m[a]][b]=2&n[][x]=1&n[][x]=2&p[9223372036854775807]=a&p[]=b'),
      { l: { 'a[b': '1' }, m: { a: '2' }, n: [{ x: '1' }, { x: '2' }], p: { '9223372036854775807': 'a' } });
    assert.deepEqual(parse('q%5Bx%5D=1&r[=2&s]=3&t[ x]=4&u[]=&v&&=7&a%00b=1&c[x%00y]=2'),
      { q: { x: '1' }, r_: '2', 's]': '3', t: { ' x': '4' }, u: [''], v: '', a: '1', c_x: '2' });
  });

  it('keeps every map prototype-less and drops keys that could reach a prototype', () => {
    const params = parseQueryString('__proto__[_method]=DELETE&__proto__[rest_route]=/x&constructor[prototype][p]=1&a[__proto__][b]=1&a[c]=2&prototype=3&x[y][constructor]=1');
    assertPrototypeLess(params);
    assert.deepEqual(structuredClone(params), { a: { c: '2' } });
    assert.equal(({} as Record<string, unknown>)._method, undefined);
    assert.equal(({} as Record<string, unknown>).p, undefined);
    assert.equal(params._method, undefined);
  });

  it(`keeps ${MAX_INPUT_NESTING} levels of brackets and drops the whole variable past that`, () => {
    const deep = (levels: number) => `a${'[b]'.repeat(levels)}`;
    const kept = parse(`a[x]=1&${deep(MAX_INPUT_NESTING)}=2`);
    let node: unknown = (kept.a as Record<string, unknown>).b;
    for (let level = 1; level < MAX_INPUT_NESTING; level++) node = (node as Record<string, unknown>).b;
    assert.equal(node, '2');
    assert.deepEqual(parse(`a[x]=1&${deep(MAX_INPUT_NESTING + 1)}=2&c=3`), { c: '3' });
    assert.deepEqual(parse(`a[x]=1&${deep(MAX_INPUT_NESTING + 1)}=2&a[y]=3`), { a: { y: '3' } });
  });

  it(`keeps the first ${MAX_INPUT_VARS} variables, counting nameless ones but not empty pairs`, () => {
    const many = Array.from({ length: MAX_INPUT_VARS + 5 }, (_, index) => `v${index}=1`).join('&');
    assert.equal(Object.keys(parseQueryString(many)).length, MAX_INPUT_VARS);
    assert.equal(Object.keys(parseQueryString(`&&&&${many}`)).length, MAX_INPUT_VARS);
    const nameless = `${Array.from({ length: MAX_INPUT_VARS - 1 }, () => '=1').join('&')}&z=1&y=2`;
    assert.deepEqual(parse(nameless), { z: '1' });
  });

  it('reads every pair undecoded, an empty one too, so that a reader taking turns counts each', () => {
    const read = (text: string) => {
      const pairs = new PairReader(text);
      const seen: ([string, string] | null)[] = [];
      while (pairs.next()) seen.push(pairs.empty ? null : [pairs.name, pairs.value]);
      assert.equal(pairs.next(), false);
      return seen;
    };
    assert.deepEqual(read(''), []);
    assert.deepEqual(read('a=1&&b&=&c=%20+x=y&'), [['a', '1'], null, ['b', ''], ['', ''], ['c', '%20+x=y'], null]);
    assert.deepEqual(read('&&'), [null, null, null]);
  });

  it('trims a name at a NUL and of its leading spaces, as PHP does', () => {
    assert.equal(trimmedName('  a b\0c[d]'), 'a b');
    assert.equal(trimmedName('a[ b]'), 'a[ b]');
    assert.equal(trimmedName('   '), '');
  });

  it('shares one variable budget across calls to a collector', () => {
    const collector = new InputCollector(3);
    collector.add('a', '1');
    collector.add('b[c]', '2');
    assert.equal(collector.full, false);
    collector.add('d', '3');
    assert.equal(collector.full, true);
    collector.add('e', '4');
    assert.deepEqual(structuredClone(collector.result()), { a: '1', b: { c: '2' }, d: '3' });
  });

  it('encodes back the way pagination links need', () => {
    assert.equal(buildQueryString({ per_page: 5, page: 2, _fields: 'id,title', s: 'a b' }), 'per_page=5&page=2&_fields=id%2Ctitle&s=a+b');
    assert.equal(buildQueryString({ a: ['1', '2'], b: { c: 'd' } }), 'a%5B0%5D=1&a%5B1%5D=2&b%5Bc%5D=d');
    assert.equal(buildQueryString({ a: null, b: undefined, c: true, d: false, e: [, 'x'], '': 'v', f: { g: [1, { h: 'i j' }] } }),
      'c=1&d=0&e%5B1%5D=x&=v&f%5Bg%5D%5B0%5D=1&f%5Bg%5D%5B1%5D%5Bh%5D=i+j');
  });
});
