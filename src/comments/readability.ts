/**
 * Who may read which comment (the reference's `check_read_permission` of the comments controller), in two forms
 * that give the same verdicts: a predicate for one comment, and a storage condition for lists, so that a list
 * returns — and counts — only what the caller may read.
 *
 * A comment is readable when it is approved and its post is readable (a password-protected post only by those
 * who may edit it, unless the request unlocked it with the password); and, for a logged-in caller, when it is
 * their own, when they may edit its post (`edit_comment`), or — for a comment without a post — when they may
 * moderate comments. A single read also needs the post to be readable; lists apply the same rule (the reference
 * lists one's own comments on posts one may not read, which a single read then refuses).
 */
import { userCan, type CapabilityRules, type PostSubject, type Principal } from '../auth/index.js';
import { postSubject, readsPost } from '../content/post-type/index.js';
import type { Condition } from '../ports/storage.js';
import type { PostFacts } from './record.js';

const PUBLISHED = ['publish', 'future'];

export interface Viewer {
  readonly user: Principal | null;
  readonly rules: CapabilityRules;
}

function subject(viewer: Viewer, facts: PostFacts, own: boolean): PostSubject {
  const post: Parameters<typeof postSubject>[0] = {
    type: facts.post_type ?? '',
    status: facts.post_status ?? '',
    // Someone else's: an id no user has.
    author: own && viewer.user ? viewer.user.id : -1,
  };
  if (facts.post_trashed_from !== null) post.trashed_from_status = facts.post_trashed_from;
  return postSubject(post);
}

function isOwn(viewer: Viewer, facts: PostFacts): boolean {
  return viewer.user !== null && viewer.user.id > 0 && facts.post_author === viewer.user.id;
}


export function canEditPost(viewer: Viewer, facts: PostFacts, own = isOwn(viewer, facts)): boolean {
  if (facts.post_type === null) return userCan(viewer.user, 'edit_posts', undefined, viewer.rules);
  return userCan(viewer.user, 'edit_post', subject(viewer, facts, own), viewer.rules);
}

/** Whether the caller may read the post for comment purposes (`check_read_post_permission`). */
export function canReadPostOf(viewer: Viewer, facts: PostFacts, unlocked = false, own = isOwn(viewer, facts)): boolean {
  if (facts.post_type === null) return false;
  if (facts.post_protected && !unlocked) return canEditPost(viewer, facts, own);
  return readsPost(viewer.user, subject(viewer, facts, own), viewer.rules);
}

export function canModerate(viewer: Viewer): boolean {
  return userCan(viewer.user, 'moderate_comments', undefined, viewer.rules);
}

/** The predicate: whether the caller may read a comment with these fields. */
export function isReadable(
  comment: PostFacts & { post: number; user_id: number; status: string },
  viewer: Viewer,
  unlockedPost = 0,
): boolean {
  if (comment.post !== 0 && comment.status === 'approved' && canReadPostOf(viewer, comment, unlockedPost === comment.post)) return true;
  const user = viewer.user;
  if (user === null || user.id <= 0) return false;
  if (comment.post === 0 && !canModerate(viewer)) return false;
  if (comment.user_id !== 0 && comment.user_id === user.id) return true;
  if (comment.post === 0) return userCan(user, 'edit_posts', undefined, viewer.rules);
  return canEditPost(viewer, comment);
}

const TRUE: Condition = { op: 'and', conditions: [] };
const FALSE: Condition = { op: 'or', conditions: [] };

const and = (...conditions: Condition[]): Condition => {
  if (conditions.some((condition) => condition === FALSE)) return FALSE;
  const kept = conditions.filter((condition) => condition !== TRUE);
  return kept.length === 1 ? kept[0]! : { op: 'and', conditions: kept };
};
const or = (...conditions: Condition[]): Condition => {
  if (conditions.some((condition) => condition === TRUE)) return TRUE;
  const kept = conditions.filter((condition) => condition !== FALSE);
  return kept.length === 1 ? kept[0]! : { op: 'or', conditions: kept };
};

/** One class of posts the capability rules cannot tell apart: a status, or a trash with its earlier status. */
interface StatusClass {
  facts: Pick<PostFacts, 'post_status' | 'post_trashed_from'>;
  condition: Condition;
}

function statusClasses(rules: CapabilityRules): StatusClass[] {
  const known = [...new Set(['publish', ...Object.keys(rules.postStatuses)])];
  const classes: StatusClass[] = known.filter((status) => status !== 'trash').map((status) => ({
    facts: { post_status: status, post_trashed_from: null },
    condition: { field: 'post_status', op: 'eq', value: status },
  }));
  const trash: Condition = { field: 'post_status', op: 'eq', value: 'trash' };
  classes.push(
    { facts: { post_status: 'trash', post_trashed_from: 'publish' }, condition: and(trash, { field: 'post_trashed_from', op: 'in', values: PUBLISHED }) },
    { facts: { post_status: 'trash', post_trashed_from: 'draft' }, condition: and(trash, { field: 'post_trashed_from', op: 'notIn', values: PUBLISHED }) },
    // A status nobody registered: the rules treat it like someone else's post.
    { facts: { post_status: '\u0000unregistered', post_trashed_from: null }, condition: { field: 'post_status', op: 'notIn', values: known } },
  );
  return classes;
}

/**
 * The condition matching posts (through a comment's copy of their facts) that `verdict` accepts. Posts are
 * grouped by type, ownership and password protection; within a group the accepted statuses are listed.
 */
function postCondition(viewer: Viewer, verdict: (facts: PostFacts, own: boolean) => boolean): Condition {
  const types = Object.keys(viewer.rules.postTypes);
  const typeGroups: [string, Condition][] = types.map((type) => [type, { field: 'post_type', op: 'eq', value: type }]);
  typeGroups.push(['\u0000unregistered', and({ field: 'post_type', op: 'ne', value: null }, { field: 'post_type', op: 'notIn', values: types })]);
  const me = viewer.user && viewer.user.id > 0 ? viewer.user.id : null;
  const owners: [boolean, Condition][] = me === null
    ? [[false, TRUE]]
    : [[true, { field: 'post_author', op: 'eq', value: me }], [false, { field: 'post_author', op: 'ne', value: me }]];
  const classes = statusClasses(viewer.rules);

  const groups: Condition[] = [];
  for (const [type, typeCondition] of typeGroups) {
    for (const protectedPost of [false, true]) {
      const accepted = owners.map(([own, ownerCondition]) => {
        const statuses = classes.filter((statusClass) => verdict({
          post_type: type, post_author: null, post_protected: protectedPost, ...statusClass.facts,
        }, own));
        return { ownerCondition, statuses };
      });
      const sameForBoth = accepted.length === 2 && accepted[0]!.statuses.length === accepted[1]!.statuses.length
        && accepted[0]!.statuses.every((statusClass, index) => statusClass === accepted[1]!.statuses[index]);
      const parts = sameForBoth ? [{ ownerCondition: TRUE, statuses: accepted[0]!.statuses }] : accepted;
      for (const { ownerCondition, statuses } of parts) {
        if (statuses.length === 0) continue;
        const statusCondition = statuses.length === classes.length ? TRUE : or(...statuses.map((statusClass) => statusClass.condition));
        groups.push(and(typeCondition, { field: 'post_protected', op: 'eq', value: protectedPost }, ownerCondition, statusCondition));
      }
    }
  }
  return or(...groups);
}

/**
 * The storage condition for the comments the caller may read, as a single read decides it: the comment passes
 * `isReadable` and its post is readable too (a list never shows what a single read refuses, nor counts it).
 * `unlockedPost` is a post whose password the request gave correctly (only when the request names that one post).
 */
export function readableCondition(viewer: Viewer, unlockedPost = 0): Condition {
  const readablePost = or(
    postCondition(viewer, (facts, own) => canReadPostOf(viewer, facts, false, own)),
    unlockedPost > 0
      ? and({ field: 'post', op: 'eq', value: unlockedPost }, postCondition(viewer, (facts, own) => canReadPostOf(viewer, facts, true, own)))
      : FALSE,
  );
  const approved: Condition = { field: 'status', op: 'eq', value: 'approved' };
  const user = viewer.user;
  if (user === null || user.id <= 0) return and({ field: 'post', op: 'ne', value: 0 }, readablePost, approved);

  const editable = postCondition(viewer, (facts, own) => canEditPost(viewer, facts, own));
  const withPost = and(
    { field: 'post', op: 'ne', value: 0 },
    readablePost,
    or(approved, { field: 'user_id', op: 'eq', value: user.id }, editable),
  );
  const withoutPost = canModerate(viewer)
    ? and({ field: 'post', op: 'eq', value: 0 }, or({ field: 'user_id', op: 'eq', value: user.id }, userCan(user, 'edit_posts', undefined, viewer.rules) ? TRUE : FALSE))
    : FALSE;
  return or(withPost, withoutPost);
}
