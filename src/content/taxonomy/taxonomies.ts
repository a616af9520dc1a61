/** The two built-in taxonomies: how each is stored, routed and linked. */
export type TaxonomyName = 'category' | 'post_tag';

export interface TaxonomyDefinition {
  readonly name: TaxonomyName;
  /** Route base below `cms/v2`, also the post list filter of the same name. */
  readonly restBase: 'categories' | 'tags';
  /** The field of a post record holding the ids of its terms in this taxonomy. */
  readonly postField: 'categories' | 'tags';
  /** First path segment of a term's public archive URL. */
  readonly archiveBase: 'category' | 'tag';
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
};

export function isTaxonomyName(value: unknown): value is TaxonomyName {
  return value === 'category' || value === 'post_tag';
}
