/** `cms/v2/settings`: the site settings, stored so that a change applies to every later request. */
import type { CapabilityRules } from '../auth/index.js';
import type { Registry } from '../core/registry.js';
import type { SettingsDeps } from './handlers.js';
import { settingsRoutes } from './routes.js';

export { createSiteSettingsStore, SETTINGS_COLLECTION, type SiteSettingsStore, type SettingsStoreOptions } from './store.js';
export type { SettingsDeps } from './handlers.js';

export function registerSettings(registry: Registry, deps: SettingsDeps & { capabilityRules: CapabilityRules }): void {
  registry.addRoutes('cms/v2', settingsRoutes(deps));
}
