/** Site-level choices for post types that are not part of the core's site settings. */
import type { ResolvedPostSettings } from '../../services/posts.js';

export type { ResolvedPostSettings };

export interface PostSettings {
  /**
   * The permalink structure, with the reference's tags (`%year%`, `%monthnum%`, `%day%`, `%hour%`, `%minute%`,
   * `%second%`, `%postname%`, `%post_id%`, `%author%`, `%category%`). `''` gives plain links (`/?p=123`).
   * Default `/%year%/%monthnum%/%day%/%postname%/`.
   */
  permalinkStructure?: string;
  /** Templates a post type may use, by type: template file → display name. Default: none. */
  templates?: Readonly<Record<string, Readonly<Record<string, string>>>>;
  /** Whether DELETE without `force` moves records to the trash. Default true. */
  trash?: boolean;
  /**
   * The key autosave preview links are signed with. Default: a key derived from the site secret
   * (`createCms({ secret })`), which every process of the site shares.
   */
  previewSecret?: string;
}

export const DEFAULT_PERMALINK_STRUCTURE = '/%year%/%monthnum%/%day%/%postname%/';

export function resolvePostSettings(settings: PostSettings | undefined): ResolvedPostSettings {
  return {
    permalinkStructure: settings?.permalinkStructure ?? DEFAULT_PERMALINK_STRUCTURE,
    templates: settings?.templates ?? {},
    trash: settings?.trash ?? true,
  };
}
