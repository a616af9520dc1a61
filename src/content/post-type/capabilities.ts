/** Capability names and subjects for post-type checks. */
import { CORE_POST_TYPE_CAPABILITIES, userCan, type CapabilityRules, type PostSubject, type PostTypeCapabilities } from '../../auth/index.js';
import type { Principal } from '../../core/context.js';
import type { Site } from '../../core/site.js';
import type { PostTypeDefinition } from './definition.js';
import type { PostRecord } from './record.js';

export function capabilitiesOf(definition: Pick<PostTypeDefinition, 'type'>, rules: CapabilityRules): PostTypeCapabilities {
  return rules.postTypes[definition.type] ?? CORE_POST_TYPE_CAPABILITIES.post!;
}

/**
 * A status no rule knows: where the parent of an `inherit` record is not known, its read check assumes the
 * strictest status rather than "published".
 */
const UNKNOWN_PARENT_STATUS = 'inherit';

/**
 * The status an `inherit` record's read check takes from its parent (the reference's `get_post_status()`): none
 * when there is no parent (or it is gone, or is the record itself), the status before trashing for a trashed
 * parent (published when it was not kept).
 */
export function inheritedStatus(parent: Pick<PostRecord, 'status' | 'trashed_from_status'> | null): string | undefined {
  if (!parent) return undefined;
  if (parent.status === 'trash') return parent.trashed_from_status || 'publish';
  return parent.status;
}

/**
 * The capability subject of a post from its own fields (type, status, author and, while trashed, the status it
 * had before), for callers that hold those fields without the record (comments keep them beside each comment).
 */
export function postSubject(post: Pick<PostRecord, 'type' | 'status' | 'author' | 'trashed_from_status'>): PostSubject {
  const subject: PostSubject = { type: post.type, status: post.status, authorId: post.author };
  if (post.status === 'trash' && post.trashed_from_status) subject.trashedFromStatus = post.trashed_from_status;
  return subject;
}

/**
 * What the capability rules look at in a record. `parent` is the record's parent when it was loaded (`null`
 * when it has none or it no longer exists); an `inherit` record whose parent was not looked up reads as the
 * strictest status.
 */
export function subjectOf(post: PostRecord, site: Pick<Site, 'pageOnFront' | 'pageForPosts'>, parent?: PostRecord | null): PostSubject {
  const subject = postSubject(post);
  if (post.status === 'inherit' && post.parent > 0 && post.parent !== post.id) {
    const status = parent === undefined ? UNKNOWN_PARENT_STATUS : inheritedStatus(parent);
    if (status !== undefined) subject.parentStatus = status;
  }
  if (post.type === 'page') {
    if (site.pageOnFront > 0 && site.pageOnFront === post.id) subject.isFrontPage = true;
    if (site.pageForPosts > 0 && site.pageForPosts === post.id) subject.isPostsPage = true;
  }
  return subject;
}

/** A capability check bound to one request's user, rules and site. */
export interface Abilities {
  readonly user: Principal | null;
  /** A primitive or type-level capability (`publish_posts`, `unfiltered_html`). */
  can(capability: string): boolean;
  canEdit(post: PostRecord): boolean;
  canDelete(post: PostRecord): boolean;
  /** `edit_post` on a subject that stands for many records (list conditions); reading is `readsPost`'s. */
  canEditSubject(subject: PostSubject): boolean;
}

export function abilitiesFor(user: Principal | null, rules: CapabilityRules, site: Pick<Site, 'pageOnFront' | 'pageForPosts'>): Abilities {
  return new UserAbilities(user, rules, site);
}

/** A class rather than a literal of closures: one object per request. */
class UserAbilities implements Abilities {
  constructor(readonly user: Principal | null, readonly rules: CapabilityRules, readonly site: Pick<Site, 'pageOnFront' | 'pageForPosts'>) {}

  can(capability: string): boolean {
    return userCan(this.user, capability, undefined, this.rules);
  }

  /** The latest `canEdit` verdict that holds for every record of its type, status and ownership. */
  #lastEdit: { type: string; status: string; own: boolean; verdict: boolean } | null = null;

  /**
   * Editing a record depends on its type, status and whether the user wrote it, but for trashed records (their
   * status before) and revisions (their parent): a list's records mostly share those, so the last verdict is
   * reused for the next record like it.
   */
  canEdit(post: PostRecord): boolean {
    if (post.status === 'trash' || post.type === 'revision') return userCan(this.user, 'edit_post', subjectOf(post, this.site), this.rules);
    const own = this.user !== null && post.author !== 0 && post.author === this.user.id;
    const last = this.#lastEdit;
    if (last !== null && last.type === post.type && last.status === post.status && last.own === own) return last.verdict;
    const verdict = userCan(this.user, 'edit_post', subjectOf(post, this.site), this.rules);
    this.#lastEdit = { type: post.type, status: post.status, own, verdict };
    return verdict;
  }

  canDelete(post: PostRecord): boolean {
    return userCan(this.user, 'delete_post', subjectOf(post, this.site), this.rules);
  }

  canEditSubject(subject: PostSubject): boolean {
    return userCan(this.user, 'edit_post', subject, this.rules);
  }
}
