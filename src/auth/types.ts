/** The authenticated party of a request and the objects capability checks are made against. */

/** Someone who is logged in; the core's type, so the pipeline and the capability rules share one shape. */
import type { Principal } from '../core/context.js';

export type { Principal };

/** A principal authenticated with an application password: it carries that password's uuid (for introspection). */
export interface ApplicationPasswordPrincipal extends Principal {
  readonly applicationPassword: string;
}

/** A post, page, attachment or other post-type record, reduced to what the capability rules look at. */
export interface PostSubject {
  /** The post type slug: `post`, `page`, `attachment`, `revision`, ... */
  type: string;
  status: string;
  /** 0 when the post has no author; such a post counts as someone else's for everyone. */
  authorId: number;
  /**
   * Attachments with status `inherit`: the status of the parent post, or `undefined` when there is no parent
   * (then the attachment counts as published). For a trashed parent pass its status from before trashing.
   */
  parentStatus?: string;
  /** Status `trash`: the status the post had before it was trashed. */
  trashedFromStatus?: string;
  /** The page shown on the front page (the reference's `page_on_front`). */
  isFrontPage?: boolean;
  /** The page listing the posts (the reference's `page_for_posts`). */
  isPostsPage?: boolean;
  /** The privacy-policy page (the reference's `wp_page_for_privacy_policy`). */
  isPrivacyPolicyPage?: boolean;
  /** Revisions: the post they belong to (`null` when it no longer exists). Read and edit checks use it. */
  parent?: PostSubject | null;
}

/** The user a user-management or application-password capability is checked against. */
export interface UserSubject {
  userId: number;
}

/** A term, for `edit_term`, `delete_term` and `assign_term`. */
export interface TermSubject {
  taxonomy: string;
  /** The taxonomy's default term (the default category), which can never be deleted. */
  isDefault?: boolean;
}

/** A comment, for `edit_comment`: the post it belongs to, or `null` for an orphaned comment. */
export interface CommentSubject {
  post: PostSubject | null;
}

/** Metadata of an object, for `edit_post_meta`, `add_user_meta`, `delete_term_meta`, ... */
export interface MetaSubject {
  object: PostSubject | UserSubject | TermSubject | CommentSubject;
  /** The meta key being written. Keys starting with `_` are protected. */
  metaKey?: string;
  /**
   * The verdict of the key's registration (the reference's `auth_callback`), when it has one. Without it,
   * unprotected keys may be written by whoever may edit the object and protected keys by nobody.
   */
  metaKeyAuthorized?: boolean;
}

export type CapabilitySubject = PostSubject | UserSubject | TermSubject | CommentSubject | MetaSubject;
