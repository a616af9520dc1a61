/**
 * The parameters the forms handlers read. The reference declares no arguments on these routes (the index lists
 * `"args": []` for each endpoint) and casts what it reads as PHP does, so the casts live here instead of in
 * argument definitions; only the submissions list (ours) declares paging arguments.
 */
import { pageArgs, postsPerPage, storableOffset } from '../core/paging.js';
import { checkSearchLength } from '../core/search-arg.js';
import type { FormListQuery } from './service.js';
import { phpString } from './text.js';

/** PHP's `(int)` cast: leading digits of text, 1 for a non-empty list, truncation of numbers. */
export function phpInt(value: unknown): number {
  if (Array.isArray(value)) return value.length > 0 ? 1 : 0;
  if (value !== null && typeof value === 'object') return Object.keys(value).length > 0 ? 1 : 0;
  if (typeof value === 'number') return Number.isFinite(value) ? Math.trunc(value) : 0;
  if (typeof value === 'boolean') return value ? 1 : 0;
  const found = /^\s*([+-]?\d+)/.exec(typeof value === 'string' ? value : '');
  if (!found) return 0;
  const number = Number(found[1]);
  return Number.isSafeInteger(number) ? number : (number > 0 ? Number.MAX_SAFE_INTEGER : Number.MIN_SAFE_INTEGER);
}

/** PHP's `(string)` cast, where a list prints as `Array`. */
function phpText(value: unknown): string {
  return value !== null && typeof value === 'object' ? 'Array' : phpString(value);
}

function checkedSearch(search: string): string {
  checkSearchLength(search);
  return search;
}

/** The list query as the reference's post query reads `per_page`, `offset`, `order`, `orderby` and `search`. */
export function listQueryOf(params: Readonly<Record<string, unknown>>): FormListQuery {
  const perPage = postsPerPage(params.per_page === undefined || params.per_page === null ? undefined : phpInt(params.per_page));
  const order = params.order === undefined || params.order === null ? 'ASC' : phpText(params.order);
  return {
    perPage,
    offset: params.offset === undefined || params.offset === null ? 0 : storableOffset(Math.abs(phpInt(params.offset))),
    order: order.toUpperCase() === 'ASC' ? 'asc' : 'desc',
    orderby: params.orderby === undefined || params.orderby === null ? 'ID' : phpText(params.orderby),
    search: params.search === undefined || params.search === null ? null : checkedSearch(phpText(params.search)),
  };
}

/** Whether a write should only be validated: the reference's admin sends `context=dry-run` for that. */
export function isDryRun(params: Readonly<Record<string, unknown>>): boolean {
  return params.context === 'dry-run';
}

export const submissionListArgs = pageArgs();
