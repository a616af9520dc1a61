/** The routes of `cms/v2/types`, `/statuses` and `/taxonomies`, in the reference's order. */
import { allowAnyone, READABLE, type RouteTable } from '../core/registry.js';
import { statusItemArgs, statusListArgs, taxonomyItemArgs, taxonomyListArgs, typeItemArgs, typeListArgs } from './args.js';
import { listStatuses, listTaxonomies, listTypes, readStatus, readTaxonomy, readType } from './handlers.js';
import { canListStatuses, canListTaxonomies, canListTypes, canReadStatus, canReadTaxonomy, type DiscoveryDeps } from './permissions.js';
import { postStatusSchema, postTypeSchema, taxonomyItemSchema } from './schema.js';

export function discoveryRoutes(deps: DiscoveryDeps): RouteTable {
  return [
    { path: '/types', schema: postTypeSchema, cache: true, endpoints: [
      { methods: READABLE, args: typeListArgs(), permission: (c) => canListTypes(c, deps), handler: (c) => listTypes(c, deps) },
    ] },
    { path: '/types/(?P<type>[\\w-]+)', schema: postTypeSchema, cache: true, endpoints: [
      { methods: READABLE, args: typeItemArgs(), permission: allowAnyone, handler: (c) => readType(c, deps) },
    ] },
    { path: '/statuses', schema: postStatusSchema, cache: true, endpoints: [
      { methods: READABLE, args: statusListArgs(), permission: (c) => canListStatuses(c, deps), handler: (c) => listStatuses(c, deps) },
    ] },
    { path: '/statuses/(?P<status>[\\w-]+)', schema: postStatusSchema, cache: true, endpoints: [
      { methods: READABLE, args: statusItemArgs(), permission: (c) => canReadStatus(c, deps), handler: readStatus },
    ] },
    { path: '/taxonomies', schema: taxonomyItemSchema, cache: true, endpoints: [
      { methods: READABLE, args: taxonomyListArgs(), permission: (c) => canListTaxonomies(c, deps), handler: (c) => listTaxonomies(c, deps) },
    ] },
    { path: '/taxonomies/(?P<taxonomy>[\\w-]+)', schema: taxonomyItemSchema, cache: true, endpoints: [
      { methods: READABLE, args: taxonomyItemArgs(), permission: (c) => canReadTaxonomy(c, deps), handler: (c) => readTaxonomy(c, deps) },
    ] },
  ];
}
