/** The capability names a post type or a taxonomy is checked with. */

/** A post type's capability names, keyed by the generic name (the reference's `$post_type->cap`). */
export interface PostTypeCapabilities {
  /** Meta capabilities that stand for `edit_post`, `read_post` and `delete_post` on this type. */
  edit_post: string;
  read_post: string;
  delete_post: string;
  read: string;
  create_posts: string;
  edit_posts: string;
  edit_others_posts: string;
  edit_published_posts: string;
  edit_private_posts: string;
  publish_posts: string;
  read_private_posts: string;
  delete_posts: string;
  delete_others_posts: string;
  delete_published_posts: string;
  delete_private_posts: string;
}

/**
 * The names for a post type whose capabilities are built from a base (`['post', 'posts']`, or `'book'` for
 * `book`/`books`), with individual names overridden. `create_posts` defaults to `edit_posts`.
 */
export function postTypeCapabilities(
  base: string | readonly [singular: string, plural: string],
  overrides: Partial<PostTypeCapabilities> = {},
): PostTypeCapabilities {
  const [singular, plural] = typeof base === 'string' ? [base, `${base}s`] : base;
  const names: Omit<PostTypeCapabilities, 'create_posts'> = {
    edit_post: `edit_${singular}`,
    read_post: `read_${singular}`,
    delete_post: `delete_${singular}`,
    read: 'read',
    edit_posts: `edit_${plural}`,
    edit_others_posts: `edit_others_${plural}`,
    edit_published_posts: `edit_published_${plural}`,
    edit_private_posts: `edit_private_${plural}`,
    publish_posts: `publish_${plural}`,
    read_private_posts: `read_private_${plural}`,
    delete_posts: `delete_${plural}`,
    delete_others_posts: `delete_others_${plural}`,
    delete_published_posts: `delete_published_${plural}`,
    delete_private_posts: `delete_private_${plural}`,
  };
  const merged = { ...names, ...overrides };
  return Object.freeze({ ...merged, create_posts: overrides.create_posts ?? merged.edit_posts });
}

/** The core post types: posts, pages, attachments (created with `upload_files`), revisions and reusable blocks. */
export const CORE_POST_TYPE_CAPABILITIES: Readonly<Record<string, PostTypeCapabilities>> = Object.freeze({
  post: postTypeCapabilities('post'),
  page: postTypeCapabilities('page'),
  attachment: postTypeCapabilities('post', { create_posts: 'upload_files' }),
  revision: postTypeCapabilities('post'),
  wp_block: postTypeCapabilities('block', {
    read: 'edit_posts',
    create_posts: 'publish_posts',
    edit_posts: 'edit_posts',
    edit_published_posts: 'edit_published_posts',
    delete_published_posts: 'delete_published_posts',
    delete_posts: 'delete_posts',
    edit_others_posts: 'edit_others_posts',
    delete_others_posts: 'delete_others_posts',
  }),
});

/** A taxonomy's capability names (the reference's `$taxonomy->cap`). */
export interface TaxonomyCapabilities {
  manage_terms: string;
  edit_terms: string;
  delete_terms: string;
  assign_terms: string;
}

/** The names for a taxonomy; unspecified ones follow the reference's defaults for custom taxonomies. */
export function taxonomyCapabilities(overrides: Partial<TaxonomyCapabilities> = {}): TaxonomyCapabilities {
  return Object.freeze({
    manage_terms: 'manage_categories',
    edit_terms: 'manage_categories',
    delete_terms: 'manage_categories',
    assign_terms: 'edit_posts',
    ...overrides,
  });
}

export const CORE_TAXONOMY_CAPABILITIES: Readonly<Record<string, TaxonomyCapabilities>> = Object.freeze({
  category: taxonomyCapabilities({
    manage_terms: 'manage_categories',
    edit_terms: 'edit_categories',
    delete_terms: 'delete_categories',
    assign_terms: 'assign_categories',
  }),
  post_tag: taxonomyCapabilities({
    manage_terms: 'manage_post_tags',
    edit_terms: 'edit_post_tags',
    delete_terms: 'delete_post_tags',
    assign_terms: 'assign_post_tags',
  }),
  nav_menu: taxonomyCapabilities({
    manage_terms: 'edit_theme_options',
    edit_terms: 'edit_theme_options',
    delete_terms: 'edit_theme_options',
    assign_terms: 'edit_theme_options',
  }),
  wp_pattern_category: taxonomyCapabilities(),
  link_category: taxonomyCapabilities({
    manage_terms: 'manage_links',
    edit_terms: 'manage_links',
    delete_terms: 'manage_links',
    assign_terms: 'manage_links',
  }),
});
