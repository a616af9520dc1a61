import type { Clock } from '../ports/clock.js';
import type { StoragePort } from '../ports/storage.js';
import type { WebhookService } from '../services/webhooks.js';

/** What the webhooks routes and API use. */
export interface WebhooksDeps {
  readonly storage: StoragePort;
  readonly clock: Clock;
  readonly hub: WebhookService;
}
