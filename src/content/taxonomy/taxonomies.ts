/** The built-in taxonomies: how each is stored, routed and linked. */
export type TaxonomyName = 'category' | 'post_tag' | 'wp_pattern_category';

export interface TaxonomyDefinition {
  readonly name: TaxonomyName;
  /** Route base below `cms/v2`, also the post list filter of the same name. */
  readonly restBase: 'categories' | 'tags' | 'wp_pattern_category';
  /** The field of a post record holding the ids of its terms in this taxonomy. */
  readonly postField: 'categories' | 'tags' | 'wp_pattern_category';
  /** First path segment of a term's public archive URL; none for a taxonomy without archives (a query link). */
  readonly archiveBase: 'category' | 'tag' | null;
  readonly hierarchical: boolean;
  /** Post types whose records carry terms of this taxonomy. */
  readonly objectTypes: readonly string[];
}

export const TAXONOMIES: Readonly<Record<TaxonomyName, TaxonomyDefinition>> = {
  category: {
    name: 'category', restBase: 'categories', postField: 'categories', archiveBase: 'category', hierarchical: true, objectTypes: ['post'],
  },
  post_tag: {
    name: 'post_tag', restBase: 'tags', postField: 'tags', archiveBase: 'tag', hierarchical: false, objectTypes: ['post'],
  },
  wp_pattern_category: {
    name: 'wp_pattern_category', restBase: 'wp_pattern_category', postField: 'wp_pattern_category', archiveBase: null,
    hierarchical: false, objectTypes: ['wp_block'],
  },
};

export function isTaxonomyName(value: unknown): value is TaxonomyName {
  return typeof value === 'string' && Object.hasOwn(TAXONOMIES, value);
}
