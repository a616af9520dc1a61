/**
 * Whether a post may be read: the one rule, for every module that shows posts or something of them (posts and
 * pages, media, revisions, comments, terms, search, embeds, sliders). A post is readable by anyone when its
 * status is published or public and its type's `read` capability is plain `read`; otherwise by whoever holds
 * `read_post` on it (the capability rules take its
 * type, author and, while trashed, its earlier status). An `inherit` record (an attachment) with a parent is
 * readable exactly when its parent is.
 *
 * The rule comes in the forms its callers need and each form calls the one below it: `canReadPost` for a loaded
 * record, `readsPost` for a capability subject (list conditions and comments hold the post's fields, not the
 * record), `isPublicStatus` for what needs no user at all, and `publicStatusCondition` for queries of it.
 */
import { userCan, type CapabilityRules, type PostSubject, type Principal } from '../../auth/index.js';
import type { RequestContext } from '../../core/context.js';
import type { Condition } from '../../ports/storage.js';
import { subjectOf } from './capabilities.js';
import type { PostTypeDeps } from './define.js';
import { postsIn, type PostRecord } from './record.js';
import { asPublishedWhenDue, requestNow } from './scheduler.js';

/** How far `inherit` records are followed up to a parent that decides. */
const MAX_INHERIT_DEPTH = 8;

/** Whether anyone, logged in or not, may read posts of this status. */
export function isPublicStatus(status: string, rules: CapabilityRules): boolean {
  return status === 'publish' || rules.postStatuses[status] === 'public';
}

/** The statuses anyone may read, as a storage condition on `status`. */
export function publicStatusCondition(rules: CapabilityRules): Condition {
  const statuses = ['publish', ...Object.keys(rules.postStatuses).filter((status) => status !== 'publish' && isPublicStatus(status, rules))];
  return statuses.length === 1 ? { field: 'status', op: 'eq', value: statuses[0]! } : { field: 'status', op: 'in', values: statuses };
}

/**
 * Whether posts of this type need `read_post` whatever their status: a type whose `read` capability is not plain
 * `read` (reusable blocks need `edit_posts`), as the reference's blocks controller asks `read_post` first.
 */
function readNeedsCapability(type: string, rules: CapabilityRules): boolean {
  return (rules.postTypes[type]?.read ?? 'read') !== 'read';
}

/** Whether anyone may read the post whoever asks: a published or public status on a type read with plain `read`. */
export function isReadableByAnyone(post: Pick<PostRecord, 'type' | 'status'>, rules: CapabilityRules): boolean {
  return !readNeedsCapability(post.type, rules) && isPublicStatus(post.status, rules);
}

/** Whether `user` may read a post with these capability facts (the reference's posts controller `check_read_permission`). */
export function readsPost(user: Principal | null, subject: PostSubject, rules: CapabilityRules): boolean {
  if (readNeedsCapability(subject.type, rules)) return userCan(user, 'read_post', subject, rules);
  return isPublicStatus(subject.status, rules) || userCan(user, 'read_post', subject, rules);
}

/** The caller: who asks, on which site, with the request's memo (records are loaded once per request). */
export type Reader = Pick<RequestContext, 'user' | 'site' | 'memo'>;

/**
 * Whether the caller may read the record. An `inherit` record with a parent follows its parent: the reference
 * would also show it to whoever passes its own check, which takes the parent's status before trashing and the
 * attachment's author, and so shows the media of a trashed post to any logged-in user.
 */
export async function canReadPost(
  caller: Reader, post: PostRecord, deps: Pick<PostTypeDeps, 'storage' | 'clock' | 'capabilityRules'>, depth = 0,
): Promise<boolean> {
  const rules = deps.capabilityRules;
  if (readNeedsCapability(post.type, rules)) return readsPost(caller.user, subjectOf(post, caller.site), rules);
  if (isPublicStatus(post.status, rules)) return true;
  if (post.status === 'inherit') {
    const parent = await loadParent(caller, post, deps);
    if (!parent) return true;
    return depth < MAX_INHERIT_DEPTH && canReadPost(caller, parent, deps, depth + 1);
  }
  return readsPost(caller.user, subjectOf(post, caller.site), rules);
}

/** The parent of a record, loaded once per request and read as of the request's time; `null` when there is none. */
async function loadParent(caller: Reader, post: PostRecord, deps: Pick<PostTypeDeps, 'storage' | 'clock'>): Promise<PostRecord | null> {
  if (!(post.parent > 0) || post.parent === post.id) return null;
  const record = await caller.memo(`post:${post.parent}`, () => postsIn(deps.storage).get(post.parent));
  return record && asPublishedWhenDue(record, requestNow(caller, deps));
}
