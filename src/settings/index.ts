/** `cms/v2/settings`: the site settings, stored so that a change applies to every later request. */
import type { CapabilityRules } from '../auth/index.js';
import { CMS } from '../core/names.js';
import { defineResource } from '../core/resource.js';
import type { SiteSettings } from '../core/site.js';
import type { StoragePort } from '../ports/storage.js';
import type { SettingsDeps } from './handlers.js';
import { settingsRoutes } from './routes.js';
import { createSiteSettingsStore } from './store.js';

export { createSiteSettingsStore, SETTINGS_COLLECTION, type SiteSettingsStore, type SettingsStoreOptions } from './store.js';
export type { SettingsDeps } from './handlers.js';

/** The stored settings (`deps.settings`) are also what the dispatcher and the exporter read the site from. */
export const settingsResource = defineResource({
  namespace: CMS,
  deps: (shared: { storage: StoragePort; site: SiteSettings; capabilityRules: CapabilityRules }): SettingsDeps & { capabilityRules: CapabilityRules } =>
    ({ ...shared, settings: createSiteSettingsStore(shared.storage, shared.site) }),
  routes: settingsRoutes,
});
