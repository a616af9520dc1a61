import {
  CORE_POST_TYPE_CAPABILITIES,
  CORE_TAXONOMY_CAPABILITIES,
  type PostTypeCapabilities,
  type TaxonomyCapabilities,
} from './object-capabilities.js';

/**
 * How a post status reads: `public` to everyone with the type's `read` capability, `private` to those who may
 * read private posts, `protected`/`internal` only to those who may edit the post (and its author).
 */
export type PostStatusVisibility = 'public' | 'private' | 'protected' | 'internal';

export const CORE_POST_STATUSES: Readonly<Record<string, PostStatusVisibility>> = Object.freeze({
  publish: 'public',
  future: 'protected',
  draft: 'protected',
  pending: 'protected',
  private: 'private',
  trash: 'internal',
  'auto-draft': 'internal',
  inherit: 'internal',
});

/** Site-level facts the capability mapping depends on. Every field is optional and defaults as in the reference. */
export interface CapabilityRuleOptions {
  /** Extra post types (or replacements for core ones), by slug. */
  postTypes?: Readonly<Record<string, PostTypeCapabilities>>;
  /** Extra taxonomies (or replacements for core ones), by slug. */
  taxonomies?: Readonly<Record<string, TaxonomyCapabilities>>;
  /** Extra post statuses, by slug. A status not listed here or in the core set is checked like `edit_others_posts`. */
  postStatuses?: Readonly<Record<string, PostStatusVisibility>>;
  /** `false` takes `unfiltered_html` away from everyone (the reference's `DISALLOW_UNFILTERED_HTML`). Default true. */
  allowUnfilteredHtml?: boolean;
  /** `true` lets holders of `unfiltered_upload` use it (the reference's `ALLOW_UNFILTERED_UPLOADS`). Default false. */
  allowUnfilteredUploads?: boolean;
  /** Whether `manage_links` is usable. Default false, as on a new install. */
  linkManagerEnabled?: boolean;
  /** `false` disables the file editors (`DISALLOW_FILE_EDIT`). Default true. */
  allowFileEdits?: boolean;
  /** `false` disables installing, updating and deleting code (`DISALLOW_FILE_MODS`). Default true. */
  allowFileModifications?: boolean;
}

export type PostMetaCapability = 'edit_post' | 'read_post' | 'delete_post';

export interface CapabilityRules {
  readonly postTypes: Readonly<Record<string, PostTypeCapabilities>>;
  readonly taxonomies: Readonly<Record<string, TaxonomyCapabilities>>;
  readonly postStatuses: Readonly<Record<string, PostStatusVisibility>>;
  readonly allowUnfilteredHtml: boolean;
  readonly allowUnfilteredUploads: boolean;
  readonly linkManagerEnabled: boolean;
  readonly allowFileEdits: boolean;
  readonly allowFileModifications: boolean;
  /** Post types' own names for the post meta capabilities (`edit_block` → `edit_post`). */
  readonly postMetaCapabilityAliases: ReadonlyMap<string, PostMetaCapability>;
}

const POST_META_CAPABILITIES: readonly PostMetaCapability[] = ['edit_post', 'read_post', 'delete_post'];

export function createCapabilityRules(options: CapabilityRuleOptions = {}): CapabilityRules {
  const postTypes = Object.freeze({ ...CORE_POST_TYPE_CAPABILITIES, ...options.postTypes });
  const postMetaCapabilityAliases = new Map<string, PostMetaCapability>();
  for (const capabilities of Object.values(postTypes)) {
    for (const generic of POST_META_CAPABILITIES) {
      const own = capabilities[generic];
      if (own !== generic) postMetaCapabilityAliases.set(own, generic);
    }
  }
  return Object.freeze({
    postTypes,
    taxonomies: Object.freeze({ ...CORE_TAXONOMY_CAPABILITIES, ...options.taxonomies }),
    postStatuses: Object.freeze({ ...CORE_POST_STATUSES, ...options.postStatuses }),
    allowUnfilteredHtml: options.allowUnfilteredHtml ?? true,
    allowUnfilteredUploads: options.allowUnfilteredUploads ?? false,
    linkManagerEnabled: options.linkManagerEnabled ?? false,
    allowFileEdits: options.allowFileEdits ?? true,
    allowFileModifications: options.allowFileModifications ?? true,
    postMetaCapabilityAliases,
  });
}

export const DEFAULT_CAPABILITY_RULES: CapabilityRules = createCapabilityRules();
