/**
 * Paged lists, in one place: the `page` and `per_page` arguments, the window of records a page asks for (each of
 * the reference's queries reads `offset` its own way), the figures behind `X-WP-Total`, `X-WP-TotalPages` and
 * `Link` rel prev/next, and the error for a page past the end.
 */
import { args } from './args/define.js';
import type { Paging, RequestContext } from './context.js';
import { CmsError } from './errors.js';
import { buildQueryString, encodeQueryComponent } from './query.js';

/** Records on a page when `per_page` is not sent. */
export const DEFAULT_PER_PAGE = 10;
/** The most records a page may hold. */
export const MAX_PER_PAGE = 100;

interface PageArgOptions {
  /** The published descriptions; the reference's own wording when not given. */
  page?: string;
  perPage?: string;
  /** Without a default, a list that is not given `per_page` holds every record (revisions). */
  perPageDefault?: boolean;
}

/** `page` and `per_page` as every paged list declares them: integers from 1, at most `MAX_PER_PAGE` a page. */
export function pageArgs(options: PageArgOptions & { perPageDefault: false }): {
  page: ReturnType<typeof pageArg>; per_page: ReturnType<typeof perPageArg>;
};
export function pageArgs(options?: PageArgOptions): { page: ReturnType<typeof pageArg>; per_page: ReturnType<typeof defaultedPerPageArg> };
export function pageArgs(options: PageArgOptions = {}) {
  const page = pageArg(options.page ?? 'Current page of the collection.');
  const perPageDescription = options.perPage ?? 'Maximum number of items to be returned in result set.';
  const per_page = options.perPageDefault === false ? perPageArg(perPageDescription) : defaultedPerPageArg(perPageDescription);
  return { page, per_page };
}

/** The reference's `absint` sanitising of both (a value cast past the integer range wraps to a negative one). */
const absint = (value: unknown) => Math.abs(Number(value));
const pageArg = (description: string) => args.integer({ description, default: 1, minimum: 1 }, { transform: absint });
const perPageArg = (description: string) => args.integer({ description, minimum: 1, maximum: MAX_PER_PAGE }, { transform: absint });
const defaultedPerPageArg = (description: string) =>
  args.integer({ description, default: DEFAULT_PER_PAGE, minimum: 1, maximum: MAX_PER_PAGE }, { transform: absint });

/** The paging parameters of a list, as its arguments leave them. */
export interface PagingParams {
  readonly page?: number | undefined;
  readonly per_page?: number | undefined;
  readonly offset?: number | undefined;
}

/**
 * How a list reads `page` and `offset`, after the reference's query behind it:
 * - `page`: the page as asked, no offset (the store pages by itself);
 * - `post`: any offset sent replaces the page's, negative ones counted from the start (`absint`);
 * - `revision`: as `post`, and without `per_page` the page holds every record (`perPage` is null);
 * - `comment`: only a positive offset replaces the page's;
 * - `user`: a non-zero offset replaces the page's, negative ones read as 0; the page reported is the one the
 *   offset falls on;
 * - `term`: as `user`, but negative offsets count from the start.
 */
export type OffsetRule = 'page' | 'post' | 'revision' | 'comment' | 'user' | 'term';

/** The records a page asks for: `offset` is where the store starts, `page` the page the headers report. */
export interface PageWindow<PerPage extends number | null = number> {
  readonly page: number;
  readonly perPage: PerPage;
  readonly offset: number;
}

/** The window of a paged list; `per_page` falls back to `DEFAULT_PER_PAGE`, or to every record for revisions. */
export function pageWindow(params: PagingParams, rule: 'revision'): PageWindow<number | null>;
export function pageWindow(params: PagingParams, rule: Exclude<OffsetRule, 'revision'>): PageWindow;
export function pageWindow(params: PagingParams, rule: OffsetRule): PageWindow<number | null> {
  const asked = params.page ?? 1;
  const page = asked > 0 ? asked : 1;
  const sentPerPage = params.per_page !== undefined && params.per_page > 0 ? params.per_page : null;
  const perPage = sentPerPage ?? DEFAULT_PER_PAGE;
  const { offset } = params;
  switch (rule) {
    case 'page':
      return { page: asked, perPage, offset: pageOffset(asked, perPage) };
    case 'post':
      return { page, perPage, offset: storableOffset(offset !== undefined ? Math.abs(offset) : (page - 1) * perPage) };
    case 'revision':
      if (sentPerPage === null) return { page, perPage: null, offset: 0 };
      return { page, perPage, offset: offset !== undefined ? storableOffset(Math.abs(offset)) : pageOffset(page, perPage) };
    case 'comment':
      return { page, perPage, offset: offset !== undefined && Number.isSafeInteger(offset) && offset > 0 ? offset : pageOffset(page, perPage) };
    case 'user':
    case 'term': {
      const requested = offset !== undefined && offset !== 0 ? offset : (asked - 1) * perPage;
      const start = rule === 'term' ? Math.abs(requested) : Number.isNaN(requested) || requested <= 0 ? 0 : storableOffset(requested);
      return { page: Math.ceil(requested / perPage + 1), perPage, offset: start };
    }
  }
}

/**
 * The page size of a list that declares no `per_page`, as the reference's post query reads `posts_per_page`:
 * every record (-1) when none is sent, a negative size counted from the start, 0 as 1.
 */
export function postsPerPage(sent: number | undefined): number {
  if (sent === undefined) return -1;
  if (sent < -1) return Math.abs(sent);
  return sent === 0 ? 1 : sent;
}

/** The store offset of a page: `(page - 1) * perPage`, held at the largest safe integer, which no store reaches. */
export function pageOffset(page: number, perPage: number): number {
  const offset = (page - 1) * perPage;
  // A page that is no finite number (1e309 reads as Infinity, and Infinity × 0 is NaN) is past the end as well.
  return offset >= 0 && offset < Number.MAX_SAFE_INTEGER ? Math.floor(offset) : Number.MAX_SAFE_INTEGER;
}

/** A non-negative offset a store accepts: offsets beyond the largest safe integer are past the end all the same. */
export function storableOffset(offset: number): number {
  return Number.isFinite(offset) ? Math.min(Math.floor(offset), Number.MAX_SAFE_INTEGER) : Number.MAX_SAFE_INTEGER;
}

interface PagingOptions {
  /** The route's error code for a page past the last one (`rest_post_invalid_page_number`); none: no error. */
  pastTheEnd?: string;
  /** `prev` names the page before the one asked for even past the end (the reference's search). */
  previousUnclamped?: boolean;
}

/**
 * The paging figures of a list of `total` records seen `perPage` at a time, or `null` per page for a list that
 * holds them all on one page; a page past the last one is refused with the route's `pastTheEnd` code.
 */
export function paging(total: number, page: number, perPage: number | null, options: PagingOptions = {}): Paging {
  const totalPages = perPage === null ? (total > 0 ? 1 : 0) : total === 0 ? 0 : Math.ceil(total / perPage);
  if (options.pastTheEnd !== undefined && total > 0 && page > totalPages) {
    throw new CmsError(options.pastTheEnd, 'The page number requested is larger than the number of pages available.', 400);
  }
  return options.previousUnclamped ? { total, totalPages, page, previousUnclamped: true } : { total, totalPages, page };
}

/** `X-WP-Total`, `X-WP-TotalPages` and `Link` rel prev/next for a collection. */
export function pagingHeaders(figures: Paging, context: RequestContext, prefix: string): Record<string, string | number> {
  const names = namesOf(prefix);
  const headers: Record<string, string | number> = {};
  headers[names.total] = figures.total;
  headers[names.totalPages] = figures.totalPages;
  const hasPrevious = figures.page > 1;
  const hasNext = figures.totalPages > figures.page;
  if (!hasPrevious && !hasNext) return headers;
  headers.Link = linkHeader(figures, context, hasPrevious, hasNext);
  return headers;
}

/**
 * The last `Link` header made and what made it: the site (whose API address the links start with), the path, the
 * query's parameters in order and the page figures. A list read again and again gets it without spelling it anew.
 */
let lastLink: {
  site: object; path: string; keys: string[]; values: unknown[]; page: number; totalPages: number; previousUnclamped: boolean; link: string;
  paramsKey: object | null;
} | null = null;

function linkHeader(figures: Paging, context: RequestContext, hasPrevious: boolean, hasNext: boolean): string {
  const { query } = context;
  const last = lastLink;
  const same = last !== null && context.site !== undefined && last.site === context.site && last.path === context.path && last.page === figures.page
    && last.totalPages === figures.totalPages && last.previousUnclamped === (figures.previousUnclamped === true);
  // The same kept parameters come from the same query string: its parameters need no comparing.
  const paramsKey = context.paramsKey ?? null;
  if (same && paramsKey !== null && last.paramsKey === paramsKey) return last.link;
  const keys = Object.keys(query);
  if (same && sameParameters(last.keys, last.values, keys, query)) {
    last.paramsKey = paramsKey;
    return last.link;
  }
  const withPage = linkQuery(query);
  const url = context.url(context.path);
  const previous = hasPrevious ? `<${url}?${withPage(previousPage(figures))}>; rel="prev"` : '';
  const next = hasNext ? `<${url}?${withPage(figures.page + 1)}>; rel="next"` : '';
  const link = hasPrevious && hasNext ? `${previous}, ${next}` : previous || next;
  lastLink = {
    site: context.site, path: context.path, keys, values: keys.map((key) => query[key]), page: figures.page,
    totalPages: figures.totalPages, previousUnclamped: figures.previousUnclamped === true, link, paramsKey,
  };
  return link;
}

/** Whether the query holds the same parameters, in the same order, with the same plain values (lists never match). */
function sameParameters(keys: readonly string[], values: readonly unknown[], nowKeys: readonly string[], query: Readonly<Record<string, unknown>>): boolean {
  if (keys.length !== nowKeys.length) return false;
  for (let at = 0; at < keys.length; at++) {
    const value = values[at];
    if (keys[at] !== nowKeys[at] || (value !== null && typeof value === 'object') || query[nowKeys[at]!] !== value) return false;
  }
  return true;
}

function previousPage(figures: Paging): number {
  return figures.previousUnclamped ? figures.page - 1 : Math.min(figures.page - 1, figures.totalPages);
}

/** The names of the two count headers, spelt once per prefix (the same strings each time). */
let lastNames = { prefix: '', total: '-Total', totalPages: '-TotalPages' };

function namesOf(prefix: string): { total: string; totalPages: string } {
  if (lastNames.prefix !== prefix) lastNames = { prefix, total: `${prefix}-Total`, totalPages: `${prefix}-TotalPages` };
  return lastNames;
}

/**
 * The query string of a paging link to `page`: the request's parameters in their order, `page` in its place (or
 * last), each encoded once for both links. The links name the route in their path, so `rest_route` is not carried
 * over.
 */
function linkQuery(query: Readonly<Record<string, unknown>>): (page: number) => string {
  let before = '';
  let after: string | null = null;
  for (const key of Object.keys(query)) {
    if (key === 'rest_route') continue;
    if (key === 'page') {
      after ??= '';
      continue;
    }
    const piece = queryPiece(key, query[key]);
    if (piece === '') continue;
    if (after === null) before = before === '' ? piece : `${before}&${piece}`;
    else after = `${after}&${piece}`;
  }
  return (page) => {
    const pagePiece = `page=${encodeQueryComponent(String(page))}`;
    const head = before === '' ? pagePiece : `${before}&${pagePiece}`;
    return after === null || after === '' ? head : `${head}${after}`;
  };
}

/** `key=value` as `buildQueryString` spells one parameter, without building a map for a plain value. */
function queryPiece(key: string, value: unknown): string {
  if (typeof value === 'string') return `${encodeQueryComponent(key)}=${encodeQueryComponent(value)}`;
  if (typeof value === 'number') return `${encodeQueryComponent(key)}=${encodeQueryComponent(String(value))}`;
  return buildQueryString({ [key]: value });
}
