/** The route of `cms/v2/search`: anyone may search what is public. */
import { allowAnyone, endpoint, READABLE, type RouteTable } from '../core/registry.js';
import { searchArgs } from './args.js';
import { listSearchResults, type SearchDeps } from './handlers.js';
import { searchResultSchema } from './schema.js';

export function searchRoutes(deps: SearchDeps): RouteTable {
  return [
    { path: '/search', schema: searchResultSchema, cache: { varies: 'caller' }, endpoints: [
      endpoint({ methods: READABLE, args: searchArgs(), permission: allowAnyone, handler: (c) => listSearchResults(c, deps) }),
    ] },
  ];
}
