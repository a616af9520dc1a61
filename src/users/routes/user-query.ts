import type { Params } from '../../core/args/define.js';
import type { RequestContext } from '../../core/context.js';
import { pageWindow } from '../../core/paging.js';
import type { Condition, ListQuery, SortKey } from '../../ports/storage.js';
import { publishedAuthorIds, restPostTypes } from '../posts.js';
import { isEmpty } from '../../format/php.js';
import { can } from './load.js';
import type { UsersDeps } from '../deps.js';
import type { userCollectionArgs } from './args.js';

type ListParams = Params<typeof userCollectionArgs>;

/** The list query for `GET /users`, with the paging figures the response headers need. */
export interface UserListPlan {
  query: ListQuery;
  /** The page the offset falls on, as the paging headers report it. */
  page: number;
  perPage: number;
}

const LEVELS_ABOVE_ZERO = Array.from({ length: 10 }, (_, index) => `level_${index + 1}`);

const ORDER_FIELDS: Readonly<Record<string, string>> = {
  id: 'id',
  name: 'name_sort',
  registered_date: 'registered',
  slug: 'slug',
  email: 'email',
  url: 'url',
};


/** Users holding one of the named roles or own capabilities. */
function holdingAny(names: readonly string[]): Condition {
  return {
    op: 'or',
    conditions: [
      { field: 'roles', op: 'containsAny', values: [...names] },
      { field: 'capability_names', op: 'containsAny', values: [...names] },
    ],
  };
}

/**
 * Which columns a search looks at: for callers who may list users, chosen from the term (an email address,
 * a number, a URL, or anything else); for everyone else only id, login, slug and display name.
 */
function searchColumns(term: string, mayListUsers: boolean): string[] {
  if (!mayListUsers) return ['id', 'login', 'slug', 'name'];
  if (term.includes('@')) return ['email'];
  if (/^\s*[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?\s*$/.test(term)) return ['login', 'id'];
  if (/^https?:\/\//.test(term)) return ['url'];
  return ['login', 'url', 'email', 'slug', 'name'];
}

function searchCondition(term: string, mayListUsers: boolean): Condition {
  const conditions: Condition[] = [];
  for (const column of searchColumns(term, mayListUsers)) {
    if (column === 'id') {
      if (/^\d+$/.test(term)) conditions.push({ field: 'id', op: 'eq', value: Number(term) });
    } else {
      conditions.push({ field: column, op: 'textContains', value: term });
    }
  }
  return { op: 'or', conditions };
}

function rolesGranting(capabilities: readonly string[], deps: UsersDeps): string[] {
  const granting: string[] = [];
  for (const [slug, role] of deps.roles) {
    if (capabilities.some((capability) => role.capabilities[capability] === true)) granting.push(slug);
  }
  return granting;
}

/**
 * Turns the collection parameters into a list query the way the reference's user query does, including its
 * quirks: `who=authors` ignores the role and capability filters, callers who may not list users only see
 * users with published posts, and `include`/`include_slugs` order by the position in the list.
 */
export async function planUserList(context: RequestContext<ListParams>, deps: UsersDeps): Promise<UserListPlan> {
  const { params } = context;
  const mayListUsers = can(context, deps, 'list_users');
  const where: Condition[] = [];

  const { include, exclude } = params;
  const slugs = params.slug ?? [];
  if (include.length > 0) where.push({ field: 'id', op: 'in', values: include });
  if (exclude.length > 0) where.push({ field: 'id', op: 'notIn', values: exclude });
  if (slugs.length > 0) where.push({ field: 'slug', op: 'in', values: slugs });

  const restTypes = restPostTypes(deps.capabilityRules);
  const forAuthors = params.who === 'authors';
  let publishedTypes: readonly string[] | null = !forAuthors && !mayListUsers ? restTypes : null;
  const published = params.has_published_posts;
  if (!isEmpty(published)) publishedTypes = Array.isArray(published) ? published.map(String) : restTypes;
  if (publishedTypes !== null) {
    const authors = await publishedAuthorIds(deps.storage, publishedTypes);
    where.push({ field: 'id', op: 'in', values: authors });
  }

  if (forAuthors) {
    const authorRoles = rolesGranting(LEVELS_ABOVE_ZERO, deps);
    where.push({
      op: 'or',
      conditions: [
        { field: 'roles', op: 'containsAny', values: authorRoles },
        { field: 'capability_names', op: 'containsAny', values: LEVELS_ABOVE_ZERO },
      ],
    });
  } else {
    const roles = params.roles ?? [];
    const capabilities = params.capabilities ?? [];
    const wanted = [...roles, ...rolesGranting(capabilities, deps), ...capabilities];
    if (wanted.length > 0) where.push(holdingAny([...new Set(wanted)]));
  }

  const term = (params.search ?? '').trim();
  if (term !== '') where.push(searchCondition(term, mayListUsers));

  const { page, perPage, offset } = pageWindow(params, 'user');
  const query: ListQuery = { where, orderBy: orderOf(params, include, slugs), offset, limit: perPage, withTotal: true };
  return { query, page, perPage };
}

function orderOf(params: ListParams, include: readonly number[], slugs: readonly string[]): SortKey[] {
  const direction = params.order;
  const { orderby } = params;
  if (orderby === 'include') {
    if (include.length === 0) return [{ field: 'login', direction }];
    const positions = direction === 'desc' ? [...include].reverse() : include;
    return [{ rank: positions.map((id): Condition => ({ field: 'id', op: 'eq', value: id })) }];
  }
  if (orderby === 'include_slugs') {
    // The reference orders by the position in `slug` and ignores `order` here.
    return slugs.length === 0 ? [] : [{ rank: slugs.map((slug): Condition => ({ field: 'slug', op: 'eq', value: slug })) }];
  }
  return [{ field: ORDER_FIELDS[orderby] ?? 'login', direction }];
}
