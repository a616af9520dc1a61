/** Permission checks of the comment routes, in the reference's order, with its codes and messages. */
import { passwordMatches, type PostRecord } from '../content/post-type/index.js';
import { userCan } from '../auth/index.js';
import type { AnyParams, PermissionResult, RequestContext } from '../core/context.js';
import { CmsError, forbidden } from '../core/errors.js';
import type { CommentsDeps, ResolvedCommentOptions } from './options.js';
import type { CommentRecord } from './record.js';
import { canEditPost, canModerate, canReadPostOf, isReadable, type Viewer } from './readability.js';
import { getComment, getPost, postFactsOf } from './service.js';
import { isEmpty } from '../format/php.js';

export function viewerOf(context: RequestContext, deps: Pick<CommentsDeps, 'capabilityRules'>): Viewer {
  return { user: context.user, rules: deps.capabilityRules };
}

export function invalidCommentId(): CmsError {
  return new CmsError('rest_comment_invalid_id', 'Invalid comment ID.', 404);
}

/**
 * The comment the URL names, with its post (loaded once per request); a missing one is the reference's 404s.
 * Every `/comments/{id}` row declares `id` (an integer argument).
 */
export async function loadComment(
  context: RequestContext<AnyParams & { readonly id?: number }>, deps: CommentsDeps,
): Promise<{ comment: CommentRecord; post: PostRecord | null }> {
  const id = context.params.id ?? 0;
  return context.memo(`comment:${id}`, async () => {
    const comment = await getComment(deps.storage, id);
    if (!comment) throw invalidCommentId();
    const post = comment.post !== 0 ? await getPost(deps.storage, comment.post) : null;
    if (comment.post !== 0 && !post) throw new CmsError('rest_post_invalid_id', 'Invalid post ID.', 404);
    return { comment, post };
  });
}

/**
 * Whether the request may see a password-protected post's comments without editing it: editors of the post in
 * the edit context, or whoever sent the right password (the reference's `can_access_password_content`).
 */
export function unlocksPost(post: PostRecord, context: RequestContext, viewer: Viewer, facts: Awaited<ReturnType<typeof postFactsOf>>): boolean {
  // Other records of the posts collection (forms) have no password.
  if (typeof post.password !== 'string' || post.password === '') return false;
  if (context.context === 'edit' && canEditPost(viewer, facts)) return true;
  const password = context.params.password;
  return typeof password === 'string' && password !== '' && passwordMatches(post.password, password);
}

function cannotReadPost(context: RequestContext): CmsError {
  return forbidden(context.user, 'rest_cannot_read_post', 'Sorry, you are not allowed to read the post for this comment.');
}

export async function canListComments(context: RequestContext, deps: CommentsDeps): Promise<PermissionResult> {
  const viewer = viewerOf(context, deps);
  const posts = context.params.post;
  if (!isEmpty(posts)) {
    const ids = (Array.isArray(posts) ? posts : [posts]).map(Number);
    for (const id of ids) {
      const post = id !== 0 ? await getPost(deps.storage, id) : null;
      if (post) {
        const facts = await postFactsOf(deps.storage, post);
        const unlocked = ids.length === 1 && unlocksPost(post, context, viewer, facts);
        if (!canReadPostOf(viewer, facts, unlocked)) return cannotReadPost(context);
      } else if (id === 0 && !canModerate(viewer)) {
        return forbidden(context.user, 'rest_cannot_read', 'Sorry, you are not allowed to read comments without a post.');
      }
    }
  }
  if (context.context === 'edit' && !canModerate(viewer)) {
    return forbidden(context.user, 'rest_forbidden_context', 'Sorry, you are not allowed to edit comments.');
  }
  if (!userCan(context.user, 'edit_posts', undefined, deps.capabilityRules)) {
    const refused: string[] = [];
    for (const name of ['author', 'author_exclude', 'author_email', 'type', 'status']) {
      const value = context.params[name];
      if (name === 'status' ? value !== 'approve' : name === 'type' ? value !== 'comment' : !isEmpty(value)) refused.push(name);
    }
    if (refused.length > 0) return forbidden(context.user, 'rest_forbidden_param', `Query parameter not permitted: ${refused.join(', ')}`);
  }
  return true;
}

export async function canReadComment(context: RequestContext, deps: CommentsDeps): Promise<PermissionResult> {
  const { comment, post } = await loadComment(context, deps);
  const viewer = viewerOf(context, deps);
  if (context.context === 'edit' && !canModerate(viewer)) {
    return forbidden(context.user, 'rest_forbidden_context', 'Sorry, you are not allowed to edit comments.');
  }
  const facts = await postFactsOf(deps.storage, post);
  const unlocked = post !== null && unlocksPost(post, context, viewer, facts);
  if (!isReadable({ ...comment, ...facts }, viewer, unlocked ? comment.post : 0)) {
    return forbidden(context.user, 'rest_cannot_read', 'Sorry, you are not allowed to read this comment.');
  }
  if (post && !canReadPostOf(viewer, facts, unlocked)) return cannotReadPost(context);
  return true;
}

/** Moderators may edit any comment; others the comments of posts they may edit (`edit_comment`). */
export async function canEditComment(context: RequestContext, deps: CommentsDeps, post: PostRecord | null): Promise<boolean> {
  if (!context.user || context.user.id <= 0) return false;
  const viewer = viewerOf(context, deps);
  if (canModerate(viewer)) return true;
  return canEditPost(viewer, await postFactsOf(deps.storage, post));
}

export async function canUpdateComment(context: RequestContext, deps: CommentsDeps): Promise<PermissionResult> {
  const { post } = await loadComment(context, deps);
  if (await canEditComment(context, deps, post)) return true;
  return forbidden(context.user, 'rest_cannot_edit', 'Sorry, you are not allowed to edit this comment.');
}

export async function canDeleteComment(context: RequestContext, deps: CommentsDeps): Promise<PermissionResult> {
  const { post } = await loadComment(context, deps);
  if (await canEditComment(context, deps, post)) return true;
  return forbidden(context.user, 'rest_cannot_delete', 'Sorry, you are not allowed to delete this comment.');
}

function notAllowedToSet(context: RequestContext, field: string, code: string): CmsError {
  return forbidden(context.user, code, `Sorry, you are not allowed to edit '${field}' for comments.`);
}

export async function canCreateComment(context: RequestContext<AnyParams & { readonly post?: number }>, deps: CommentsDeps, options: ResolvedCommentOptions): Promise<PermissionResult> {
  const loggedIn = context.user !== null && context.user.id > 0;
  if (!loggedIn && (options.registrationRequired || !options.allowAnonymous)) {
    return new CmsError('rest_comment_login_required', 'Sorry, you must be logged in to comment.', 401);
  }
  const viewer = viewerOf(context, deps);
  const moderator = canModerate(viewer);
  const { params } = context;
  if (params.author !== undefined && params.author !== null && (context.user?.id ?? 0) !== params.author && !moderator) {
    return notAllowedToSet(context, 'author', 'rest_comment_invalid_author');
  }
  if (params.author_ip !== undefined && params.author_ip !== null && !moderator) {
    return notAllowedToSet(context, 'author_ip', 'rest_comment_invalid_author_ip');
  }
  if (params.status !== undefined && params.status !== null && !moderator) {
    return notAllowedToSet(context, 'status', 'rest_comment_invalid_status');
  }
  const noPost = () => new CmsError('rest_comment_invalid_post_id', 'Sorry, you are not allowed to create this comment without a post.', 403);
  if (isEmpty(params.post)) return noPost();
  const post = await getPost(deps.storage, params.post ?? 0);
  if (!post) return noPost();
  if (post.status === 'draft') return new CmsError('rest_comment_draft_post', 'Sorry, you are not allowed to create a comment on this post.', 403);
  if (post.status === 'trash') return new CmsError('rest_comment_trash_post', 'Sorry, you are not allowed to create a comment on this post.', 403);
  const facts = await postFactsOf(deps.storage, post);
  if (!canReadPostOf(viewer, facts, unlocksPost(post, context, viewer, facts))) return cannotReadPost(context);
  if (post.comment_status !== 'open') return new CmsError('rest_comment_closed', 'Sorry, comments are closed for this item.', 403);
  return true;
}
