/** `cms/v2/search`: published posts and pages, terms and post formats, found by text. */
import type { Registry } from '../core/registry.js';
import type { SearchDeps } from './handlers.js';
import { searchRoutes } from './routes.js';

export type { SearchDeps } from './handlers.js';

export function registerSearch(registry: Registry, deps: SearchDeps): void {
  registry.addRoutes('cms/v2', searchRoutes(deps));
}
