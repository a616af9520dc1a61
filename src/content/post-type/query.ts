/**
 * List parameters → the storage port's structured query. Equality on `type` and `status` (and author, parent,
 * slug, sticky, menu_order when asked) with a single order field lets an indexed store answer a page without
 * scanning; ranges on the order field become index bounds.
 */
import type { Params } from '../../core/args/define.js';
import type { Principal } from '../../core/context.js';
import { deepFreeze } from '../../core/freeze.js';
import { pageWindow } from '../../core/paging.js';
import type { Site } from '../../core/site.js';
import type { Condition, ListQuery, Scalar, SortKey, StoragePort } from '../../ports/storage.js';
import { descendantIds, type TaxonomyName } from '../taxonomy/index.js';
import type { collectionArgs } from './args.js';
import { filterDateToLocal } from './dates.js';
import { EXCLUDED_FROM_ANY, REGISTERED_STATUSES, type PostTypeDefinition, type TaxonomyBinding } from './definition.js';
import { parseSearch, protectedTextSearch, relevanceRank, SEARCH_COLUMNS, textSearch } from './search.js';
import { sanitizeTitle } from './slug.js';
import type { ListVisibility } from './visibility.js';

export interface ListPlan {
  query: ListQuery & { offset: number; limit: number };
  page: number;
  perPage: number;
  /** Whether sticky posts move to the front of this page (`ignore_sticky=false` on an unfiltered first page). */
  stickyFirst: boolean;
  /** Ids left out by `exclude`; sticky posts fetched for the front must not be among them. */
  excludedIds: readonly number[];
}

export interface ListEnvironment {
  storage: StoragePort;
  site: Pick<Site, 'timezone' | 'gmtOffset'>;
  user: Principal | null;
  /** Which records the caller may see; without it the list selects every record of the statuses asked for. */
  visibility?: ListVisibility;
  /** Fields a search looks in besides the post fields (media: the file name). */
  extraSearchFields?: readonly string[];
}

const eq = (field: string, value: Scalar): Condition => ({ field, op: 'eq', value });

/** The statuses a list shows when it names none. */
const PUBLISHED: readonly string[] = Object.freeze(['publish']);

/** `eq` for one value, `in` for several: both are index-friendly. */
function oneOf(field: string, values: readonly Scalar[]): Condition {
  const unique = [...new Set(values)];
  return unique.length === 1 ? eq(field, unique[0]!) : { field, op: 'in', values: unique };
}

/** Shared by every list parameter that is not sent (most are not): read only, never changed. */
const NONE: readonly never[] = Object.freeze([]);
const list = <T>(value: unknown): readonly T[] => (Array.isArray(value) ? value as T[] : NONE);
const isSet = (value: unknown) => value !== undefined && value !== null;

/** The statuses a `status` filter stands for; `any` is every status but trash and auto-draft (unless named). */
export function statusesOf(requested: readonly string[]): readonly string[] {
  if (requested.length === 1 && requested[0] !== 'any') return requested;
  if (!requested.includes('any')) return [...new Set(requested)];
  return REGISTERED_STATUSES.filter((status) => !EXCLUDED_FROM_ANY.has(status) || requested.includes(status));
}

interface TermFilter {
  terms: readonly number[];
  includeChildren: boolean;
  operator: 'AND' | 'OR';
}

function termFilterOf(value: unknown): TermFilter | null {
  if (Array.isArray(value)) return { terms: value as readonly number[], includeChildren: false, operator: 'OR' };
  if (value !== null && typeof value === 'object') {
    const object = value as Record<string, unknown>;
    return {
      terms: list<number>(object.terms),
      includeChildren: object.include_children === true,
      operator: object.operator === 'AND' ? 'AND' : 'OR',
    };
  }
  return null;
}

async function termTerms(filter: TermFilter, binding: TaxonomyBinding, storage: StoragePort): Promise<number[]> {
  const unique = [...new Set(filter.terms)];
  if (!filter.includeChildren || !binding.hierarchical) return unique;
  return descendantIds(storage, binding.taxonomy as TaxonomyName, unique);
}

interface TaxonomyClauses {
  clauses: Condition[];
  inclusive: boolean;
}

/** The parameter excluding a taxonomy's terms, by its `restBase`. */
const EXCLUDE_PARAMS = new Map<string, string>();

function excludeParam(restBase: string): string {
  let name = EXCLUDE_PARAMS.get(restBase);
  if (name === undefined) EXCLUDE_PARAMS.set(restBase, name = `${restBase}_exclude`);
  return name;
}

/** Whether the request names terms or formats at all (most lists do not, and need no clauses). */
function filtersByTerms(definition: PostTypeDefinition, params: Readonly<Record<string, unknown>>): boolean {
  if (definition.supportsFormats && params.format !== undefined) return true;
  for (const binding of definition.taxonomies) {
    if (params[binding.restBase] !== undefined || params[excludeParam(binding.restBase)] !== undefined) return true;
  }
  return false;
}

/** Taxonomy and format clauses; `inclusive` tells whether any of them selects (rather than excludes) records. */
async function taxonomyClauses(
  definition: PostTypeDefinition, params: Readonly<Record<string, unknown>>, storage: StoragePort,
): Promise<TaxonomyClauses> {
  const clauses: Condition[] = [];
  let inclusive = false;
  for (const binding of definition.taxonomies) {
    const include = termFilterOf(params[binding.restBase]);
    if (include && include.terms.length > 0) {
      const terms = await termTerms(include, binding, storage);
      clauses.push({ field: binding.restBase, op: include.operator === 'AND' ? 'containsAll' : 'containsAny', values: terms });
      inclusive = true;
    }
    const exclude = termFilterOf(params[excludeParam(binding.restBase)]);
    if (exclude && exclude.terms.length > 0) {
      clauses.push({ field: binding.restBase, op: 'containsNone', values: await termTerms(exclude, binding, storage) });
    }
  }
  const formats = list<string>(params.format);
  if (definition.supportsFormats && formats.length > 0) {
    // Records without a format hold `standard`, so the format filter is one list condition.
    clauses.push(oneOf('format', formats));
    inclusive = true;
  }
  return { clauses, inclusive };
}

const ORDER_FIELDS: Readonly<Record<string, string>> = {
  author: 'author', date: 'date', id: 'id', modified: 'modified', parent: 'parent', slug: 'slug', title: 'title',
};

/** The date filters: parameter, field, comparison. */
const DATE_FILTERS = [
  ['after', 'date', 'gt'], ['before', 'date', 'lt'], ['modified_after', 'modified', 'gt'], ['modified_before', 'modified', 'lt'],
] as const;

const NO_TAXONOMY: TaxonomyClauses = { clauses: [], inclusive: false };

function orderKeys(
  definition: PostTypeDefinition, params: Params<typeof collectionArgs>, direction: 'asc' | 'desc', rank: Condition[] | null,
): SortKey[] {
  const { orderby } = params;
  const include = list<number>(params.include);
  const slugs = list<string>(params.slug);
  if (orderby === 'include' && include.length > 0) return [{ rank: include.map((id) => eq('id', id)) }];
  if (orderby === 'include_slugs' && slugs.length > 0) return [{ rank: slugs.map((slug) => eq('slug', sanitizeTitle(slug))) }];
  if (orderby === 'relevance' && rank) {
    return rank.length > 0 ? [{ rank }, { field: 'date', direction }] : [{ field: 'date', direction }];
  }
  const field = orderby === 'menu_order' ? (definition.supportsPageAttributes ? 'menu_order' : undefined)
    : Object.hasOwn(ORDER_FIELDS, orderby) ? ORDER_FIELDS[orderby] : undefined;
  return fieldOrder(field ?? 'date', direction);
}

/** The one-field orders, made once each and frozen: most lists share a handful. */
const FIELD_ORDERS = { asc: new Map<string, SortKey[]>(), desc: new Map<string, SortKey[]>() };

function fieldOrder(field: string, direction: 'asc' | 'desc'): SortKey[] {
  const orders = FIELD_ORDERS[direction];
  let order = orders.get(field);
  if (order === undefined) orders.set(field, order = Object.freeze([Object.freeze({ field, direction })]) as SortKey[]);
  return order;
}

/**
 * Builds the query for a list request; at once when nothing in it needs the store (no term filter, no `inherit`
 * records). Parameter errors (`relevance` without `search`, `include` order without `include`) are the caller's to
 * report first.
 */
export function buildListPlan(
  definition: PostTypeDefinition, params: Params<typeof collectionArgs>, environment: ListEnvironment,
): ListPlan | Promise<ListPlan> {
  const requested = list<string>(params.status);
  const statuses = statusesOf(requested.length > 0 ? requested : PUBLISHED);
  const { visibility } = environment;
  const rows = visibility ? visibility.rows(statuses) : [oneOf('status', statuses)];
  const byTerms = filtersByTerms(definition, params);
  if (!byTerms && Array.isArray(rows)) return planOf(definition, params, environment, statuses, rows, NO_TAXONOMY);
  return plannedWithStore(definition, params, environment, statuses, rows, byTerms);
}

/**
 * Plans of anonymous callers' lists, kept under their parameters' key (`RequestContext.paramsKey`) with the site
 * they were made for: what an anonymous caller may see of a type depends on the statuses asked for alone, so such
 * a plan follows from those two, unless making it read the store (term filters, `inherit` records: not kept).
 * Kept plans are frozen all through (their query asks for records to share), so a store may tell the query again.
 */
const keptPlans = new WeakMap<object, { readonly site: object; readonly plan: ListPlan }>();

export function keptListPlan(paramsKey: object | null, site: object): ListPlan | undefined {
  const kept = paramsKey === null ? undefined : keptPlans.get(paramsKey);
  return kept !== undefined && kept.site === site ? kept.plan : undefined;
}

export function keepListPlan(paramsKey: object, site: object, plan: ListPlan): ListPlan {
  plan.query.shared = true;
  keptPlans.set(paramsKey, { site, plan: deepFreeze(plan) });
  return plan;
}

async function plannedWithStore(
  definition: PostTypeDefinition, params: Params<typeof collectionArgs>, environment: ListEnvironment,
  statuses: readonly string[], rows: readonly Condition[] | Promise<readonly Condition[]>, byTerms: boolean,
): Promise<ListPlan> {
  const visibleRows = await rows;
  const taxonomy = byTerms ? await taxonomyClauses(definition, params, environment.storage) : NO_TAXONOMY;
  return planOf(definition, params, environment, statuses, visibleRows, taxonomy);
}

function planOf(
  definition: PostTypeDefinition, params: Params<typeof collectionArgs>, environment: ListEnvironment,
  statuses: readonly string[], rows: readonly Condition[], taxonomy: TaxonomyClauses,
): ListPlan {
  const { site, user, visibility } = environment;
  const where: Condition[] = [eq('type', definition.type), ...rows];

  const include = list<number>(params.include);
  const excludedIds = list<number>(params.exclude);
  if (definition.supportsSticky && isSet(params.sticky)) where.push(eq('sticky', params.sticky === true));
  if (include.length > 0) where.push(oneOf('id', include));
  if (excludedIds.length > 0) where.push({ field: 'id', op: 'notIn', values: [...new Set(excludedIds)] });

  const authors = list<number>(params.author);
  if (authors.length > 0) where.push(oneOf('author', authors));
  const authorsExcluded = list<number>(params.author_exclude);
  if (authorsExcluded.length > 0) where.push({ field: 'author', op: 'notIn', values: authorsExcluded as number[] });

  if (definition.hierarchical) {
    const parents = list<number>(params.parent);
    if (parents.length > 0) where.push(oneOf('parent', parents));
    const parentsExcluded = list<number>(params.parent_exclude);
    if (parentsExcluded.length > 0) where.push({ field: 'parent', op: 'notIn', values: parentsExcluded as number[] });
  }
  if (definition.supportsPageAttributes && params.menu_order !== undefined) where.push(eq('menu_order', params.menu_order));

  const slugs = list<string>(params.slug);
  if (slugs.length > 0) where.push(oneOf('slug', slugs.map((slug) => sanitizeTitle(slug))));

  for (let at = 0; at < DATE_FILTERS.length; at++) {
    const filter = DATE_FILTERS[at]!;
    const value = params[filter[0]];
    if (value === undefined) continue;
    const local = filterDateToLocal(value, site);
    if (local !== null) where.push({ field: filter[1], op: filter[2], value: local });
  }

  // As PHP's empty(): "0" searches for nothing.
  const searchText = params.search !== undefined && params.search !== '0' ? params.search : '';
  let search: ListQuery['search'];
  let rank: Condition[] | null = null;
  if (searchText !== '') {
    const parsed = parseSearch(searchText);
    const exact = params.search_semantics === 'exact';
    const columns = list<string>(params.search_columns).map((column) => SEARCH_COLUMNS[column]).filter((field) => field !== undefined);
    const fields = [...new Set([...(columns.length > 0 ? columns : ['title', 'excerpt', 'content']), ...(environment.extraSearchFields ?? [])])];
    // Anonymous visitors never find password-protected posts by searching.
    if (!user) where.push(eq('password', ''));
    const textVisible = user && visibility ? visibility.protectedText(statuses) : null;
    if (textVisible) {
      search = textSearch({ ...parsed, excludedTerms: [] }, fields, exact);
      where.push(protectedTextSearch(parsed, fields, exact, textVisible));
    } else {
      search = textSearch(parsed, fields, exact);
    }
    rank = relevanceRank(parsed, exact, textVisible);
  }

  if (taxonomy.clauses.length > 0) {
    if (params.tax_relation === 'OR') where.push({ op: 'or', conditions: taxonomy.clauses });
    else where.push(...taxonomy.clauses);
  }

  const direction = params.order === 'asc' ? 'asc' : 'desc';
  const { page, perPage, offset } = pageWindow(params, 'post');

  const query: ListPlan['query'] = { where, orderBy: orderKeys(definition, params, direction, rank), offset, limit: perPage, withTotal: true };
  if (search) query.search = search;
  const stickyFirst = definition.supportsSticky && params.ignore_sticky === false && page <= 1
    && searchText === '' && !taxonomy.inclusive;
  return { query, page, perPage, stickyFirst, excludedIds };
}
