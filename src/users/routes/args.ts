import { arg, fromPath, type ArgCheck } from '../../core/args/define.js';
import { pageArgs } from '../../core/paging.js';
import { sanitizeTextField } from '../../format/text.js';
import {
  isValidLogin, MAX_APPLICATION_NAME_LENGTH, MAX_DESCRIPTION_LENGTH, MAX_NAME_LENGTH, MAX_SENT_URL_OR_SLUG_LENGTH, userSlug,
} from '../fields.js';
import { USER_LOCALES } from './schema.js';
import { contextArg } from '../../core/context-arg.js';
import { searchArg } from '../../core/search-arg.js';

/**
 * The arguments of the users and application-password routes, declared with the reference's keywords in its
 * order (the route index shows them as they are written here).
 */

const asText = (value: unknown) => sanitizeTextField(value);

export function userIdArg() {
  return fromPath(arg({ description: 'Unique identifier for the user.', type: 'integer' }, { phase: 'sanitize' }));
}

export function userCollectionArgs(postTypes: readonly string[]) {
  const integerList = { type: 'integer' } as const;
  const stringList = { type: 'string' } as const;
  return {
    context: contextArg(),
    ...pageArgs(),
    search: searchArg('Limit results to those matching a string.'),
    exclude: arg({ description: 'Ensure result set excludes specific IDs.', type: 'array', items: integerList, default: [] }, { phase: 'sanitize' }),
    include: arg({ description: 'Limit result set to specific IDs.', type: 'array', items: integerList, default: [] }, { phase: 'sanitize' }),
    offset: arg({ description: 'Offset the result set by a specific number of items.', type: 'integer' }, { phase: 'sanitize' }),
    order: arg(
      { default: 'asc', description: 'Order sort attribute ascending or descending.', enum: ['asc', 'desc'], type: 'string' },
      { phase: 'sanitize' },
    ),
    orderby: arg(
      {
        default: 'name',
        description: 'Sort collection by user attribute.',
        enum: ['id', 'include', 'name', 'registered_date', 'slug', 'include_slugs', 'email', 'url'],
        type: 'string',
      },
      { phase: 'sanitize' },
    ),
    slug: arg({ description: 'Limit result set to users with one or more specific slugs.', type: 'array', items: stringList }, { phase: 'sanitize' }),
    roles: arg(
      {
        description: 'Limit result set to users matching at least one specific role provided. Accepts csv list or single role.',
        type: 'array',
        items: stringList,
      },
      { phase: 'sanitize' },
    ),
    capabilities: arg(
      {
        description: 'Limit result set to users matching at least one specific capability provided. Accepts csv list or single capability.',
        type: 'array',
        items: stringList,
      },
      { phase: 'sanitize' },
    ),
    who: arg({ description: 'Limit result set to users who are considered authors.', type: 'string', enum: ['authors'] }, { phase: 'sanitize' }),
    has_published_posts: arg(
      {
        description: 'Limit result set to users who have published posts.',
        type: ['boolean', 'array'],
        items: { type: 'string', enum: [...postTypes] },
      },
      { phase: 'sanitize' },
    ),
  };
}

const checkUsername: ArgCheck = (value) =>
  isValidLogin(String(value))
    ? null
    : {
        code: 'rest_user_invalid_username',
        message: 'This username is invalid because it uses illegal characters. Please enter a valid username.',
        data: { status: 400 },
      };

const checkPassword: ArgCheck = (value) => {
  const password = String(value);
  if (password === '') return { code: 'rest_user_invalid_password', message: 'Passwords cannot be empty.', data: { status: 400 } };
  if (password.includes('\\')) {
    return { code: 'rest_user_invalid_password', message: 'Passwords cannot contain the "\\" character.', data: { status: 400 } };
  }
  return null;
};

/** The writable fields of a user, as arguments; `creating` makes username, email and password required. */
export function userWriteArgs(creating: boolean) {
  const required = creating ? { required: true as const } : {};
  return {
    username: arg({ description: 'Login name for the user.', type: 'string' }, { ...required, check: checkUsername }),
    name: arg({ description: 'Display name for the user.', type: 'string', maxLength: MAX_NAME_LENGTH }, { transform: asText }),
    first_name: arg({ description: 'First name for the user.', type: 'string', maxLength: MAX_NAME_LENGTH }, { transform: asText }),
    last_name: arg({ description: 'Last name for the user.', type: 'string', maxLength: MAX_NAME_LENGTH }, { transform: asText }),
    email: arg({ description: 'The email address for the user.', type: 'string', format: 'email' }, required),
    url: arg({ description: 'URL of the user.', type: 'string', format: 'uri', maxLength: MAX_SENT_URL_OR_SLUG_LENGTH }),
    description: arg({ description: 'Description of the user.', type: 'string', maxLength: MAX_DESCRIPTION_LENGTH }),
    locale: arg({ description: 'Locale for the user.', type: 'string', enum: USER_LOCALES }),
    nickname: arg({ description: 'The nickname for the user.', type: 'string', maxLength: MAX_NAME_LENGTH }, { transform: asText }),
    slug: arg({ description: 'An alphanumeric identifier for the user.', type: 'string', maxLength: MAX_SENT_URL_OR_SLUG_LENGTH }, { transform: (value) => userSlug(String(value)) }),
    roles: arg({ description: 'Roles assigned to the user.', type: 'array', items: { type: 'string' } }),
    password: arg({ description: 'Password for the user (never included).', type: 'string' }, { ...required, check: checkPassword }),
    meta: arg({ description: 'Meta fields.', type: 'object', properties: [] as never }),
  };
}

export function userDeleteArgs() {
  return {
    force: arg({ type: 'boolean', default: false, description: 'Required to be true, as users do not support trashing.' }, { phase: 'sanitize' }),
    // Read by the delete checks themselves: the reference accepts an id, `false` or "" here.
    reassign: arg(
      { type: 'integer', description: "Reassign the deleted user's posts and links to this user ID." },
      { required: true, phase: 'none' },
    ),
  };
}

export function applicationPasswordWriteArgs(creating: boolean) {
  return {
    app_id: arg({
      description:
        'A UUID provided by the application to uniquely identify it. It is recommended to use an UUID v5 with the URL or DNS namespace.',
      type: 'string',
      format: 'uuid',
    }),
    name: arg(
      { description: 'The name of the application password.', type: 'string', minLength: 1, maxLength: MAX_APPLICATION_NAME_LENGTH, pattern: '.*\\S.*' },
      creating ? { required: true as const } : {},
    ),
  };
}
