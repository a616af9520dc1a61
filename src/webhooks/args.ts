/**
 * Arguments of the `webhooks/v1` routes. The same definitions check the in-process API's input, so both accept
 * exactly the same shapes.
 */
import { arg, args, fromPath, type ArgCheck } from '../core/args/define.js';
import { pageArgs } from '../core/paging.js';
import { WEBHOOK_EVENTS } from './events.js';
import { EVERY_EVENT } from './records.js';
import { MAX_URL_LENGTH, targetProblem } from './targets.js';

export const MAX_EVENTS = 50;

/** The URL rule: the outbound rules of the site, save the `host:port` pairs the host allows. */
function urlCheck(allowedPrivate: ReadonlySet<string>): ArgCheck {
  return (value, _context, param) => {
    if (typeof value !== 'string') return null;
    const problem = targetProblem(value, allowedPrivate);
    return problem === null ? null : { code: 'rest_invalid_url', message: `${param}: ${problem}`, data: { param } };
  };
}

/** The body of a subscription create (`creating`) or update. */
export function subscriptionWriteArgs(allowedPrivate: ReadonlySet<string>, creating: boolean) {
  const required = creating ? { required: true } : {};
  return {
    url: arg({ description: 'Where events are sent: an http or https URL.', type: 'string', format: 'uri', maxLength: MAX_URL_LENGTH },
      { ...required, check: urlCheck(allowedPrivate) }),
    events: args.array({ type: 'string', enum: [EVERY_EVENT, ...WEBHOOK_EVENTS] },
      { description: `The events sent; ${EVERY_EVENT} for every event.`, minItems: 1, maxItems: MAX_EVENTS, uniqueItems: true }, required),
    secret: args.string({ description: 'The key deliveries are signed with (write-only; made up when not given).', minLength: 16, maxLength: 200 }),
    active: args.boolean({ description: 'Whether events are sent.', ...(creating ? { default: true } : {}) }),
    description: args.string({ description: 'A note for administrators.', maxLength: 1000, ...(creating ? { default: '' } : {}) }),
  };
}

function idArg() {
  return fromPath(args.integer({ description: 'Unique identifier for the subscription.' }));
}

/** The routes of one subscription. */
export function subscriptionArgs() {
  return { id: idArg() };
}

export function subscriptionUpdateArgs(allowedPrivate: ReadonlySet<string>) {
  return { ...subscriptionArgs(), ...subscriptionWriteArgs(allowedPrivate, false) };
}

/** The routes of one delivery of a subscription. */
export function deliveryArgs() {
  return { id: idArg(), delivery: fromPath(args.integer({ description: 'Unique identifier for the delivery.' })) };
}

export function deliveryListArgs() {
  return {
    id: idArg(),
    ...pageArgs(),
    state: args.string({ description: 'Only deliveries in this state.', enum: ['pending', 'delivered', 'failed'] }),
  };
}
