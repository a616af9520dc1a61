/**
 * Arguments of a post type's routes: the list arguments in the order the route index publishes them, and the
 * create and update arguments derived from the item schema.
 */
import { arg, type ArgCheck, type ArgSpec, type SchemaValue } from '../../core/args/define.js';
import { pageArgs } from '../../core/paging.js';
import type { JsonSchema } from '../../core/args/schema.js';
import { sanitizeKey } from '../../format/text.js';
import { authorizationStatus } from '../../core/errors.js';
import type { Principal } from '../../core/context.js';
import { userCan, type CapabilityRules } from '../../auth/index.js';
import { POST_FORMATS, REGISTERED_STATUSES, type PostTypeDefinition } from './definition.js';
import { capabilitiesOf } from './capabilities.js';
import type { ItemSchema } from './schema.js';
import { sanitizeTitle } from './slug.js';
import { searchArg } from '../../core/search-arg.js';

/** `context`: the response context (`view`, `embed`, `edit`). */
export function contextArg() {
  return arg(
    { description: 'The scope of the request; decides which fields the response carries.', type: 'string', enum: ['view', 'embed', 'edit'], default: 'view' },
    { transform: sanitizeKey },
  );
}

const integerList = (description: string) =>
  arg({ description, type: 'array', items: { type: 'integer' }, default: [] }, { phase: 'sanitize' });

const dateArg = (description: string) =>
  arg({ description, type: 'string', format: 'date-time' }, { phase: 'sanitize' });

function termFilterSchema(description: string, taxonomyIsHierarchical: boolean, withOperator: boolean): JsonSchema {
  const properties: Record<string, JsonSchema> = {
    terms: { description: 'Term ids.', type: 'array', items: { type: 'integer' }, default: [] },
  };
  if (taxonomyIsHierarchical) {
    properties.include_children = { description: 'Whether child terms of the listed terms count too.', type: 'boolean', default: false };
  }
  if (withOperator) {
    properties.operator = { description: 'Whether records need all or any of the terms.', type: 'string', enum: ['AND', 'OR'], default: 'OR' };
  }
  return {
    description,
    type: ['object', 'array'],
    oneOf: [
      { title: 'Term ID List', description: 'Terms with the listed ids.', type: 'array', items: { type: 'integer' } },
      { title: 'Term ID Taxonomy Query', description: 'A term query with options.', type: 'object', properties, additionalProperties: false },
    ],
  };
}

/**
 * `status`: statuses other than `publish` need the type's `edit_posts`, and `private` may also be asked for
 * with `read_private_posts`. A refusal is reported inside the 400 parameter error, as the reference does.
 */
function statusCheck(definition: PostTypeDefinition, rules: CapabilityRules): ArgCheck {
  return (value, context) => {
    const user = context.user as Principal | null;
    const names = capabilitiesOf(definition, rules);
    const statuses = Array.isArray(value) ? value : [value];
    for (const status of statuses) {
      if (status === 'publish') continue;
      if (userCan(user, names.edit_posts, undefined, rules)) continue;
      if (status === 'private' && userCan(user, names.read_private_posts, undefined, rules)) continue;
      return { code: 'rest_forbidden_status', message: 'Status is forbidden.', data: { status: authorizationStatus(user) } };
    }
    return null;
  };
}

export function orderbyValues(definition: PostTypeDefinition): string[] {
  const values = ['author', 'date', 'id', 'include', 'modified', 'parent', 'relevance', 'slug', 'include_slugs', 'title'];
  if (definition.supportsPageAttributes) values.push('menu_order');
  return values;
}

export function collectionArgs(definition: PostTypeDefinition, rules: CapabilityRules) {
  const filters = {
    context: contextArg(),
    ...pageArgs({ page: 'The page of the collection.', perPage: 'The largest number of items in the result.' }),
    search: searchArg('Only items that match this text.'),
    after: dateArg('Only items published after this date (ISO 8601).'),
    modified_after: dateArg('Only items changed after this date (ISO 8601).'),
    author: integerList('Only items by these authors.'),
    author_exclude: integerList('Leave out items by these authors.'),
    before: dateArg('Only items published before this date (ISO 8601).'),
    modified_before: dateArg('Only items changed before this date (ISO 8601).'),
    exclude: integerList('Leave out these ids.'),
    include: integerList('Only these ids.'),
  };
  const params: Record<string, ArgSpec> = { ...filters };
  const menuOrder = arg({ description: 'Only items with this menu order.', type: 'integer' }, { phase: 'sanitize' });
  if (definition.supportsPageAttributes) params.menu_order = menuOrder;
  params.search_semantics = arg({ description: 'How the search text is matched.', type: 'string', enum: ['exact'] }, { phase: 'sanitize' });
  const offset = arg({ description: 'Skip this many items.', type: 'integer' }, { phase: 'sanitize' });
  params.offset = offset;
  const order = arg({ description: 'Ascending or descending order.', type: 'string', default: 'desc', enum: ['asc', 'desc'] }, { phase: 'sanitize' });
  params.order = order;
  const orderby = arg(
    { description: 'The attribute the collection is sorted by.', type: 'string', default: 'date', enum: orderbyValues(definition) },
    { phase: 'sanitize' },
  );
  params.orderby = orderby;
  if (definition.hierarchical) {
    params.parent = integerList('Only items with these parent ids.');
    params.parent_exclude = integerList('Leave out items with these parent ids.');
  }
  params.search_columns = arg(
    { default: [], description: 'The fields the search looks in.', type: 'array', items: { enum: ['post_title', 'post_content', 'post_excerpt'], type: 'string' } },
    { phase: 'sanitize' },
  );
  params.slug = arg({ description: 'Only items with these slugs.', type: 'array', items: { type: 'string' } }, { phase: 'sanitize' });
  params.status = arg(
    { default: 'publish', description: 'Only items with these statuses.', type: 'array', items: { enum: [...REGISTERED_STATUSES, 'any'], type: 'string' } },
    { phase: 'sanitize', check: statusCheck(definition, rules), transform: (value) => [...new Set(value as string[])] },
  );
  if (definition.taxonomies.length > 0) {
    params.tax_relation = arg(
      { description: 'How the term filters of several taxonomies combine.', type: 'string', enum: ['AND', 'OR'] },
      { phase: 'sanitize' },
    );
    for (const taxonomy of definition.taxonomies) {
      params[taxonomy.restBase] = arg(
        termFilterSchema(`Only items with these terms of ${taxonomy.restBase}.`, taxonomy.hierarchical, true),
        { phase: 'sanitize' },
      );
      params[`${taxonomy.restBase}_exclude`] = arg(
        termFilterSchema(`Leave out items with these terms of ${taxonomy.restBase}.`, taxonomy.hierarchical, false),
        { phase: 'sanitize' },
      );
    }
  }
  if (definition.supportsSticky) {
    params.sticky = arg({ description: 'Only sticky items (true) or only other items (false).', type: 'boolean' }, { phase: 'sanitize' });
    params.ignore_sticky = arg({ description: 'Whether sticky items keep their place in the order.', type: 'boolean', default: true }, { phase: 'sanitize' });
  }
  if (definition.supportsFormats) {
    params.format = arg(
      { description: 'Only items with these formats.', type: 'array', uniqueItems: true, items: { enum: [...POST_FORMATS], type: 'string' } },
      { phase: 'sanitize' },
    );
  }
  // The arguments every type's list has, typed; the others depend on the type's taxonomies and supports.
  return params as typeof filters & { offset: typeof offset; order: typeof order; orderby: typeof orderby; menu_order?: typeof menuOrder }
    & Record<string, ArgSpec>;
}

/*
 * Create and update arguments, derived from the item schema as the reference's
 * `get_endpoint_args_for_item_schema` does: writable fields only, each validated against its own schema, with
 * the reference's own callbacks where it has them (slug sanitising; title, content, excerpt and meta checked by
 * the handler instead of the schema).
 */

/** Fields whose raw value goes to the handler unchecked (strings or `{raw}` objects; meta is checked there). */
const UNCHECKED = new Set(['title', 'content', 'excerpt', 'meta']);

/**
 * The checked writable fields a post type's schema may have, each with the type of its schema: what the
 * argument engine leaves for it. A type declares those its schema has, so a handler tests the schema (or the
 * type's supports) before reading one: an undeclared field arrives as sent.
 */
const WRITE_FIELD_TYPES = {
  date: ['string', 'null'],
  date_gmt: ['string', 'null'],
  slug: 'string',
  status: 'string',
  password: 'string',
  parent: 'integer',
  author: 'integer',
  featured_media: 'integer',
  comment_status: 'string',
  ping_status: 'string',
  menu_order: 'integer',
  format: 'string',
  sticky: 'boolean',
  template: 'string',
} as const satisfies Record<string, JsonSchema['type']>;

type WriteFieldArgs = {
  readonly [Name in keyof typeof WRITE_FIELD_TYPES]?: ArgSpec<SchemaValue<{ type: (typeof WRITE_FIELD_TYPES)[Name] }>, false>;
};

/** The write arguments of a post type: the typed fields it may have, the unchecked ones, and its taxonomies' term lists. */
export type ItemArgs = WriteFieldArgs & { readonly [Name in 'title' | 'content' | 'excerpt' | 'meta']?: ArgSpec<unknown, false> };

/**
 * The most UTF-8 bytes a title or slug may hold as sent: the reference keeps titles in a text column of this
 * size; a longer text would be sanitised, made into a slug and rendered on the main thread.
 */
export const MAX_TITLE_BYTES = 65_535;

function utf8Length(text: string): number {
  let bytes = text.length;
  for (let index = 0; index < text.length; index += 1) {
    const unit = text.charCodeAt(index);
    if (unit >= 0x800) bytes += unit >= 0xd800 && unit <= 0xdbff ? 1 : 2;
    else if (unit >= 0x80) bytes += 1;
  }
  return bytes;
}

/** A title (text or `{raw}`) or slug over `MAX_TITLE_BYTES`; a UTF-16 unit takes one to three bytes. */
const shortTextCheck: ArgCheck = (value, _context, param) => {
  const raw = value !== null && typeof value === 'object' ? (value as { raw?: unknown }).raw : value;
  if (typeof raw !== 'string' || raw.length <= MAX_TITLE_BYTES / 3) return null;
  if (raw.length <= MAX_TITLE_BYTES && utf8Length(raw) <= MAX_TITLE_BYTES) return null;
  return { code: 'rest_too_long', message: `${param} must be at most ${MAX_TITLE_BYTES.toLocaleString('en-US')} bytes long.`, data: null };
};

/** A field declared with another type than `WRITE_FIELD_TYPES` gives it is a mistake in the schema's code. */
function checkDeclaredType(name: string, schema: JsonSchema): void {
  if (!Object.hasOwn(WRITE_FIELD_TYPES, name)) return;
  const declared = WRITE_FIELD_TYPES[name as keyof typeof WRITE_FIELD_TYPES];
  if (JSON.stringify(schema.type) !== JSON.stringify(declared)) {
    throw new TypeError(`The write field ${name} is declared as ${JSON.stringify(declared)}, its schema says ${JSON.stringify(schema.type)}.`);
  }
}

export function itemArgs(schema: ItemSchema): ItemArgs {
  const result: Record<string, ArgSpec> = {};
  for (const [name, property] of Object.entries(schema.properties)) {
    if (property.readonly) continue;
    const { context: _context, readonly: _readonly, ...published } = property;
    const argSchema: JsonSchema = published;
    checkDeclaredType(name, argSchema);
    if (UNCHECKED.has(name)) {
      result[name] = arg(argSchema, { phase: 'none', ...(name === 'title' ? { check: shortTextCheck } : {}) });
    } else if (name === 'slug') {
      result[name] = arg(argSchema, { transform: (value) => sanitizeTitle(String(value)), check: shortTextCheck });
    } else {
      result[name] = arg(argSchema);
    }
  }
  // The term lists of the type's taxonomies are not typed: they are read by name.
  return result as ItemArgs;
}
