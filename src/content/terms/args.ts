import { args } from '../../core/args/define.js';
import { pageArgs } from '../../core/paging.js';
import { sanitizeTextField } from '../../format/text.js';
import { sanitizeTitle } from '../../format/slug.js';
import { MAX_TERM_NAME_LENGTH, TAXONOMIES, type TaxonomyName } from '../taxonomy/index.js';
import { contextArg } from '../../core/context-arg.js';
import { searchArg } from '../../core/search-arg.js';

export function idArg() {
  return args.integer({ description: 'Unique identifier for the term.' });
}

export function readArgs() {
  return { id: idArg(), context: contextArg() };
}

export function updateArgs(taxonomy: TaxonomyName) {
  return { id: idArg(), ...writeArgs(taxonomy, false) };
}

export function deleteArgs() {
  return {
    id: idArg(),
    force: args.boolean({ description: 'Required to be true, as terms do not support trashing.', default: false }),
  };
}

/** The list parameters of a taxonomy's collection route, in the reference's order. */
export function listArgs(taxonomy: TaxonomyName) {
  const hierarchical = TAXONOMIES[taxonomy].hierarchical;
  return {
    context: contextArg(),
    ...pageArgs(),
    search: searchArg('Limit results to those matching a string.'),
    exclude: args.array({ type: 'integer' }, { description: 'Ensure result set excludes specific IDs.', default: [] }, { phase: 'sanitize' }),
    include: args.array({ type: 'integer' }, { description: 'Limit result set to specific IDs.', default: [] }, { phase: 'sanitize' }),
    ...(hierarchical ? {} : { offset: args.integer({ description: 'Offset the result set by a specific number of items.' }, { phase: 'sanitize' }) }),
    order: args.string({ description: 'Order sort attribute ascending or descending.', default: 'asc', enum: ['asc', 'desc'] }, { phase: 'sanitize' }),
    orderby: args.string(
      {
        description: 'Sort collection by term attribute.',
        default: 'name',
        enum: ['id', 'include', 'name', 'slug', 'include_slugs', 'term_group', 'description', 'count'],
      },
      { phase: 'sanitize' },
    ),
    hide_empty: args.boolean({ description: 'Whether to hide terms not assigned to any posts.', default: false }, { phase: 'sanitize' }),
    ...(hierarchical ? { parent: args.integer({ description: 'Limit result set to terms assigned to a specific parent.' }, { phase: 'sanitize' }) } : {}),
    post: args.integer({ description: 'Limit result set to terms assigned to a specific post.', default: null }, { phase: 'sanitize' }),
    slug: args.array({ type: 'string' }, { description: 'Limit result set to terms with one or more specific slugs.' }, { phase: 'sanitize' }),
  };
}

/** The writable fields of the item schema as create (`name` required) or update arguments. */
export function writeArgs(taxonomy: TaxonomyName, creating: boolean) {
  return {
    description: args.string({ description: 'HTML description of the term.' }),
    name: args.string({ description: 'HTML title for the term.', maxLength: MAX_TERM_NAME_LENGTH }, { required: creating, transform: (value) => sanitizeTextField(value) }),
    slug: args.string(
      { description: 'An alphanumeric identifier for the term unique to its type.', maxLength: MAX_TERM_NAME_LENGTH },
      { transform: (value) => sanitizeTitle(String(value)) },
    ),
    ...(TAXONOMIES[taxonomy].hierarchical ? { parent: args.integer({ description: 'The parent term ID.' }) } : {}),
    meta: args.object({ description: 'Meta fields.', properties: {} }),
  };
}
