/** `GET /cms/v2/{posts|pages}`: the filtered, ordered, paged collection. */
import type { RequestContext } from '../../core/context.js';
import { CmsError } from '../../core/errors.js';
import { collection, paging } from '../../core/response.js';
import type { StoragePort } from '../../ports/storage.js';
import { onlyVisible } from './permissions.js';
import { preparePost } from './prepare.js';
import { buildListPlan, type ListPlan } from './query.js';
import { POSTS_COLLECTION, type PostRecord } from './record.js';
import { scopeOf, type PostType } from './scope.js';
import { listVisibility } from './visibility.js';

const isEmpty = (value: unknown) => value === undefined || value === null || value === '' || value === '0'
  || (Array.isArray(value) && value.length === 0);

/**
 * Sticky posts first: those on the page move to the front in page order, then the other published sticky
 * posts of the type follow, newest first (whatever the other filters say, as in the reference).
 */
async function withStickyFirst(records: PostRecord[], plan: ListPlan, type: string, storage: StoragePort): Promise<PostRecord[]> {
  const onPage = records.filter((record) => record.sticky === true);
  const others = records.filter((record) => record.sticky !== true);
  const skip = [...records.map((record) => record.id), ...plan.excludedIds];
  const { items } = await storage.list(POSTS_COLLECTION, {
    where: [
      { field: 'type', op: 'eq', value: type },
      { field: 'status', op: 'eq', value: 'publish' },
      { field: 'sticky', op: 'eq', value: true },
      { field: 'id', op: 'notIn', values: skip },
    ],
    orderBy: [{ field: 'date', direction: 'desc' }],
  });
  return [...onPage, ...(items as PostRecord[]), ...others];
}

export async function listPosts(context: RequestContext, postType: PostType): Promise<unknown> {
  const { params } = context;
  if (params.orderby === 'relevance' && isEmpty(params.search)) {
    throw new CmsError('rest_no_search_term_defined', 'You need to define a search term to order by relevance.', 400);
  }
  if (params.orderby === 'include' && isEmpty(params.include)) {
    throw new CmsError('rest_orderby_include_missing_include', 'You need to define an include parameter to order by include.', 400);
  }
  const scope = scopeOf(context, postType);
  const { definition } = postType;
  const plan = await buildListPlan(definition, params, {
    storage: scope.storage, site: context.site, user: context.user, visibility: listVisibility(context, scope),
  });
  const result = await scope.storage.list(POSTS_COLLECTION, plan.query);
  let records = result.items as PostRecord[];
  const total = result.total ?? records.length;

  const pages = paging(total, plan.page, plan.perPage);
  if (plan.page > pages.totalPages && total > 0) {
    throw new CmsError('rest_post_invalid_page_number', 'The page number requested is larger than the number of pages available.', 400);
  }
  if (plan.stickyFirst) records = await withStickyFirst(records, plan, definition.type, scope.storage);

  const visible = await onlyVisible(records, scope, context);
  const options = scope.prepareOptions(context.context);
  const items = await Promise.all(visible.map((record) => preparePost(record, options)));
  return collection(items, pages);
}

