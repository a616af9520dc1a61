import type { StoragePort } from '../../ports/storage.js';
import { allTerms, compareText, getTerms, TAXONOMIES, type TaxonomyName, type TermRecord } from '../taxonomy/index.js';
import { sanitizeTitle } from '../../format/slug.js';

/** A term list request, as the collection route received it. */
export interface TermListQuery {
  include: number[];
  exclude: number[];
  slugs: string[];
  search: string;
  /** Only children of this term (0: top-level terms); undefined: any level. */
  parent?: number;
  /** Only terms attached to this post's id list. */
  postTermIds?: number[];
  hideEmpty: boolean;
  orderby: 'id' | 'include' | 'name' | 'slug' | 'include_slugs' | 'term_group' | 'description' | 'count';
  order: 'asc' | 'desc';
  offset: number;
  number: number;
}

export interface TermListResult {
  terms: TermRecord[];
  /** The total the reference reports, which for hidden empty categories counts only non-empty ones. */
  total: number;
}

/**
 * The reference's term query for one taxonomy: `include` wins over `exclude`; `slug`, `search` (name or slug
 * contains), `parent`, `hide_empty`; sorted, then a page cut out. Hiding empty categories keeps those with a
 * non-empty descendant in the list, while the total counts only non-empty ones, as the reference does.
 */
export async function queryTerms(storage: StoragePort, taxonomy: TaxonomyName, query: TermListQuery): Promise<TermListResult> {
  const hierarchical = TAXONOMIES[taxonomy].hierarchical;
  const everything = query.postTermIds ? null : await allTerms(storage, taxonomy);
  let terms = everything ?? await getTerms(storage, taxonomy, query.postTermIds ?? []);

  if (query.include.length > 0) {
    const included = new Set(query.include);
    terms = terms.filter((term) => included.has(term.id));
  } else if (query.exclude.length > 0) {
    const excluded = new Set(query.exclude);
    terms = terms.filter((term) => !excluded.has(term.id));
  }
  const slugs = query.slugs.map((slug) => sanitizeTitle(slug));
  if (slugs.length > 0) terms = terms.filter((term) => slugs.includes(term.slug));
  if (query.search !== '') {
    const needle = query.search.toLowerCase();
    terms = terms.filter((term) => term.name.toLowerCase().includes(needle) || term.slug.toLowerCase().includes(needle));
  }
  if (query.parent !== undefined) terms = terms.filter((term) => term.parent === query.parent);

  const hideEmpty = query.hideEmpty && !query.postTermIds;
  const counts = new Map((everything ?? terms).map((term) => [term.id, term.count]));
  const countOf = (id: number) => counts.get(id) ?? 0;

  let total = terms.length;
  if (hideEmpty) {
    const nonEmpty = terms.filter((term) => countOf(term.id) > 0);
    total = nonEmpty.length;
    if (hierarchical) {
      const holding = withNonEmptyDescendants(everything!, countOf);
      terms = terms.filter((term) => countOf(term.id) > 0 || holding.has(term.id));
    } else {
      terms = nonEmpty;
    }
  }

  const direction = query.order === 'desc' ? -1 : 1;
  const key = sortKey(query, slugs, countOf);
  terms.sort((a, b) => direction * key(a, b) || a.id - b.id);

  return { terms: terms.slice(query.offset, query.offset + query.number), total };
}

function sortKey(query: TermListQuery, slugs: string[], countOf: (id: number) => number): (a: TermRecord, b: TermRecord) => number {
  switch (query.orderby) {
    case 'id':
      return (a, b) => a.id - b.id;
    case 'slug':
      return (a, b) => compareText(a.slug, b.slug);
    case 'description':
      return (a, b) => compareText(a.description, b.description);
    case 'count':
      return (a, b) => countOf(a.id) - countOf(b.id);
    case 'term_group':
      // Every term is in group 0.
      return () => 0;
    case 'include':
      if (query.include.length > 0) return byPosition(query.include, (term) => term.id);
      break;
    case 'include_slugs':
      if (slugs.length > 0) return byPosition(slugs, (term) => term.slug);
      break;
    default:
      break;
  }
  return (a, b) => compareText(a.name, b.name);
}

/** Position in a list, 1-based, 0 when absent (as SQL's `FIELD`). */
function byPosition<T>(list: T[], valueOf: (term: TermRecord) => T): (a: TermRecord, b: TermRecord) => number {
  const position = (term: TermRecord) => list.indexOf(valueOf(term)) + 1;
  return (a, b) => position(a) - position(b);
}

/** Ids of terms with at least one non-empty descendant: every ancestor of a non-empty term. */
function withNonEmptyDescendants(terms: readonly TermRecord[], countOf: (id: number) => number): Set<number> {
  const parentOf = new Map(terms.map((term) => [term.id, term.parent]));
  const holding = new Set<number>();
  for (const term of terms) {
    if (countOf(term.id) === 0) continue;
    for (let ancestor = term.parent; ancestor > 0 && !holding.has(ancestor); ancestor = parentOf.get(ancestor) ?? 0) {
      holding.add(ancestor);
    }
  }
  return holding;
}
