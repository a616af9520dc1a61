/**
 * `cms.webhooks`: subscriptions, their delivery log and the delivery loop, in-process. Inputs are the routes'
 * bodies and are checked by the same argument definitions; a bad one throws the route's `CmsError`.
 */
import { checkInput } from '../mailing/forms-service.js';
import { subscriptionWriteArgs } from './args.js';
import type { WebhooksDeps } from './deps.js';
import type { WebhookEvent } from './events.js';
import type { DeliveryState } from './records.js';
import {
  createSubscription, deleteSubscription, listDeliveries, listSubscriptions, readSubscription, redeliver, toSubscription,
  updateSubscription, type WebhookDelivery, type WebhookSubscription,
} from './service.js';

/** The body of `POST /webhooks/v1/subscriptions`. */
export interface WebhookSubscriptionInput {
  url?: string;
  events?: (WebhookEvent | '*')[];
  secret?: string;
  active?: boolean;
  description?: string;
}

export interface WebhooksApi {
  /** Creates a subscription; the answer carries its secret, the one time it is shown. */
  createSubscription(input: WebhookSubscriptionInput): Promise<WebhookSubscription & { secret: string }>;
  listSubscriptions(): Promise<WebhookSubscription[]>;
  getSubscription(id: number): Promise<WebhookSubscription | null>;
  /** Changes the members given; throws 404 for an unknown subscription. */
  updateSubscription(id: number, changes: WebhookSubscriptionInput): Promise<WebhookSubscription>;
  /** Whether a subscription was deleted (its deliveries go with it). */
  deleteSubscription(id: number): Promise<boolean>;
  /** A subscription's deliveries, newest first. */
  listDeliveries(subscription: number, query?: { page?: number; perPage?: number; state?: DeliveryState }): Promise<{ items: WebhookDelivery[]; total: number }>;
  /** Queues the event of a delivery again (same event id and body). */
  redeliver(subscription: number, delivery: number): Promise<WebhookDelivery>;
  /** Starts the delivery loop: call it at boot so deliveries left by a stopped process are sent. */
  start(): void;
  /** Stops the loop, waiting for the attempts under way. */
  stop(): Promise<void>;
  /** Tries what is due now, once, and waits for the attempts (tests, or a host driving delivery itself). */
  runDue(): Promise<number>;
}

export function createWebhooksApi(deps: WebhooksDeps): WebhooksApi {
  const write = (creating: boolean, input: unknown) => checkInput(input, subscriptionWriteArgs(deps.hub.settings.allowedPrivate, creating));
  return {
    createSubscription: async (input) => createSubscription(deps.storage, deps.clock, write(true, input)),
    async listSubscriptions() {
      const all: WebhookSubscription[] = [];
      for (let page = 1; ; page++) {
        const { items, total } = await listSubscriptions(deps.storage, page, 100);
        all.push(...items);
        if (items.length === 0 || all.length >= total) return all;
      }
    },
    async getSubscription(id) {
      try {
        return toSubscription(await readSubscription(deps.storage, id));
      } catch {
        return null;
      }
    },
    updateSubscription: async (id, changes) => updateSubscription(deps.storage, deps.clock, id, write(false, changes)),
    async deleteSubscription(id) {
      try {
        await deleteSubscription(deps.storage, id);
        return true;
      } catch {
        return false;
      }
    },
    listDeliveries: (subscription, query = {}) => listDeliveries(deps.storage, subscription, {
      page: query.page ?? 1, perPage: query.perPage ?? 100, ...(query.state ? { state: query.state } : {}),
    }),
    async redeliver(subscription, delivery) {
      const queued = await redeliver(deps.storage, deps.clock, subscription, delivery, deps.hub.settings.retry.maxAgeMs);
      deps.hub.start();
      return queued;
    },
    start: () => deps.hub.start(),
    stop: () => deps.hub.stop(),
    runDue: () => deps.hub.runDue(),
  };
}
