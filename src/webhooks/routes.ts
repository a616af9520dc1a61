/** The routes of `webhooks/v1`: subscriptions, their delivery log and redelivery, for administrators. */
import { pageArgs } from '../core/paging.js';
import { CREATABLE, DELETABLE, EDITABLE, endpoint, READABLE, type RouteTable } from '../core/registry.js';
import { deliveryArgs, deliveryListArgs, subscriptionArgs, subscriptionUpdateArgs, subscriptionWriteArgs } from './args.js';
import type { WebhooksDeps } from './deps.js';
import {
  createRedelivery, createSubscription, deleteSubscription, listDeliveries, listEvents, listSubscriptions, readDelivery,
  readSubscription, updateSubscription,
} from './handlers.js';
import { canManageWebhooks } from './permissions.js';
import { deliverySchema, subscriptionSchema } from './schema.js';

export function webhookRoutes(deps: WebhooksDeps): RouteTable {
  const allowed = deps.hub.settings.allowedPrivate;
  return [
    { path: '/events', endpoints: [
      endpoint({ methods: READABLE, permission: (c) => canManageWebhooks(c), handler: () => listEvents() }),
    ] },
    { path: '/subscriptions', schema: subscriptionSchema, endpoints: [
      endpoint({ methods: READABLE, args: pageArgs(), permission: (c) => canManageWebhooks(c), handler: (c) => listSubscriptions(c, deps) }),
      endpoint({ methods: CREATABLE, args: subscriptionWriteArgs(allowed, true), permission: (c) => canManageWebhooks(c), handler: (c) => createSubscription(c, deps) }),
    ] },
    { path: '/subscriptions/(?P<id>[\\d]+)', schema: subscriptionSchema, endpoints: [
      endpoint({ methods: READABLE, args: subscriptionArgs(), permission: (c) => canManageWebhooks(c), handler: (c) => readSubscription(c, deps) }),
      endpoint({ methods: EDITABLE, args: subscriptionUpdateArgs(allowed), permission: (c) => canManageWebhooks(c), handler: (c) => updateSubscription(c, deps) }),
      endpoint({ methods: DELETABLE, args: subscriptionArgs(), permission: (c) => canManageWebhooks(c), handler: (c) => deleteSubscription(c, deps) }),
    ] },
    { path: '/subscriptions/(?P<id>[\\d]+)/deliveries', schema: deliverySchema, endpoints: [
      endpoint({ methods: READABLE, args: deliveryListArgs(), permission: (c) => canManageWebhooks(c), handler: (c) => listDeliveries(c, deps) }),
    ] },
    { path: '/subscriptions/(?P<id>[\\d]+)/deliveries/(?P<delivery>[\\d]+)', schema: deliverySchema, endpoints: [
      endpoint({ methods: READABLE, args: deliveryArgs(), permission: (c) => canManageWebhooks(c), handler: (c) => readDelivery(c, deps) }),
    ] },
    { path: '/subscriptions/(?P<id>[\\d]+)/deliveries/(?P<delivery>[\\d]+)/redeliver', schema: deliverySchema, endpoints: [
      endpoint({ methods: CREATABLE, args: deliveryArgs(), permission: (c) => canManageWebhooks(c), handler: (c) => createRedelivery(c, deps) }),
    ] },
  ];
}
