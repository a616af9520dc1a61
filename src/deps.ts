import type { CapabilityRules, RoleTable } from './auth/index.js';
import type { Names } from './core/names.js';
import type { SiteSettings } from './core/site.js';
import type { BlobStore } from './ports/blobs.js';
import type { Clock } from './ports/clock.js';
import type { HttpClient } from './ports/http-client.js';
import type { Mailer } from './ports/mailer.js';
import type { StoragePort } from './ports/storage.js';

/**
 * What `createCms` hands to each resource's `register(registry, deps)`: the ports and the site's fixed
 * settings, assembled once and frozen. A resource declares the members it uses as its own narrower interface
 * (`FormsDeps`, ...), which this object satisfies.
 */
export interface CmsDeps {
  readonly storage: StoragePort;
  readonly clock: Clock;
  readonly mailer: Mailer;
  readonly httpClient: HttpClient;
  readonly blobs: BlobStore;
  readonly site: SiteSettings;
  /** The names the interface is served under; resources build links through them. */
  readonly names: Names;
  readonly roles: RoleTable;
  readonly capabilityRules: CapabilityRules;
}
