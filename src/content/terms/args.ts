import { args, type ArgSpec } from '../../core/args/define.js';
import { sanitizeKey, sanitizeTextField } from '../../format/text.js';
import { sanitizeTitle } from '../../format/slug.js';
import { TAXONOMIES, type TaxonomyName } from '../taxonomy/index.js';

const absoluteInteger = (value: unknown) => Math.abs(Math.trunc(Number(value)));

export function contextArg(): ArgSpec {
  return args.string(
    { description: 'Scope under which the request is made; determines fields present in response.', enum: ['view', 'embed', 'edit'], default: 'view' },
    { transform: sanitizeKey },
  );
}

export function idArg(): ArgSpec {
  return args.integer({ description: 'Unique identifier for the term.' });
}

export function readArgs(): Record<string, ArgSpec> {
  return { id: idArg(), context: contextArg() };
}

export function updateArgs(taxonomy: TaxonomyName): Record<string, ArgSpec> {
  return { id: idArg(), ...writeArgs(taxonomy, false) };
}

export function deleteArgs(): Record<string, ArgSpec> {
  return {
    id: idArg(),
    force: args.boolean({ description: 'Required to be true, as terms do not support trashing.', default: false }),
  };
}

/** The list parameters of a taxonomy's collection route, in the reference's order. */
export function listArgs(taxonomy: TaxonomyName): Record<string, ArgSpec> {
  const hierarchical = TAXONOMIES[taxonomy].hierarchical;
  const list: Record<string, ArgSpec> = {
    context: contextArg(),
    page: args.integer({ description: 'Current page of the collection.', default: 1, minimum: 1 }, { transform: absoluteInteger }),
    per_page: args.integer(
      { description: 'Maximum number of items to be returned in result set.', default: 10, minimum: 1, maximum: 100 },
      { transform: absoluteInteger },
    ),
    search: args.string({ description: 'Limit results to those matching a string.' }, { transform: (value) => sanitizeTextField(value) }),
    exclude: args.array({ type: 'integer' }, { description: 'Ensure result set excludes specific IDs.', default: [] }, { phase: 'sanitize' }),
    include: args.array({ type: 'integer' }, { description: 'Limit result set to specific IDs.', default: [] }, { phase: 'sanitize' }),
  };
  if (!hierarchical) {
    list.offset = args.integer({ description: 'Offset the result set by a specific number of items.' }, { phase: 'sanitize' });
  }
  list.order = args.string({ description: 'Order sort attribute ascending or descending.', default: 'asc', enum: ['asc', 'desc'] }, { phase: 'sanitize' });
  list.orderby = args.string(
    {
      description: 'Sort collection by term attribute.',
      default: 'name',
      enum: ['id', 'include', 'name', 'slug', 'include_slugs', 'term_group', 'description', 'count'],
    },
    { phase: 'sanitize' },
  );
  list.hide_empty = args.boolean({ description: 'Whether to hide terms not assigned to any posts.', default: false }, { phase: 'sanitize' });
  if (hierarchical) {
    list.parent = args.integer({ description: 'Limit result set to terms assigned to a specific parent.' }, { phase: 'sanitize' });
  }
  list.post = args.integer({ description: 'Limit result set to terms assigned to a specific post.', default: null }, { phase: 'sanitize' });
  list.slug = args.array({ type: 'string' }, { description: 'Limit result set to terms with one or more specific slugs.' }, { phase: 'sanitize' });
  return list;
}

/** The writable fields of the item schema as create (`name` required) or update arguments. */
export function writeArgs(taxonomy: TaxonomyName, creating: boolean): Record<string, ArgSpec> {
  const write: Record<string, ArgSpec> = {
    description: args.string({ description: 'HTML description of the term.' }),
    name: args.string({ description: 'HTML title for the term.' }, { required: creating, transform: (value) => sanitizeTextField(value) }),
    slug: args.string(
      { description: 'An alphanumeric identifier for the term unique to its type.' },
      { transform: (value) => sanitizeTitle(String(value)) },
    ),
  };
  if (TAXONOMIES[taxonomy].hierarchical) write.parent = args.integer({ description: 'The parent term ID.' });
  write.meta = args.object({ description: 'Meta fields.', properties: {} });
  return write;
}
