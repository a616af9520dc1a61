/** The routes of `cms/v2/types`, `/statuses`, `/taxonomies` and `/themes`, in the reference's order. */
import { allowAnyone, endpoint, READABLE, type RouteTable } from '../core/registry.js';
import { statusItemArgs, statusListArgs, taxonomyItemArgs, taxonomyListArgs, themeItemArgs, themeListArgs, typeItemArgs, typeListArgs } from './args.js';
import { listStatuses, listTaxonomies, listThemes, listTypes, readStatus, readTaxonomy, readTheme, readType } from './handlers.js';
import {
  canListStatuses, canListTaxonomies, canListThemes, canListTypes, canReadStatus, canReadTaxonomy, canReadTheme, type DiscoveryDeps,
} from './permissions.js';
import { postStatusSchema, postTypeSchema, taxonomyItemSchema } from './schema.js';
import { themeItemSchema } from './themes.js';

export function discoveryRoutes(deps: DiscoveryDeps): RouteTable {
  return [
    { path: '/types', schema: postTypeSchema, cache: { varies: 'capabilities' }, endpoints: [
      { methods: READABLE, args: typeListArgs(), permission: (c) => canListTypes(c, deps), handler: (c) => listTypes(c, deps) },
    ] },
    { path: '/types/(?P<type>[\\w-]+)', schema: postTypeSchema, cache: { varies: 'capabilities' }, endpoints: [
      endpoint({ methods: READABLE, args: typeItemArgs(), permission: allowAnyone, handler: (c) => readType(c, deps) }),
    ] },
    { path: '/statuses', schema: postStatusSchema, cache: { varies: 'capabilities' }, endpoints: [
      { methods: READABLE, args: statusListArgs(), permission: (c) => canListStatuses(c, deps), handler: (c) => listStatuses(c, deps) },
    ] },
    { path: '/statuses/(?P<status>[\\w-]+)', schema: postStatusSchema, cache: { varies: 'capabilities' }, endpoints: [
      { methods: READABLE, args: statusItemArgs(), permission: (c) => canReadStatus(c, deps), handler: readStatus },
    ] },
    { path: '/taxonomies', schema: taxonomyItemSchema, cache: { varies: 'capabilities' }, endpoints: [
      endpoint({ methods: READABLE, args: taxonomyListArgs(), permission: (c) => canListTaxonomies(c, deps), handler: (c) => listTaxonomies(c, deps) }),
    ] },
    { path: '/taxonomies/(?P<taxonomy>[\\w-]+)', schema: taxonomyItemSchema, cache: { varies: 'capabilities' }, endpoints: [
      endpoint({ methods: READABLE, args: taxonomyItemArgs(), permission: (c) => canReadTaxonomy(c, deps), handler: (c) => readTaxonomy(c, deps) }),
    ] },
    // Read-only: the one theme, always active. The stylesheet may name a subfolder, as the reference's may.
    { path: '/themes', schema: themeItemSchema, endpoints: [
      { methods: READABLE, args: themeListArgs(), permission: (c) => canListThemes(c, deps), handler: listThemes },
    ] },
    { path: '/themes/(?P<stylesheet>[^\\/:<>\\*\\?"\\|]+(?:\\/[^\\/:<>\\*\\?"\\|]+)?)', schema: themeItemSchema, endpoints: [
      { methods: READABLE, args: themeItemArgs(), permission: (c) => canReadTheme(c, deps), handler: readTheme },
    ] },
  ];
}
