export { registerTerms } from './routes.js';
export {
  DEFAULT_CATEGORY_ID, POSTS_COLLECTION, TERMS_COLLECTION,
  allTerms, compareText, countPublishedPosts, countPublishedPostsByTerm, defaultCategoryId, deleteTerm, descendantIds,
  ensureDefaultTerms, getTerm, getTerms, insertTerm, sanitizeTermDescription, sanitizeTermName, sortTermIdsByName,
  termsExist, uniqueTermSlug, updateTerm,
  type TermInput, type TermRecord,
} from './service.js';
export { TAXONOMIES, isTaxonomyName, type TaxonomyDefinition, type TaxonomyName } from './taxonomies.js';
export { removeAccents, sanitizeTitle } from './slug.js';
