/**
 * Categories and tags as data: records, lookups, counts and writes. The post-type kit and the terms routes both
 * build on this module; it knows posts only as the `posts` collection holding term ids.
 */
export { DEFAULT_CATEGORY_ID, TERMS_COLLECTION, termsIn, toTerm, type TermInput, type TermRecord } from './record.js';
export {
  allTerms, compareText, defaultCategoryId, descendantIds, ensureDefaultTerms, getTerm, getTerms, getTermsOfAny, idsByName, sortTermIdsByName, termsExist,
} from './store.js';
export { countPublishedPosts, recountTerms, updateTermCountsForPost } from './counts.js';
export { deleteTerm, insertTerm, MAX_TERM_NAME_LENGTH, sanitizeTermDescription, sanitizeTermName, uniqueTermSlug, updateTerm } from './write.js';
export { TAXONOMIES, isTaxonomyName, type TaxonomyDefinition, type TaxonomyName } from './taxonomies.js';
