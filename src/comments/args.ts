/** Arguments of the comment routes, as the reference declares them (they feed validation and the route index). */
import { arg, args, type ArgSpec } from '../core/args/define.js';
import type { JsonSchema } from '../core/args/schema.js';
import { sanitizeKey, sanitizeTextField } from '../format/text.js';
import { pageArgs } from '../core/paging.js';
import { checkAuthorEmail, MAX_SENT_AUTHOR_TEXT_LENGTH } from './fields.js';
import { commentSchema } from './schema.js';
import { contextArg } from '../core/context-arg.js';
import { searchArg } from '../core/search-arg.js';

const asText = (value: unknown) => sanitizeTextField(value);

const idArg = () => args.integer({ description: 'Unique identifier for the comment.' });
const passwordArg = () => args.string({ description: 'The password for the parent post of the comment (if the post is password protected).' }, { phase: 'sanitize' });
const integerList = (description: string, withDefault: boolean) =>
  arg({ description, type: 'array', items: { type: 'integer' }, ...(withDefault ? { default: [] } : {}) }, { phase: 'sanitize' });

/** `GET /comments`, in the reference's order. */
export function listArgs() {
  return {
    context: contextArg(),
    ...pageArgs(),
    search: searchArg('Limit results to those matching a string.'),
    after: args.string({ description: 'Limit response to comments published after a given ISO8601 compliant date.', format: 'date-time' }, { phase: 'sanitize' }),
    author: integerList('Limit result set to comments assigned to specific user IDs. Requires authorization.', false),
    author_exclude: integerList('Ensure result set excludes comments assigned to specific user IDs. Requires authorization.', false),
    author_email: arg(
      {
        default: null, description: 'Limit result set to that from a specific author email. Requires authorization.', format: 'email', type: 'string',
        maxLength: MAX_SENT_AUTHOR_TEXT_LENGTH,
      },
      { phase: 'sanitize' },
    ),
    before: args.string({ description: 'Limit response to comments published before a given ISO8601 compliant date.', format: 'date-time' }, { phase: 'sanitize' }),
    exclude: integerList('Ensure result set excludes specific IDs.', true),
    include: integerList('Limit result set to specific IDs.', true),
    offset: args.integer({ description: 'Offset the result set by a specific number of items.' }, { phase: 'sanitize' }),
    order: args.string({ description: 'Order sort attribute ascending or descending.', default: 'desc', enum: ['asc', 'desc'] }, { phase: 'sanitize' }),
    orderby: args.string(
      { description: 'Sort collection by comment attribute.', default: 'date_gmt', enum: ['date', 'date_gmt', 'id', 'include', 'post', 'parent', 'type'] },
      { phase: 'sanitize' },
    ),
    parent: arg({ default: [], description: 'Limit result set to comments of specific parent IDs.', type: 'array', items: { type: 'integer' } }, { phase: 'sanitize' }),
    parent_exclude: arg({ default: [], description: 'Ensure result set excludes specific parent IDs.', type: 'array', items: { type: 'integer' } }, { phase: 'sanitize' }),
    post: arg({ default: [], description: 'Limit result set to comments assigned to specific post IDs.', type: 'array', items: { type: 'integer' } }, { phase: 'sanitize' }),
    status: arg(
      { default: 'approve', description: 'Limit result set to comments assigned a specific status. Requires authorization.', type: 'string' },
      { transform: sanitizeKey },
    ),
    type: arg(
      { default: 'comment', description: 'Limit result set to comments assigned a specific type. Requires authorization.', type: 'string' },
      { transform: sanitizeKey },
    ),
    password: args.string({ description: 'The password for the post if it is password protected.' }, { phase: 'sanitize' }),
  };
}

export function readArgs() {
  return { id: idArg(), context: contextArg(), password: passwordArg() };
}

export function deleteArgs() {
  return {
    id: idArg(),
    force: args.boolean({ description: 'Whether to bypass Trash and force deletion.', default: false }, { phase: 'sanitize' }),
    password: passwordArg(),
  };
}

/** Fields the schema does not check (an empty email is allowed: it has its own check; content may be a string or `{raw}`). */
const UNCHECKED = new Set(['author_email', 'content', 'meta']);
const TEXT_FIELDS = new Set(['author_name', 'author_user_agent']);
/** The author's texts that are cleaned or checked as sent, bounded first (`MAX_SENT_AUTHOR_TEXT_LENGTH`). */
const BOUNDED_FIELDS = new Set(['author_name', 'author_email', 'author_url', 'author_user_agent', 'author_ip']);

/** The writable fields that hold ids: integers in the schema, so numbers once checked. */
const ID_FIELDS = ['author', 'parent', 'post'] as const;
type IdFieldArgs = { readonly [Name in (typeof ID_FIELDS)[number]]: ArgSpec<number, boolean> };

/** The writable fields of the item schema, as create (with defaults) or update arguments. */
export function writeArgs(creating: boolean): IdFieldArgs {
  const result: Record<string, ArgSpec> = creating ? {} : { id: idArg() };
  for (const [name, property] of Object.entries(commentSchema().properties)) {
    if (property.readonly) continue;
    const { context: _context, readonly: _readonly, default: fallback, ...published } = property;
    const bounded: JsonSchema = BOUNDED_FIELDS.has(name) ? { ...published, maxLength: MAX_SENT_AUTHOR_TEXT_LENGTH } : published;
    const schema: JsonSchema = creating && fallback !== undefined ? { ...bounded, default: fallback } : bounded;
    if (name === 'author_email') result[name] = arg(schema, { phase: 'none', check: checkAuthorEmail });
    else if (UNCHECKED.has(name)) result[name] = arg(schema, { phase: 'none' });
    else if (TEXT_FIELDS.has(name)) result[name] = arg(schema, { transform: asText });
    else if (name === 'status') result[name] = arg(schema, { transform: sanitizeKey });
    else result[name] = arg(schema);
  }
  for (const name of ID_FIELDS) {
    if (result[name]?.schema.type !== 'integer') throw new TypeError(`The comment field ${name} is declared as an integer.`);
  }
  // The other fields are read by name, untyped.
  return result as IdFieldArgs;
}
