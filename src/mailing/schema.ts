/** Item schemas of the records our `mailing/v1` routes answer with (published in the index's help context). */
import type { JsonSchema } from '../core/args/schema.js';
import { MESSAGE_KEYS, SETTING_KEYS } from './settings.js';

const all = ['view', 'edit'];
const date = (description: string): JsonSchema => ({ description, type: 'string', format: 'date-time', context: all, readonly: true });

export function signupFormSchema(): JsonSchema {
  return {
    title: 'mailing-signup-form',
    type: 'object',
    properties: {
      id: { description: 'Unique identifier for the form.', type: 'integer', context: all, readonly: true },
      title: { description: 'The form name.', type: 'string', context: all },
      slug: { description: 'An alphanumeric identifier for the form, unique among forms.', type: 'string', context: all },
      status: { description: 'Whether the form takes sign-ups without naming it.', type: 'string', enum: ['publish', 'draft'], context: all },
      content: { description: 'The form markup.', type: 'string', context: all },
      settings: {
        description: 'The form settings.',
        type: 'object',
        context: all,
        properties: Object.fromEntries(SETTING_KEYS.map((key) => [key, { context: all }])),
      },
      messages: {
        description: 'Messages shown after a sign-up, by key.',
        type: 'object',
        context: all,
        properties: Object.fromEntries(MESSAGE_KEYS.map((key) => [key, { type: 'string', context: all }])),
      },
      date: date('When the form was created, in the site\'s timezone.'),
      date_gmt: date('When the form was created, as GMT.'),
      modified: date('When the form was last changed, in the site\'s timezone.'),
      modified_gmt: date('When the form was last changed, as GMT.'),
    },
  };
}

export function subscriberSchema(): JsonSchema {
  const field = (description: string, type: JsonSchema['type']): JsonSchema => ({ description, type, context: all, readonly: true });
  return {
    title: 'mailing-subscriber',
    type: 'object',
    properties: {
      id: field('Unique identifier for the subscriber.', 'integer'),
      list: field('The audience id.', 'string'),
      email: field('The email address, lower-cased.', 'string'),
      status: { ...field('Where the subscription stands.', 'string'), enum: ['pending', 'subscribed', 'unsubscribed'] },
      merge_fields: field('Merge tags and their values.', 'object'),
      interests: field('Interest ids and whether each is chosen.', 'object'),
      tags: field('Tags on the subscriber.', 'array'),
      email_type: { ...field('The format of messages the subscriber gets.', 'string'), enum: ['html', 'text'] },
      ip_signup: field('The address the sign-up came from.', ['string', 'null']),
      language: field('The subscriber\'s language.', ['string', 'null']),
      form_id: field('The sign-up form used.', ['integer', 'null']),
      created: field('When the subscriber signed up, as GMT.', 'string'),
      modified: field('When the subscriber last changed, as GMT.', 'string'),
      confirmed: field('When the subscription was confirmed, as GMT.', ['string', 'null']),
    },
  };
}
