import type { CapabilityRules, RoleTable, SiteSecret, Throttles } from './auth/index.js';
import type { Names } from './core/names.js';
import type { SiteSettings } from './core/site.js';
import type { BlobStore } from './ports/blobs.js';
import type { Clock } from './ports/clock.js';
import type { HttpClient } from './ports/http-client.js';
import type { Mailer } from './ports/mailer.js';
import type { StoragePort } from './ports/storage.js';
import type { PostEventHub, ResolvedPostSettings } from './services/posts.js';
import type { UploadsSettings } from './services/uploads.js';
import type { UserPostsHandler } from './services/user-posts.js';
import type { WebhookService } from './services/webhooks.js';

/**
 * What `createCms` hands to each resource's declaration: the ports, the site's fixed settings and the typed
 * services resources share, assembled once (before any resource registers) and frozen. A resource declares the
 * members it uses as its own narrower interface (`FormsDeps`, `MediaDeps`, ...), which this object satisfies.
 * The services' types live below the resources (src/services/), so this file imports no resource.
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
  /** Saves and deletes of post-type records, as typed subscriptions (`onPostSaved`, `onPostDeleted`). */
  readonly postEvents: PostEventHub;
  /** Permalink structure, templates by post type, trash (from `createCms({ posts })`, defaults filled in). */
  readonly postSettings: ResolvedPostSettings;
  /** The site secret; each keyed token takes `secret.key(purpose)` (ready before any request is handled). */
  readonly secret: SiteSecret;
  /** The key autosave preview links are signed with: `posts.previewSecret`, or one derived from the site secret. */
  readonly previewKey: () => string | Buffer;
  /**
   * Uploads: base URL, size limit and types. The object `createCms` makes is media's resolved settings
   * (`UploadsConfig`, adding the image sizes, formats and worker pool), and the media resource is given it as such.
   */
  readonly uploads: UploadsSettings;
  /** What becomes of a deleted user's posts (posts and pages go to the trash). */
  readonly userPosts: UserPostsHandler;
  /** Failed-login, comment, sign-up and feedback throttles (from `createCms({ throttle })`), shared by every route. */
  readonly throttles: Throttles;
  /** Most application passwords one user may hold. */
  readonly maxApplicationPasswords: number;
  /** Webhook subscriptions' outbox and delivery loop (the store above is already wrapped by its outbox). */
  readonly webhooks: WebhookService;
}
