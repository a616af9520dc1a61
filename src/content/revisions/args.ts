/** Arguments of the revision routes, in the order the route index publishes them (the URL ids first). */
import { arg, args } from '../../core/args/define.js';
import { pageArgs } from '../../core/paging.js';
import { contextArg } from '../post-type/index.js';
import { searchArg } from '../../core/search-arg.js';

export const parentArg = (description = 'The id of the post the revision belongs to.') =>
  args.integer({ description }, { phase: 'sanitize' });

export const revisionIdArg = () => args.integer({ description: 'Unique identifier of the revision.' }, { phase: 'sanitize' });

const integerList = (description: string) =>
  arg({ description, type: 'array', items: { type: 'integer' }, default: [] }, { phase: 'sanitize' });

export const REVISION_ORDERBY = ['date', 'id', 'include', 'relevance', 'slug', 'include_slugs', 'title'] as const;

/** `per_page` has no default: without it the list holds every revision. */
export function revisionListArgs() {
  return {
    parent: parentArg(),
    context: contextArg(),
    ...pageArgs({
      page: 'The page of the collection.', perPage: 'The largest number of items in the result; all of them when absent.', perPageDefault: false,
    }),
    search: searchArg('Only revisions that match this text.'),
    exclude: integerList('Leave out these ids.'),
    include: integerList('Only these ids.'),
    offset: arg({ description: 'Skip this many items (with per_page).', type: 'integer' }, { phase: 'sanitize' }),
    order: arg({ description: 'Ascending or descending order.', type: 'string', default: 'desc', enum: ['asc', 'desc'] }, { phase: 'sanitize' }),
    orderby: arg(
      { description: 'The attribute the collection is sorted by.', type: 'string', default: 'date', enum: [...REVISION_ORDERBY] },
      { phase: 'sanitize' },
    ),
  };
}

export function revisionReadArgs() {
  return { parent: parentArg(), id: revisionIdArg(), context: contextArg() };
}

export function revisionDeleteArgs() {
  return {
    parent: parentArg(),
    id: revisionIdArg(),
    force: args.boolean({ description: 'Must be true: revisions cannot be moved to the trash.', default: false }, { phase: 'sanitize' }),
  };
}
