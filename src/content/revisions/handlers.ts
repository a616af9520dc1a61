/** The revision handlers: the list of a post's revisions, one revision, and its removal. */
import type { Params } from '../../core/args/define.js';
import type { RequestContext } from '../../core/context.js';
import { CmsError } from '../../core/errors.js';
import { collection, item, reply } from '../../core/response.js';
import { pageWindow, paging } from '../../core/paging.js';
import { filterByContext } from '../../core/shape.js';
import type { Condition, ListQuery, SortKey } from '../../ports/storage.js';
import {
  checkListOrder, parseSearch, postsIn, relevanceRank, textSearch, type ItemSchema, type PostType,
} from '../post-type/index.js';
import type { revisionDeleteArgs, revisionListArgs } from './args.js';
import { requireParent, requireRevision } from './permissions.js';
import { prepareRevision, revisionPrepareOptions } from './prepare.js';
import { revisionsOf } from './record.js';

type ListParams = Params<typeof revisionListArgs>;

function orderOf(params: ListParams, rank: Condition[] | null): SortKey[] {
  const direction = params.order;
  const { include } = params;
  switch (params.orderby) {
    case 'id': return [{ field: 'id', direction }];
    case 'slug': return [{ field: 'slug', direction }];
    case 'title': return [{ field: 'title', direction }];
    case 'include': return [{ rank: include.map((id) => ({ field: 'id', op: 'eq', value: id })) }];
    case 'relevance': return rank && rank.length > 0 ? [{ rank }, { field: 'date', direction }] : [{ field: 'date', direction }];
    // `include_slugs` has no slug list to follow here, so it falls back to the date like the reference.
    default: return [{ field: 'date', direction }];
  }
}

/**
 * `GET /cms/v2/{posts|pages}/{parent}/revisions`: the revisions of one post, autosaves included. Without
 * `per_page` the list holds every revision on one page and `offset` selects nothing (it is still checked against
 * the total), as the reference's unpaged query does.
 */
export async function listRevisions(context: RequestContext<ListParams>, postType: PostType): Promise<unknown> {
  const parent = await requireParent(context, postType, 'parent');
  const { params } = context;
  checkListOrder(params);

  const where = revisionsOf(parent.id);
  const { include, exclude } = params;
  if (include.length > 0) where.push({ field: 'id', op: 'in', values: [...new Set(include)] });
  if (exclude.length > 0) where.push({ field: 'id', op: 'notIn', values: [...new Set(exclude)] });
  const query: ListQuery = { where, withTotal: true };
  let rank: Condition[] | null = null;
  if (params.search !== undefined && params.search !== '') {
    const parsed = parseSearch(params.search);
    query.search = textSearch(parsed, ['title', 'excerpt', 'content'], false);
    rank = relevanceRank(parsed, false);
  }
  query.orderBy = orderOf(params, rank);

  const window = pageWindow(params, 'revision');
  if (window.perPage !== null) {
    query.offset = window.offset;
    query.limit = window.perPage;
  }

  const result = await postsIn(postType.deps.storage).list(query);
  const total = result.total ?? result.items.length;
  const { offset } = params;
  if (total > 0 && offset !== undefined && offset >= total) {
    throw new CmsError(
      'rest_revision_invalid_offset_number',
      'The offset number requested is larger than or equal to the number of available revisions.',
      400,
    );
  }
  // A page past the end is an error only when no offset chose the records.
  const figures = paging(total, window.page, window.perPage, offset ? {} : { pastTheEnd: 'rest_revision_invalid_page_number' });

  const options = revisionPrepareOptions(context, postType);
  const items = await Promise.all(result.items.map((record) => prepareRevision(record, options)));
  return collection(items, figures);
}

export async function readRevision(context: RequestContext, postType: PostType): Promise<unknown> {
  const parent = await requireParent(context, postType, 'parent');
  const revision = await requireRevision(context, postType, parent);
  return item(await prepareRevision(revision, revisionPrepareOptions(context, postType)));
}

/** Revisions cannot be trashed: only `force=true` removes one, answering with what it was. */
export async function deleteRevision(context: RequestContext<Params<typeof revisionDeleteArgs>>, postType: PostType, schema: ItemSchema): Promise<unknown> {
  const parent = await requireParent(context, postType, 'parent');
  const revision = await requireRevision(context, postType, parent);
  if (context.params.force !== true) {
    throw new CmsError('rest_trash_not_supported', "Revisions do not support trashing. Set 'force=true' to delete.", 501);
  }
  const previous = await prepareRevision(revision, revisionPrepareOptions(context, postType));
  const removed = await postsIn(postType.deps.storage).remove(revision.id);
  if (!removed) throw new CmsError('rest_cannot_delete', 'The post cannot be deleted.', 500);
  return reply({ deleted: true, previous: filterByContext(previous.data, schema, context.context) });
}
