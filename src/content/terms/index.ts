/** `cms/v2/categories`, `cms/v2/tags` and `cms/v2/wp_pattern_category`, and the term counts that follow post writes. */
import { CMS } from '../../core/names.js';
import { defineResource } from '../../core/resource.js';
import { TAXONOMIES, updateTermCountsForPost } from '../taxonomy/index.js';
import type { TermsDeps } from './deps.js';
import { termRoutes } from './routes.js';

export type { TermsDeps, TermType } from './deps.js';
/** The terms as data (records, lookups, counts, writes) live in `../taxonomy`; re-exported for in-process callers. */
export {
  DEFAULT_CATEGORY_ID, TERMS_COLLECTION,
  allTerms, compareText, countPublishedPosts, defaultCategoryId, deleteTerm, descendantIds,
  ensureDefaultTerms, getTerm, getTerms, insertTerm, sanitizeTermDescription, sanitizeTermName, sortTermIdsByName,
  recountTerms, termsExist, uniqueTermSlug, updateTerm, updateTermCountsForPost,
  TAXONOMIES, isTaxonomyName, type TaxonomyDefinition, type TaxonomyName, type TermInput, type TermRecord,
} from '../taxonomy/index.js';

export const termsResource = defineResource({
  namespace: CMS,
  deps: (shared: TermsDeps) => shared,
  routes: (deps) => {
    deps.postEvents.onPostSaved((event) => updateTermCountsForPost(event.storage, event.previous, event.post));
    deps.postEvents.onPostDeleted((event) => updateTermCountsForPost(event.storage, event.post, null));
    return termRoutes({
      categories: { definition: TAXONOMIES.category, deps },
      tags: { definition: TAXONOMIES.post_tag, deps },
      patternCategories: { definition: TAXONOMIES.wp_pattern_category, deps },
    });
  },
});
