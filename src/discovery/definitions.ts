/**
 * What `/types`, `/taxonomies` and `/statuses` describe: the post types, taxonomies and statuses this site serves
 * over REST, with the reference's facts about each (who may edit them comes from the capability rules).
 */

export interface PostTypeFacts {
  slug: string;
  restBase: string;
  description: string;
  hierarchical: boolean;
  hasArchive: boolean | string;
  viewable: boolean;
  showInNavMenus: boolean;
  showUi: boolean;
  icon: string | null;
  supports: readonly string[];
  /** Taxonomies served over REST that the type uses. */
  taxonomies: readonly string[];
}

export const POST_TYPES: readonly PostTypeFacts[] = [
  {
    slug: 'post', restBase: 'posts', description: '', hierarchical: false, hasArchive: false, viewable: true,
    showInNavMenus: true, showUi: true, icon: 'dashicons-admin-post',
    supports: ['title', 'editor', 'author', 'thumbnail', 'excerpt', 'trackbacks', 'custom-fields', 'comments', 'revisions', 'post-formats', 'autosave'],
    taxonomies: ['category', 'post_tag'],
  },
  {
    slug: 'page', restBase: 'pages', description: '', hierarchical: true, hasArchive: false, viewable: true,
    showInNavMenus: true, showUi: true, icon: 'dashicons-admin-page',
    supports: ['title', 'editor', 'author', 'thumbnail', 'page-attributes', 'custom-fields', 'comments', 'revisions', 'autosave'],
    taxonomies: [],
  },
  {
    slug: 'attachment', restBase: 'media', description: '', hierarchical: false, hasArchive: false, viewable: true,
    showInNavMenus: false, showUi: true, icon: 'dashicons-admin-media',
    supports: ['title', 'author', 'comments'],
    taxonomies: [],
  },
  {
    slug: 'wp_block', restBase: 'blocks', description: '', hierarchical: false, hasArchive: false, viewable: false,
    showInNavMenus: false, showUi: true, icon: null,
    supports: ['title', 'excerpt', 'editor', 'revisions', 'custom-fields', 'autosave'],
    taxonomies: ['wp_pattern_category'],
  },
];

export interface TaxonomyFacts {
  slug: string;
  restBase: string;
  description: string;
  hierarchical: boolean;
  showCloud: boolean;
  types: readonly string[];
  visibility: {
    public: boolean;
    publicly_queryable: boolean;
    show_admin_column: boolean;
    show_in_nav_menus: boolean;
    show_in_quick_edit: boolean;
    show_ui: boolean;
  };
}

const PUBLIC_TAXONOMY = {
  public: true, publicly_queryable: true, show_admin_column: true, show_in_nav_menus: true, show_in_quick_edit: true, show_ui: true,
};

export const TAXONOMIES: readonly TaxonomyFacts[] = [
  { slug: 'category', restBase: 'categories', description: '', hierarchical: true, showCloud: true, types: ['post'], visibility: PUBLIC_TAXONOMY },
  { slug: 'post_tag', restBase: 'tags', description: '', hierarchical: false, showCloud: true, types: ['post'], visibility: PUBLIC_TAXONOMY },
  {
    slug: 'wp_pattern_category', restBase: 'wp_pattern_category', description: '', hierarchical: false, showCloud: false, types: ['wp_block'],
    visibility: {
      public: false, publicly_queryable: false, show_admin_column: true, show_in_nav_menus: false, show_in_quick_edit: true, show_ui: true,
    },
  },
];

/** Taxonomies the reference registers without a REST route (or that this site does not serve): readable by nobody. */
export const HIDDEN_TAXONOMIES: ReadonlySet<string> = new Set(['nav_menu', 'link_category', 'post_format', 'wp_theme', 'wp_template_part_area']);

export interface StatusFacts {
  slug: string;
  name: string;
  public: boolean;
  private: boolean;
  protected: boolean;
  internal: boolean;
  queryable: boolean;
  showInList: boolean;
  dateFloating: boolean;
}

const status = (slug: string, name: string, flags: Partial<Omit<StatusFacts, 'slug' | 'name'>>): StatusFacts => {
  const internal = flags.internal ?? false;
  const isPublic = flags.public ?? false;
  return {
    slug,
    name,
    public: isPublic,
    private: flags.private ?? false,
    protected: flags.protected ?? false,
    internal,
    queryable: flags.queryable ?? isPublic,
    showInList: flags.showInList ?? !internal,
    dateFloating: flags.dateFloating ?? false,
  };
};

/** Every registered status, in the reference's order. */
export const STATUSES: readonly StatusFacts[] = [
  status('publish', 'Published', { public: true }),
  status('future', 'Scheduled', { protected: true }),
  status('draft', 'Draft', { protected: true, dateFloating: true }),
  status('pending', 'Pending', { protected: true, dateFloating: true }),
  status('private', 'Private', { private: true }),
  status('trash', 'Trash', { internal: true }),
  status('auto-draft', 'auto-draft', { internal: true, dateFloating: true }),
  status('inherit', 'inherit', { internal: true }),
  status('request-pending', 'Pending', { internal: true }),
  status('request-confirmed', 'Confirmed', { internal: true }),
  status('request-failed', 'Failed', { internal: true }),
  status('request-completed', 'Completed', { internal: true }),
];
