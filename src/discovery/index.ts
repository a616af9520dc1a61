/** `cms/v2/types`, `/statuses` and `/taxonomies`: what clients learn about the site's post types, statuses and taxonomies. */
import { CMS } from '../core/names.js';
import { defineResource } from '../core/resource.js';
import type { DiscoveryDeps } from './permissions.js';
import { discoveryRoutes } from './routes.js';

export type { DiscoveryDeps } from './permissions.js';

export const discoveryResource = defineResource({
  namespace: CMS,
  deps: (shared: DiscoveryDeps) => shared,
  routes: discoveryRoutes,
});
