/** The routes of `webhooks/v1`: subscriptions, their delivery log and redelivery, for administrators. */
import { CREATABLE, DELETABLE, EDITABLE, READABLE, type RouteTable } from '../core/registry.js';
import { deliveryIdArg, deliveryListArgs, idArg, pagingArgs, subscriptionWriteArgs } from './args.js';
import type { WebhooksDeps } from './deps.js';
import {
  createSubscriptionHandler, deleteSubscriptionHandler, listDeliveriesHandler, listEventsHandler, listSubscriptionsHandler,
  readDeliveryHandler, readSubscriptionHandler, redeliverHandler, updateSubscriptionHandler,
} from './handlers.js';
import { canManageWebhooks } from './permissions.js';
import { deliverySchema, subscriptionSchema } from './schema.js';

export function webhookRoutes(deps: WebhooksDeps): RouteTable {
  const allowed = deps.hub.settings.allowedPrivate;
  return [
    { path: '/events', endpoints: [
      { methods: READABLE, permission: (c) => canManageWebhooks(c), handler: () => listEventsHandler() },
    ] },
    { path: '/subscriptions', schema: subscriptionSchema, endpoints: [
      { methods: READABLE, args: pagingArgs(), permission: (c) => canManageWebhooks(c), handler: (c) => listSubscriptionsHandler(c, deps) },
      { methods: CREATABLE, args: subscriptionWriteArgs(allowed, true), permission: (c) => canManageWebhooks(c), handler: (c) => createSubscriptionHandler(c, deps) },
    ] },
    { path: '/subscriptions/(?P<id>[\\d]+)', schema: subscriptionSchema, endpoints: [
      { methods: READABLE, args: { id: idArg() }, permission: (c) => canManageWebhooks(c), handler: (c) => readSubscriptionHandler(c, deps) },
      { methods: EDITABLE, args: { id: idArg(), ...subscriptionWriteArgs(allowed, false) }, permission: (c) => canManageWebhooks(c), handler: (c) => updateSubscriptionHandler(c, deps) },
      { methods: DELETABLE, args: { id: idArg() }, permission: (c) => canManageWebhooks(c), handler: (c) => deleteSubscriptionHandler(c, deps) },
    ] },
    { path: '/subscriptions/(?P<id>[\\d]+)/deliveries', schema: deliverySchema, endpoints: [
      { methods: READABLE, args: deliveryListArgs(), permission: (c) => canManageWebhooks(c), handler: (c) => listDeliveriesHandler(c, deps) },
    ] },
    { path: '/subscriptions/(?P<id>[\\d]+)/deliveries/(?P<delivery>[\\d]+)', schema: deliverySchema, endpoints: [
      { methods: READABLE, args: { id: idArg(), delivery: deliveryIdArg() }, permission: (c) => canManageWebhooks(c), handler: (c) => readDeliveryHandler(c, deps) },
    ] },
    { path: '/subscriptions/(?P<id>[\\d]+)/deliveries/(?P<delivery>[\\d]+)/redeliver', schema: deliverySchema, endpoints: [
      { methods: CREATABLE, args: { id: idArg(), delivery: deliveryIdArg() }, permission: (c) => canManageWebhooks(c), handler: (c) => redeliverHandler(c, deps) },
    ] },
  ];
}
