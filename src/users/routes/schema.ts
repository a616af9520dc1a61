import type { JsonSchema } from '../../core/args/schema.js';

/** An item schema as published in a route's help: a JSON schema with its `$schema` and `title`. */
export type ItemSchema = JsonSchema & { $schema: string };

const DRAFT_04 = 'http://json-schema.org/draft-04/schema#';

export const AVATAR_SIZES = [24, 48, 96] as const;

/** Locales a user may pick: the site's ("") or English. */
export const USER_LOCALES = ['', 'en_US'];

/**
 * No user meta keys are registered, so `meta` has no properties; the reference prints that empty list as
 * `[]`, and so do we.
 */
const NO_PROPERTIES = [] as unknown as Record<string, JsonSchema>;

const ALL = ['embed', 'view', 'edit'];
const EDIT = ['edit'];

export function userSchema(): ItemSchema {
  const avatarProperties: Record<string, JsonSchema> = {};
  for (const size of AVATAR_SIZES) {
    avatarProperties[String(size)] = {
      description: `Avatar URL with image size of ${size} pixels.`,
      type: 'string',
      format: 'uri',
      context: ALL,
    };
  }
  return {
    $schema: DRAFT_04,
    title: 'user',
    type: 'object',
    properties: {
      id: { description: 'Unique identifier for the user.', type: 'integer', context: ALL, readonly: true },
      username: { description: 'Login name for the user.', type: 'string', context: EDIT, required: true },
      name: { description: 'Display name for the user.', type: 'string', context: ALL },
      first_name: { description: 'First name for the user.', type: 'string', context: EDIT },
      last_name: { description: 'Last name for the user.', type: 'string', context: EDIT },
      email: { description: 'The email address for the user.', type: 'string', format: 'email', context: EDIT, required: true },
      url: { description: 'URL of the user.', type: 'string', format: 'uri', context: ALL },
      description: { description: 'Description of the user.', type: 'string', context: ALL },
      link: { description: 'Author URL of the user.', type: 'string', format: 'uri', context: ALL, readonly: true },
      locale: { description: 'Locale for the user.', type: 'string', enum: USER_LOCALES, context: EDIT },
      nickname: { description: 'The nickname for the user.', type: 'string', context: EDIT },
      slug: { description: 'An alphanumeric identifier for the user.', type: 'string', context: ALL },
      registered_date: { description: 'Registration date for the user.', type: 'string', format: 'date-time', context: EDIT, readonly: true },
      roles: { description: 'Roles assigned to the user.', type: 'array', items: { type: 'string' }, context: EDIT },
      password: { description: 'Password for the user (never included).', type: 'string', context: [], required: true },
      capabilities: { description: 'All capabilities assigned to the user.', type: 'object', context: EDIT, readonly: true },
      extra_capabilities: { description: 'Any extra capabilities assigned to the user.', type: 'object', context: EDIT, readonly: true },
      avatar_urls: {
        description: 'Avatar URLs for the user.',
        type: 'object',
        context: ALL,
        readonly: true,
        properties: avatarProperties,
      },
      meta: { description: 'Meta fields.', type: 'object', context: ['view', 'edit'], properties: NO_PROPERTIES },
    },
  };
}

export function applicationPasswordSchema(): ItemSchema {
  const viewEditEmbed = ['view', 'edit', 'embed'];
  return {
    $schema: DRAFT_04,
    title: 'application-password',
    type: 'object',
    properties: {
      uuid: {
        description: 'The unique identifier for the application password.',
        type: 'string',
        format: 'uuid',
        context: viewEditEmbed,
        readonly: true,
      },
      app_id: {
        description:
          'A UUID provided by the application to uniquely identify it. It is recommended to use an UUID v5 with the URL or DNS namespace.',
        type: 'string',
        format: 'uuid',
        context: viewEditEmbed,
      },
      name: {
        description: 'The name of the application password.',
        type: 'string',
        required: true,
        context: viewEditEmbed,
        minLength: 1,
        pattern: '.*\\S.*',
      },
      password: {
        description: 'The generated password. Only available after adding an application.',
        type: 'string',
        context: ['edit'],
        readonly: true,
      },
      created: {
        description: 'The GMT date the application password was created.',
        type: 'string',
        format: 'date-time',
        context: ['view', 'edit'],
        readonly: true,
      },
      last_used: {
        description: 'The GMT date the application password was last used.',
        type: ['string', 'null'],
        format: 'date-time',
        context: ['view', 'edit'],
        readonly: true,
      },
      last_ip: {
        description: 'The IP address the application password was last used by.',
        type: ['string', 'null'],
        format: 'ip',
        context: ['view', 'edit'],
        readonly: true,
      },
    },
  };
}
