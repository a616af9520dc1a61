/** The route of `cms/v2/search`: anyone may search what is public. */
import { allowAnyone, READABLE, type RouteTable } from '../core/registry.js';
import { searchArgs } from './args.js';
import { searchHandler, type SearchDeps } from './handlers.js';
import { searchResultSchema } from './schema.js';

export function searchRoutes(deps: SearchDeps): RouteTable {
  return [
    { path: '/search', schema: searchResultSchema, cache: { varies: 'caller' }, endpoints: [
      { methods: READABLE, args: searchArgs(), permission: allowAnyone, handler: (c) => searchHandler(c, deps) },
    ] },
  ];
}
