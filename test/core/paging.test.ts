import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { RequestContext } from '../../src/core/context.js';
import { pagingHeaders } from '../../src/core/paging.js';
import { buildQueryString, parseQueryString } from '../../src/core/query.js';
import { resolveSite } from '../../src/core/site.js';

function contextOf(query: string): RequestContext {
  const site = resolveSite({ url: 'http://example.test' }, undefined);
  return { path: '/cms/v2/posts', query: parseQueryString(query), url: (path: string, params?: Record<string, unknown>) => site.apiLink(path, params) } as unknown as RequestContext;
}

it('paging links carry the request\'s parameters in their order, page in its place or last, without rest_route', () => {
  const middle = pagingHeaders({ total: 30, totalPages: 3, page: 2 }, contextOf('per_page=10&page=2&rest_route=/x&a[]=1&a[]=2&m[k]=v&s=hello world!'), 'X-WP');
  assert.equal(middle.Link, [
    '<http://example.test/cms-json/cms/v2/posts?per_page=10&page=1&a%5B0%5D=1&a%5B1%5D=2&m%5Bk%5D=v&s=hello+world%21>; rel="prev"',
    '<http://example.test/cms-json/cms/v2/posts?per_page=10&page=3&a%5B0%5D=1&a%5B1%5D=2&m%5Bk%5D=v&s=hello+world%21>; rel="next"',
  ].join(', '));
  assert.deepEqual(pagingHeaders({ total: 30, totalPages: 3, page: 1 }, contextOf('per_page=10&e[]='), 'X-WP'), {
    'X-WP-Total': 30, 'X-WP-TotalPages': 3, Link: '<http://example.test/cms-json/cms/v2/posts?per_page=10&e%5B0%5D=&page=2>; rel="next"',
  });
  assert.deepEqual(pagingHeaders({ total: 5, totalPages: 1, page: 1 }, contextOf('per_page=10'), 'X-WP'), { 'X-WP-Total': 5, 'X-WP-TotalPages': 1 });
});

it('paging links spell every parameter as buildQueryString does, wherever page stands, for any prefix', () => {
  const site = resolveSite({ url: 'http://example.test' }, undefined);
  const contextWith = (path: string, query: Record<string, unknown>) =>
    ({ path, query, url: (to: string, params?: Record<string, unknown>) => site.apiLink(to, params) }) as unknown as RequestContext;
  const spelt = (path: string, query: Record<string, unknown>, page: number) => {
    const entries = Object.entries(query).filter(([key]) => key !== 'rest_route');
    if (!entries.some(([key]) => key === 'page')) entries.push(['page', page]);
    const text = entries.map(([key, value]) => buildQueryString({ [key]: key === 'page' ? page : value })).filter((piece) => piece !== '').join('&');
    return `${site.apiLink(path)}?${text}`;
  };
  const queries: Record<string, unknown>[] = [
    { page: '2', per_page: '5', search: 'héllo wörld ~*', n: 7, flag: true, none: null, list: ['a', 'b c'], empty: [] },
    { per_page: '5', page: '2' },
    { 'a b': 'x&y=z', page: '2', tail: '1e+21' },
    { rest_route: '/cms/v2/pages', page: '2' },
    {},
  ];
  for (const [index, query] of queries.entries()) {
    const path = index % 2 === 0 ? '/cms/v2/posts' : '/cms/v2/pages';
    const headers = pagingHeaders({ total: 50, totalPages: 5, page: 2 }, contextWith(path, query), index % 2 === 0 ? 'X-WP' : 'X-Other');
    const prefix = index % 2 === 0 ? 'X-WP' : 'X-Other';
    assert.deepEqual(Object.keys(headers), [`${prefix}-Total`, `${prefix}-TotalPages`, 'Link']);
    assert.equal(headers.Link, `<${spelt(path, query, 1)}>; rel="prev", <${spelt(path, query, 3)}>; rel="next"`, `query ${index}`);
  }
  const last = pagingHeaders({ total: 50, totalPages: 5, page: 9 }, contextWith('/cms/v2/posts', { page: '9' }), 'X-WP');
  assert.equal(last.Link, `<${site.apiLink('/cms/v2/posts')}?page=5>; rel="prev"`, 'prev is the last page past the end');
  const unclamped = pagingHeaders({ total: 50, totalPages: 5, page: 9, previousUnclamped: true }, contextWith('/cms/v2/posts', { page: '9' }), 'X-WP');
  assert.equal(unclamped.Link, `<${site.apiLink('/cms/v2/posts')}?page=8>; rel="prev"`);
  const first = pagingHeaders({ total: 50, totalPages: 5, page: 1 }, contextWith('/cms/v2/posts', { per_page: '10' }), 'X-WP');
  assert.equal(first.Link, `<${site.apiLink('/cms/v2/posts')}?per_page=10&page=2>; rel="next"`);
});

it('a Link header made again for the same list follows every change of site, path, parameters and page figures', () => {
  const siteA = resolveSite({ url: 'http://a.test' }, undefined);
  const siteB = resolveSite({ url: 'http://b.test' }, undefined);
  const link = (site: typeof siteA, path: string, query: Record<string, unknown>, page: number, totalPages: number, previousUnclamped = false) => {
    const context = { site, path, query, url: (to: string, params?: Record<string, unknown>) => site.apiLink(to, params) } as unknown as RequestContext;
    const figures = { total: totalPages * 10, totalPages, page, ...(previousUnclamped ? { previousUnclamped } : {}) };
    return pagingHeaders(figures, context, 'X-WP').Link;
  };
  const next = (url: string) => `<${url}>; rel="next"`;
  const prev = (url: string) => `<${url}>; rel="prev"`;
  for (let round = 0; round < 2; round++) {
    assert.equal(link(siteA, '/cms/v2/posts', { per_page: '10' }, 1, 3), next('http://a.test/cms-json/cms/v2/posts?per_page=10&page=2'));
  }
  assert.equal(link(siteB, '/cms/v2/posts', { per_page: '10' }, 1, 3), next('http://b.test/cms-json/cms/v2/posts?per_page=10&page=2'));
  assert.equal(link(siteB, '/cms/v2/pages', { per_page: '10' }, 1, 3), next('http://b.test/cms-json/cms/v2/pages?per_page=10&page=2'));
  assert.equal(link(siteB, '/cms/v2/pages', { per_page: '5' }, 1, 3), next('http://b.test/cms-json/cms/v2/pages?per_page=5&page=2'));
  assert.equal(link(siteB, '/cms/v2/pages', { per_page: '5' }, 2, 3),
    `${prev('http://b.test/cms-json/cms/v2/pages?per_page=5&page=1')}, ${next('http://b.test/cms-json/cms/v2/pages?per_page=5&page=3')}`);
  assert.equal(link(siteB, '/cms/v2/pages', { per_page: '5' }, 2, 2), prev('http://b.test/cms-json/cms/v2/pages?per_page=5&page=1'));
  assert.equal(link(siteB, '/cms/v2/pages', { per_page: '5' }, 1, 3), next('http://b.test/cms-json/cms/v2/pages?per_page=5&page=2'));
  assert.equal(link(siteB, '/cms/v2/pages', { per_page: '5', search: 'a b' }, 1, 3), next('http://b.test/cms-json/cms/v2/pages?per_page=5&search=a+b&page=2'));
  assert.equal(link(siteB, '/cms/v2/pages', { search: 'a b', per_page: '5' }, 1, 3), next('http://b.test/cms-json/cms/v2/pages?search=a+b&per_page=5&page=2'));
  assert.equal(link(siteB, '/cms/v2/pages', { search: 'a b', per_page: 5 }, 1, 3), next('http://b.test/cms-json/cms/v2/pages?search=a+b&per_page=5&page=2'));
  assert.equal(link(siteB, '/cms/v2/pages', { page: '2', per_page: '5' }, 2, 3),
    `${prev('http://b.test/cms-json/cms/v2/pages?page=1&per_page=5')}, ${next('http://b.test/cms-json/cms/v2/pages?page=3&per_page=5')}`);
  assert.equal(link(siteB, '/cms/v2/pages', { page: '2', per_page: '5' }, 2, 2), prev('http://b.test/cms-json/cms/v2/pages?page=1&per_page=5'));
  assert.equal(link(siteB, '/cms/v2/pages', { page: '9' }, 9, 5), prev('http://b.test/cms-json/cms/v2/pages?page=5'));
  assert.equal(link(siteB, '/cms/v2/pages', { page: '9' }, 9, 5, true), prev('http://b.test/cms-json/cms/v2/pages?page=8'));
  const tags = ['x'];
  assert.equal(link(siteA, '/cms/v2/posts', { tags }, 1, 2), next('http://a.test/cms-json/cms/v2/posts?tags%5B0%5D=x&page=2'));
  tags[0] = 'y';
  assert.equal(link(siteA, '/cms/v2/posts', { tags }, 1, 2), next('http://a.test/cms-json/cms/v2/posts?tags%5B0%5D=y&page=2'));
});
