/** What differs between post types, and the two the kit ships with: posts and pages. */

export interface TaxonomyBinding {
  /** The taxonomy's name, as term records carry it (`category`, `post_tag`). */
  taxonomy: string;
  /** The REST base: the record field, the request field and the list filter name (`categories`, `tags`). */
  restBase: string;
  hierarchical: boolean;
}

export interface PostTypeDefinition {
  /** The type slug stored on records (`post`, `page`). */
  type: string;
  /** The route base below `cms/v2` (`posts`, `pages`). */
  restBase: string;
  /** Pages: `parent` and `menu_order` fields, the `up` link, parent list filters. */
  hierarchical: boolean;
  /** Whether the empty-content check applies (types supporting title, editor and excerpt). */
  supportsExcerpt: boolean;
  /** Posts: the `format` field and list filter. */
  supportsFormats: boolean;
  /** Posts: the `sticky` field and list filters. */
  supportsSticky: boolean;
  /** Pages: `menu_order` as field, filter and order. */
  supportsPageAttributes: boolean;
  taxonomies: readonly TaxonomyBinding[];
  /** Comment and ping status a new record gets when the request does not say. */
  defaultCommentStatus: 'open' | 'closed';
  defaultPingStatus: 'open' | 'closed';
  /** Registered meta keys answered as top-level fields instead of inside `meta` (written through `meta`). */
  topLevelMeta?: readonly string[];
}

export const CATEGORY_TAXONOMY: TaxonomyBinding = { taxonomy: 'category', restBase: 'categories', hierarchical: true };
export const TAG_TAXONOMY: TaxonomyBinding = { taxonomy: 'post_tag', restBase: 'tags', hierarchical: false };

export const POST_TYPE: PostTypeDefinition = Object.freeze({
  type: 'post',
  restBase: 'posts',
  hierarchical: false,
  supportsExcerpt: true,
  supportsFormats: true,
  supportsSticky: true,
  supportsPageAttributes: false,
  taxonomies: [CATEGORY_TAXONOMY, TAG_TAXONOMY],
  defaultCommentStatus: 'open',
  defaultPingStatus: 'open',
});

export const PAGE_TYPE: PostTypeDefinition = Object.freeze({
  type: 'page',
  restBase: 'pages',
  hierarchical: true,
  supportsExcerpt: false,
  supportsFormats: false,
  supportsSticky: false,
  supportsPageAttributes: true,
  taxonomies: [],
  defaultCommentStatus: 'closed',
  defaultPingStatus: 'closed',
});

/** The post formats, `standard` meaning none. */
export const POST_FORMATS = ['standard', 'aside', 'chat', 'gallery', 'link', 'image', 'quote', 'status', 'video', 'audio'] as const;

/** Statuses a write may ask for (the reference's non-internal statuses). */
export const WRITABLE_STATUSES = ['publish', 'future', 'draft', 'pending', 'private'] as const;

/** Every registered status, as list filters accept them (plus `any`). */
export const REGISTERED_STATUSES = [
  'publish', 'future', 'draft', 'pending', 'private', 'trash', 'auto-draft', 'inherit',
  'request-pending', 'request-confirmed', 'request-failed', 'request-completed',
] as const;

/** Statuses `any` leaves out. */
export const EXCLUDED_FROM_ANY: ReadonlySet<string> = new Set(['trash', 'auto-draft']);
