/**
 * Arguments of the routes we add to `mailing/v1` (the sign-up route itself declares none, as the reference).
 * The same definitions check the in-process API's input, so both accept exactly the same shapes.
 */
import { arg, args, fromPath } from '../core/args/define.js';
import type { JsonSchema } from '../core/args/schema.js';
import { pageArgs } from '../core/paging.js';
import { LIST_ID_PATTERN, MESSAGE_KEYS } from './settings.js';

export const MAX_LISTS = 20;

const listId = { type: 'string', pattern: LIST_ID_PATTERN } as const satisfies JsonSchema;
const text = (description: string, maxLength: number) => ({ description, type: 'string', maxLength }) as const satisfies JsonSchema;

const settingsSchema = {
  description: 'The form settings; keys not sent keep their value.',
  type: 'object',
  properties: {
    lists: { description: 'Audience ids the form subscribes to.', type: 'array', items: listId, maxItems: MAX_LISTS },
    double_optin: { description: 'New subscribers confirm by email first.', type: 'boolean' },
    update_existing: { description: 'Update subscribers who are already subscribed.', type: 'boolean' },
    replace_interests: { description: 'On an update, interests not chosen now are turned off.', type: 'boolean' },
    required_fields: text('Comma list of fields that may not be sent empty.', 2000),
    subscriber_tags: text('Comma list of tags added to the subscriber.', 2000),
    remove_subscriber_tags: text('Comma list of tags removed from the subscriber.', 2000),
    redirect: text('Where to go after a successful sign-up.', 2000),
    hide_after_success: { description: 'Hide the form after a successful sign-up.', type: 'boolean' },
    css: { description: 'The stylesheet the form is shown with.', type: ['string', 'boolean'], maxLength: 100 },
    email_typo_check: { description: 'Suggest corrections to mistyped email domains.', type: 'boolean' },
  },
  additionalProperties: false,
} as const satisfies JsonSchema;

const messagesSchema = {
  description: 'Messages shown after a sign-up, by key; an empty text restores the default.',
  type: 'object',
  properties: Object.fromEntries(MESSAGE_KEYS.map((key) => [key, { type: 'string', maxLength: 2000 }])),
  additionalProperties: false,
} as const satisfies JsonSchema;

/** The body of a form create or update. */
export function formWriteArgs() {
  return {
    title: arg(text('The form name.', 500)),
    slug: arg(text('An alphanumeric identifier for the form, unique among forms.', 200)),
    status: args.string({ description: 'Published forms take sign-ups with any form id; drafts only with their own.', enum: ['publish', 'draft'] }),
    content: arg(text('The form markup.', 100_000)),
    settings: arg(settingsSchema),
    messages: arg(messagesSchema),
  };
}

export function formIdArg() {
  return fromPath(args.integer({ description: 'Unique identifier for the form.' }));
}

export function subscriberListArgs() {
  return {
    list: arg({ description: 'The audience id.', ...listId }, { required: true }),
    status: args.string({ description: 'Only subscribers with this status.', enum: ['pending', 'subscribed', 'unsubscribed'] }),
    ...pageArgs(),
  };
}

export function tokenArgs() {
  return { token: args.string({ description: 'The token of the link sent by email.' }, { required: true }) };
}
