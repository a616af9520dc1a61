import type { Registry } from '../core/registry.js';
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

/** Registers the `webhooks/v1` routes (the namespace must be declared). */
export function registerWebhooks(registry: Registry, deps: WebhooksDeps): void {
  registry.addRoutes('webhooks/v1', webhookRoutes(deps));
}
