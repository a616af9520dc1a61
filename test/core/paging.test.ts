import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { RequestContext } from '../../src/core/context.js';
import { pagingHeaders } from '../../src/core/paging.js';
import { parseQueryString } from '../../src/core/query.js';
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
