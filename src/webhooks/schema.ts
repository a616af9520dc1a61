/** Item schemas of the `webhooks/v1` records (published in the index's help context). */
import type { JsonSchema } from '../core/args/schema.js';
import { WEBHOOK_EVENTS } from './events.js';
import { EVERY_EVENT } from './records.js';

const all = ['view', 'edit'];
const field = (description: string, type: JsonSchema['type'], extra: JsonSchema = {}): JsonSchema => ({ description, type, context: all, readonly: true, ...extra });

export function subscriptionSchema(): JsonSchema {
  return {
    title: 'webhook-subscription',
    type: 'object',
    properties: {
      id: field('Unique identifier for the subscription.', 'integer'),
      url: { description: 'Where events are sent.', type: 'string', format: 'uri', context: all },
      events: { description: 'The events sent.', type: 'array', items: { type: 'string', enum: [EVERY_EVENT, ...WEBHOOK_EVENTS] }, context: all },
      active: { description: 'Whether events are sent.', type: 'boolean', context: all },
      description: { description: 'A note for administrators.', type: 'string', context: all },
      secret: { description: 'The signing key: in the answer to the create only.', type: 'string', context: all },
      created: field('When the subscription was made, as GMT.', 'string', { format: 'date-time' }),
      modified: field('When the subscription last changed, as GMT.', 'string', { format: 'date-time' }),
    },
  };
}

export function deliverySchema(): JsonSchema {
  return {
    title: 'webhook-delivery',
    type: 'object',
    properties: {
      id: field('Unique identifier for the delivery.', 'integer'),
      subscription: field('The subscription.', 'integer'),
      event_id: field('The event id, sent as the idempotency key.', 'string'),
      event: field('The event name.', 'string'),
      resource: field('What the event is about.', 'object'),
      state: field('Where the delivery stands.', 'string', { enum: ['pending', 'delivered', 'failed'] }),
      attempts: field('Attempts made.', 'integer'),
      occurred: field('When the change happened, as GMT.', 'string', { format: 'date-time' }),
      next_attempt: field('When the next attempt is due, as GMT; null once finished.', ['string', 'null']),
      finished: field('When it was delivered or given up, as GMT.', ['string', 'null']),
      response_status: field('The HTTP status of the last answer.', ['integer', 'null']),
      last_error: field('Why the last attempt failed.', ['string', 'null']),
    },
  };
}
