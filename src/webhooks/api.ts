/**
 * `cms.webhooks`: subscriptions, their delivery log and the delivery loop, in-process. Inputs are the routes'
 * bodies and are checked by the same argument definitions; a bad one throws the route's `CmsError`.
 */
import { compileArg, type ArgCheckContext, type Params } from '../core/args/define.js';
import { CmsError } from '../core/errors.js';
import { pageOffset } from '../core/paging.js';
import { validateValues } from '../core/params.js';
import { subscriptionWriteArgs } from './args.js';
import type { WebhooksDeps } from './deps.js';
import type { WebhookEvent } from './events.js';
import type { DeliveryState } from './records.js';
import {
  createSubscription, deleteSubscription, listDeliveries, listSubscriptions, readSubscription, redeliver, toSubscription,
  updateSubscription, type SubscriptionInput, type WebhookDelivery, type WebhookSubscription,
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

/** The write routes' own arguments, checked by the core's engine as a JSON body is; throws the routes' `CmsError`s. */
function subscriptionInputChecker(allowedPrivate: ReadonlySet<string>): (creating: boolean, input: unknown) => SubscriptionInput {
  const declared = (creating: boolean) => ({
    args: new Map(Object.entries(subscriptionWriteArgs(allowedPrivate, creating)).map(([name, spec]) => [name, compileArg(name, spec)])),
  });
  const create = declared(true);
  const update = declared(false);
  return (creating, input) => {
    if (input === null || typeof input !== 'object' || Array.isArray(input)) {
      throw new CmsError('rest_invalid_param', 'The input must be an object.', 400);
    }
    const values = input as Readonly<Record<string, unknown>>;
    const context: ArgCheckContext = { user: null, method: creating ? 'POST' : 'PATCH', param: (name) => values[name] };
    // Checked by the engine against `subscriptionWriteArgs`, so the values are what its `Params` says.
    const params = validateValues(values, creating ? create : update, context) as Params<typeof subscriptionWriteArgs>;
    return { params, has: (name) => params[name] !== undefined };
  };
}

export function createWebhooksApi(deps: WebhooksDeps): WebhooksApi {
  const write = subscriptionInputChecker(deps.hub.settings.allowedPrivate);
  return {
    createSubscription: async (input) => createSubscription(deps.storage, deps.clock, write(true, input)),
    async listSubscriptions() {
      const all: WebhookSubscription[] = [];
      for (let page = 1; ; page++) {
        const { items, total } = await listSubscriptions(deps.storage, { offset: pageOffset(page, 100), perPage: 100 });
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
    listDeliveries(subscription, query = {}) {
      const perPage = query.perPage ?? 100;
      return listDeliveries(deps.storage, subscription, { offset: pageOffset(query.page ?? 1, perPage), perPage, state: query.state });
    },
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
