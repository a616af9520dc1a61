/** Handlers of the `webhooks/v1` routes: subscriptions, their delivery log and redelivery. */
import type { Item, RequestContext } from '../core/context.js';
import { collection, created, item, reply } from '../core/response.js';
import { paging } from '../core/paging.js';
import { WEBHOOK_EVENTS } from './events.js';
import type { DeliveryState } from './records.js';
import {
  createSubscription, deleteSubscription, listDeliveries, listSubscriptions, readDelivery, readSubscription, redeliver,
  toDelivery, toSubscription, updateSubscription, type WebhookDelivery, type WebhookSubscription,
} from './service.js';
import type { WebhooksDeps } from './deps.js';

const base = '/webhooks/v1/subscriptions';
const idOf = (context: RequestContext) => Number(context.params.id);

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

export function listEventsHandler() {
  return reply([...WEBHOOK_EVENTS]);
}

export async function listSubscriptionsHandler(context: RequestContext, deps: WebhooksDeps) {
  const page = Number(context.params.page);
  const perPage = Number(context.params.per_page);
  const { items, total } = await listSubscriptions(deps.storage, page, perPage);
  return collection(items.map((subscription) => subscriptionItem(context, subscription)), paging(total, page, perPage));
}

export async function createSubscriptionHandler(context: RequestContext, deps: WebhooksDeps) {
  const subscription = await createSubscription(deps.storage, deps.clock, context);
  return created(subscriptionItem(context, subscription), context.url(`${base}/${subscription.id}`));
}

export async function readSubscriptionHandler(context: RequestContext, deps: WebhooksDeps) {
  return item(subscriptionItem(context, toSubscription(await readSubscription(deps.storage, idOf(context)))));
}

export async function updateSubscriptionHandler(context: RequestContext, deps: WebhooksDeps) {
  return item(subscriptionItem(context, await updateSubscription(deps.storage, deps.clock, idOf(context), context)));
}

export async function deleteSubscriptionHandler(context: RequestContext, deps: WebhooksDeps) {
  const previous = await deleteSubscription(deps.storage, idOf(context));
  return reply({ deleted: true, previous: { ...previous } });
}

export async function listDeliveriesHandler(context: RequestContext, deps: WebhooksDeps) {
  const subscription = idOf(context);
  await readSubscription(deps.storage, subscription);
  const page = Number(context.params.page);
  const perPage = Number(context.params.per_page);
  const state = typeof context.params.state === 'string' ? context.params.state as DeliveryState : undefined;
  const { items, total } = await listDeliveries(deps.storage, subscription, { page, perPage, ...(state ? { state } : {}) });
  return collection(items.map((delivery) => deliveryItem(context, delivery)), paging(total, page, perPage));
}

export async function readDeliveryHandler(context: RequestContext, deps: WebhooksDeps) {
  await readSubscription(deps.storage, idOf(context));
  return item(deliveryItem(context, toDelivery(await readDelivery(deps.storage, idOf(context), Number(context.params.delivery)))));
}

export async function redeliverHandler(context: RequestContext, deps: WebhooksDeps) {
  const delivery = await redeliver(deps.storage, deps.clock, idOf(context), Number(context.params.delivery), deps.hub.settings.retry.maxAgeMs);
  deps.hub.start();
  return created(deliveryItem(context, delivery), context.url(`${base}/${delivery.subscription}/deliveries/${delivery.id}`));
}
