export { registerTerms } from './routes.js';
export {
  DEFAULT_CATEGORY_ID, POSTS_COLLECTION, TERMS_COLLECTION,
  allTerms, compareText, countPublishedPosts, defaultCategoryId, deleteTerm, descendantIds,
  ensureDefaultTerms, getTerm, getTerms, insertTerm, sanitizeTermDescription, sanitizeTermName, sortTermIdsByName,
  recountTerms, termsExist, uniqueTermSlug, updateTerm, updateTermCountsForPost,
  type TermInput, type TermRecord,
} from './service.js';
export { TAXONOMIES, isTaxonomyName, type TaxonomyDefinition, type TaxonomyName } from './taxonomies.js';
export { removeAccents, sanitizeTitle } from '../../format/slug.js';
