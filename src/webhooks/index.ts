import { WEBHOOKS } from '../core/names.js';
import { defineResource } from '../core/resource.js';
import type { WebhookService } from '../services/webhooks.js';
import { createWebhooksApi, type WebhooksApi } from './api.js';
import type { WebhooksDeps } from './deps.js';
import { webhookRoutes } from './routes.js';

export { createWebhooksApi, type WebhooksApi, type WebhookSubscriptionInput } from './api.js';
export type { WebhooksDeps } from './deps.js';
export { WEBHOOK_EVENTS, type WebhookEvent, type EventSubject } from './events.js';
export { WebhookHub, type WebhookOptions } from './hub.js';
export type { Timers } from './loop.js';
export type { RetryPolicy } from './attempt.js';
export type { WebhookDelivery, WebhookSubscription } from './service.js';
export { signatureHeader, SIGNATURE_HEADER } from './signature.js';

export const webhooksResource = defineResource({
  namespace: WEBHOOKS,
  deps: (shared: Pick<WebhooksDeps, 'storage' | 'clock'> & { webhooks: WebhookService }): WebhooksDeps =>
    Object.freeze({ storage: shared.storage, clock: shared.clock, hub: shared.webhooks }),
  routes: (deps) => webhookRoutes(deps),
  /** Webhook subscriptions, their delivery log and the delivery loop, in-process. */
  api: { name: 'webhooks', create: (deps): WebhooksApi => createWebhooksApi(deps) },
});
