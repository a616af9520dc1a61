/** `cms/v2/search`: published posts and pages, terms and post formats, found by text. */
import { CMS } from '../core/names.js';
import { defineResource } from '../core/resource.js';
import type { SearchDeps } from './handlers.js';
import { searchRoutes } from './routes.js';

export type { SearchDeps } from './handlers.js';

export const searchResource = defineResource({
  namespace: CMS,
  deps: (shared: SearchDeps) => shared,
  routes: searchRoutes,
});
