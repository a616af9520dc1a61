/** `cms/v2/types`, `/statuses` and `/taxonomies`: what clients learn about the site's post types, statuses and taxonomies. */
import type { Registry } from '../core/registry.js';
import type { DiscoveryDeps } from './permissions.js';
import { discoveryRoutes } from './routes.js';

export type { DiscoveryDeps } from './permissions.js';

export function registerDiscovery(registry: Registry, deps: DiscoveryDeps): void {
  registry.addRoutes('cms/v2', discoveryRoutes(deps));
}
