/** The list parameters of `GET /comments` → one storage query, readable comments only. */
import { filterDateToLocal } from '../content/post-type/index.js';
import type { Site } from '../core/site.js';
import type { Condition, ListQuery, SortKey } from '../ports/storage.js';
import { canModerate, readableCondition, type Viewer } from './readability.js';
import type { Params } from '../core/args/define.js';
import { pageWindow } from '../core/paging.js';
import type { listArgs } from './args.js';

const SEARCHED_FIELDS = ['author_name', 'author_email', 'author_url', 'author_ip', 'content'];
/** The fields only callers who may read them (moderators, as for the edit context) filter or search by. */
const PRIVATE_FIELDS = new Set(['author_email', 'author_ip']);
const PUBLIC_SEARCHED_FIELDS = SEARCHED_FIELDS.filter((field) => !PRIVATE_FIELDS.has(field));

const ORDER_FIELDS: Readonly<Record<string, string>> = {
  date: 'date', date_gmt: 'date_gmt', id: 'id', post: 'post', parent: 'parent', type: 'type',
};

/** The ids of a list argument; ids past the largest safe integer name no record. */
function integers(value: readonly number[] | undefined): number[] {
  return value === undefined ? [] : value.filter(Number.isSafeInteger);
}

/** `status`: `approve` and `hold` (also `1` and `0`), `all` (both), `any` (every status), or a stored status. */
function statusCondition(status: string): Condition | null {
  switch (status) {
    case 'any':
      return null;
    case 'all':
    case '':
      return { field: 'status', op: 'in', values: ['approved', 'hold'] };
    case 'approve':
    case 'approved':
    case '1':
      return { field: 'status', op: 'eq', value: 'approved' };
    case 'hold':
    case '0':
      return { field: 'status', op: 'eq', value: 'hold' };
    default:
      return { field: 'status', op: 'eq', value: status };
  }
}

/** `type`: `comment` (also untyped ones), `pings` (pingbacks and trackbacks), `all`, or a stored type. */
function typeCondition(type: string): Condition | null {
  switch (type) {
    case 'all':
    case '':
      return null;
    case 'comment':
      return { field: 'type', op: 'in', values: ['comment', ''] };
    case 'pings':
      return { field: 'type', op: 'in', values: ['pingback', 'trackback'] };
    default:
      return { field: 'type', op: 'eq', value: type };
  }
}

export interface ListWindow {
  query: ListQuery;
  page: number;
  perPage: number;
}

export function listQuery(params: Params<typeof listArgs>, viewer: Viewer, site: Pick<Site, 'timezone' | 'gmtOffset'>, unlockedPost: number): ListWindow {
  const where: Condition[] = [readableCondition(viewer, unlockedPost)];
  const add = (condition: Condition | null) => {
    if (condition) where.push(condition);
  };
  const inList = (field: string, values: number[], op: 'in' | 'notIn') => {
    if (values.length > 0) add({ field, op, values });
  };
  inList('user_id', integers(params.author), 'in');
  inList('user_id', integers(params.author_exclude), 'notIn');
  inList('id', integers(params.include), 'in');
  inList('id', integers(params.exclude), 'notIn');
  inList('parent', integers(params.parent), 'in');
  inList('parent', integers(params.parent_exclude), 'notIn');
  inList('post', integers(params.post), 'in');
  const readsPrivate = canModerate(viewer);
  if (readsPrivate && params.author_email !== undefined && params.author_email !== '') {
    add({ field: 'author_email', op: 'textEquals', value: params.author_email });
  }
  add(statusCondition(params.status));
  add(typeCondition(params.type));
  for (const [name, op] of [['after', 'gt'], ['before', 'lt']] as const) {
    const value = params[name];
    const local = value !== undefined ? filterDateToLocal(value, site) : null;
    if (local !== null) add({ field: 'date', op, value: local });
  }

  const direction = params.order === 'asc' ? 'asc' : 'desc';
  const include = integers(params.include);
  let orderBy: SortKey[];
  if (params.orderby === 'include' && include.length > 0) {
    orderBy = [{ rank: include.map((id): Condition => ({ field: 'id', op: 'eq', value: id })) }];
  } else {
    const field = ORDER_FIELDS[params.orderby] ?? 'date_gmt';
    orderBy = [{ field, direction }];
  }

  const { page, perPage, offset } = pageWindow(params, 'comment');
  const query: ListQuery = { where, orderBy, offset, limit: perPage, withTotal: true };
  const search = params.search ?? '';
  if (search !== '') query.search = { fields: readsPrivate ? SEARCHED_FIELDS : PUBLIC_SEARCHED_FIELDS, terms: [search] };
  return { query, page, perPage };
}
