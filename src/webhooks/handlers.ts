/** Handlers of the `webhooks/v1` routes: subscriptions, their delivery log and redelivery. */
import type { Params } from '../core/args/define.js';
import type { Item, RequestContext } from '../core/context.js';
import { collection, created, item, reply } from '../core/response.js';
import { pageArgs, pageWindow, paging } from '../core/paging.js';
import type { deliveryArgs, deliveryListArgs, subscriptionArgs, subscriptionUpdateArgs, subscriptionWriteArgs } from './args.js';
import { WEBHOOK_EVENTS } from './events.js';
import {
  createSubscription as insertSubscription, deleteSubscription as removeSubscription, listDeliveries as loadDeliveries,
  listSubscriptions as loadSubscriptions, readDelivery as loadDelivery, readSubscription as loadSubscription, redeliver,
  toDelivery, toSubscription, updateSubscription as saveSubscription, type WebhookDelivery, type WebhookSubscription,
} from './service.js';
import type { WebhooksDeps } from './deps.js';

const base = '/webhooks/v1/subscriptions';

function subscriptionItem(context: RequestContext, subscription: WebhookSubscription): Item {
  return {
    data: { ...subscription },
    links: {
      self: [{ href: context.url(`${base}/${subscription.id}`) }],
      collection: [{ href: context.url(base) }],
      deliveries: [{ href: context.url(`${base}/${subscription.id}/deliveries`) }],
    },
  };
}

function deliveryItem(context: RequestContext, delivery: WebhookDelivery): Item {
  const self = `${base}/${delivery.subscription}/deliveries/${delivery.id}`;
  return {
    data: { ...delivery },
    links: {
      self: [{ href: context.url(self) }],
      up: [{ href: context.url(`${base}/${delivery.subscription}`) }],
      redeliver: [{ href: context.url(`${self}/redeliver`) }],
    },
  };
}

export function listEvents() {
  return reply([...WEBHOOK_EVENTS]);
}

export async function listSubscriptions(context: RequestContext<Params<typeof pageArgs>>, deps: WebhooksDeps) {
  const window = pageWindow(context.params, 'page');
  const { items, total } = await loadSubscriptions(deps.storage, window);
  return collection(items.map((subscription) => subscriptionItem(context, subscription)), paging(total, window.page, window.perPage));
}

export async function createSubscription(context: RequestContext<Params<typeof subscriptionWriteArgs>>, deps: WebhooksDeps) {
  const subscription = await insertSubscription(deps.storage, deps.clock, context);
  return created(subscriptionItem(context, subscription), context.url(`${base}/${subscription.id}`));
}

export async function readSubscription(context: RequestContext<Params<typeof subscriptionArgs>>, deps: WebhooksDeps) {
  return item(subscriptionItem(context, toSubscription(await loadSubscription(deps.storage, context.params.id))));
}

export async function updateSubscription(context: RequestContext<Params<typeof subscriptionUpdateArgs>>, deps: WebhooksDeps) {
  return item(subscriptionItem(context, await saveSubscription(deps.storage, deps.clock, context.params.id, context)));
}

export async function deleteSubscription(context: RequestContext<Params<typeof subscriptionArgs>>, deps: WebhooksDeps) {
  const previous = await removeSubscription(deps.storage, context.params.id);
  return reply({ deleted: true, previous: { ...previous } });
}

export async function listDeliveries(context: RequestContext<Params<typeof deliveryListArgs>>, deps: WebhooksDeps) {
  const { params } = context;
  await loadSubscription(deps.storage, params.id);
  const window = pageWindow(params, 'page');
  const { items, total } = await loadDeliveries(deps.storage, params.id, { ...window, state: params.state });
  return collection(items.map((delivery) => deliveryItem(context, delivery)), paging(total, window.page, window.perPage));
}

export async function readDelivery(context: RequestContext<Params<typeof deliveryArgs>>, deps: WebhooksDeps) {
  const { id, delivery } = context.params;
  await loadSubscription(deps.storage, id);
  return item(deliveryItem(context, toDelivery(await loadDelivery(deps.storage, id, delivery))));
}

export async function createRedelivery(context: RequestContext<Params<typeof deliveryArgs>>, deps: WebhooksDeps) {
  const { id, delivery } = context.params;
  const queued = await redeliver(deps.storage, deps.clock, id, delivery, deps.hub.settings.retry.maxAgeMs);
  deps.hub.start();
  return created(deliveryItem(context, queued), context.url(`${base}/${queued.subscription}/deliveries/${queued.id}`));
}
