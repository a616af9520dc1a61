/** The handlers of `/comments` and `/comments/{id}`. */
import { nowDates } from '../content/post-type/index.js';
import { takeOrRefuse, userCan } from '../auth/index.js';
import { filterByContext } from '../core/shape.js';
import type { HandlerResult, RequestContext } from '../core/context.js';
import { CmsError } from '../core/errors.js';
import { turnTaker } from '../format/turn.js';
import { collection, created, item, reply } from '../core/response.js';
import type { Params } from '../core/args/define.js';
import { paging } from '../core/paging.js';
import type { deleteArgs, listArgs, readArgs, writeArgs } from './args.js';
import { getUser, principalOf } from '../users/index.js';
import { checkLengths, cleanAuthorFields, readChanges, type CommentChanges } from './fields.js';
import { applyStatus, checkDuplicate, checkFlood, initialStatus, isKnownStatusRequest } from './moderation.js';
import { resolveCommentOptions, type CommentsDeps } from './options.js';
import { loadComment, unlocksPost, viewerOf } from './permissions.js';
import { prepareComment, type PrepareEnvironment } from './prepare.js';
import { listQuery } from './query.js';
import { canModerate } from './readability.js';
import type { CommentRecord } from './record.js';
import { commentSchema } from './schema.js';
import { deleteComment as removeComment, getComment, getPost, insertComment, listComments as findComments, postFactsOf, updateComment as saveComment } from './service.js';
import { addUserGeneratedRel, sanitizeCommentHtml } from './text.js';
import { isEmpty } from '../format/php.js';

const EDIT = { context: 'edit' } as const;

export function environment(context: RequestContext, deps: CommentsDeps): PrepareEnvironment {
  return {
    storage: deps.storage,
    site: context.site,
    permalinkStructure: deps.postSettings.permalinkStructure,
    smilies: context.site.useSmilies,
    url: context.url,
    wantsField: context.wantsField,
  };
}

export async function listComments(context: RequestContext<Params<typeof listArgs>>, deps: CommentsDeps): Promise<HandlerResult> {
  const viewer = viewerOf(context, deps);
  const posts = context.params.post;
  let unlockedPost = 0;
  if (posts.length === 1) {
    const post = await getPost(deps.storage, posts[0]!);
    if (post && unlocksPost(post, context, viewer, await postFactsOf(deps.storage, post))) unlockedPost = post.id;
  }
  const { query, page, perPage } = listQuery(context.params, viewer, context.site, unlockedPost);
  const { items, total } = await findComments(deps.storage, query);
  const env = environment(context, deps);
  const records = [];
  // A page holds up to 100 comments of up to 64 KiB, each formatted here: the event loop takes turns between them.
  const take = turnTaker();
  for (const comment of items) {
    records.push(await prepareComment(comment, env));
    await take();
  }
  return collection(records, paging(total, page, perPage));
}

export async function readComment(context: RequestContext<Params<typeof readArgs>>, deps: CommentsDeps): Promise<HandlerResult> {
  const { comment } = await loadComment(context, deps);
  return item(await prepareComment(comment, environment(context, deps)));
}

/** The writer's markup rules: post markup only when both the writer and the comment's author may use it. */
async function cleanContent(context: RequestContext, deps: CommentsDeps, content: string, authorId: number): Promise<string> {
  let unfiltered = userCan(context.user, 'unfiltered_html', undefined, deps.capabilityRules);
  if (unfiltered && authorId !== (context.user?.id ?? 0)) {
    const author = authorId > 0 ? await getUser(deps.storage, authorId) : null;
    unfiltered = author !== null && userCan(principalOf(author, deps.roles), 'unfiltered_html', undefined, deps.capabilityRules);
  }
  return addUserGeneratedRel(await sanitizeCommentHtml(content, unfiltered), context.site.home);
}

/** A reply must answer a comment of the same post. */
async function checkParent(deps: CommentsDeps, parent: number, post: number): Promise<void> {
  if (parent === 0) return;
  const found = await getComment(deps.storage, parent);
  if (!found || found.post !== post) throw new CmsError('rest_comment_invalid_parent', 'The parent comment does not exist on this post.', 400);
}

/** The status a write asks for; an unknown one is ignored and the status stays as it is, as in the reference. */
function requestedStatus(status: unknown): string | undefined {
  return typeof status === 'string' && isKnownStatusRequest(status) ? status : undefined;
}

export async function createComment(context: RequestContext<Params<typeof writeArgs>>, deps: CommentsDeps): Promise<HandlerResult> {
  const { params } = context;
  if (!isEmpty(params.id)) throw new CmsError('rest_comment_exists', 'Cannot create existing comment.', 400);
  if (!isEmpty(params.type) && params.type !== 'comment') throw new CmsError('rest_invalid_comment_type', 'Cannot create a comment with that type.', 400);
  const options = resolveCommentOptions(deps.comments);
  const viewer = viewerOf(context, deps);
  const moderator = canModerate(viewer);
  const status = requestedStatus(params.status);

  const changes: CommentChanges = await readChanges(context, deps.storage, context.site, { creating: true, moderator });
  changes.content ??= '';
  if (changes.content === '') throw new CmsError('rest_comment_content_invalid', 'Invalid comment content.', 400);
  if (changes.date_gmt === undefined) Object.assign(changes, dateFields(deps, context));
  const missingAuthor = !changes.user_id && !changes.author_name && !changes.author_email && !changes.author_url;
  if (context.user && context.user.id > 0 && missingAuthor) {
    const user = await getUser(deps.storage, context.user.id);
    if (user) Object.assign(changes, { user_id: user.id, author_name: user.name, author_email: user.email, author_url: user.url });
  }
  if (options.requireNameEmail && (!changes.author_name || !changes.author_email)) {
    throw new CmsError('rest_comment_author_data_required', 'Creating a comment requires valid author name and email values.', 400);
  }
  checkLengths(changes);

  const post = await getPost(deps.storage, changes.post ?? 0);
  if (!post) throw new CmsError('rest_comment_invalid_post_id', 'Sorry, you are not allowed to create this comment without a post.', 403);
  const cleaned = cleanAuthorFields(changes);
  const userId = cleaned.user_id ?? 0;
  const fields = {
    post: post.id,
    parent: cleaned.parent ?? 0,
    user_id: userId,
    author_name: cleaned.author_name ?? '',
    author_email: cleaned.author_email ?? '',
    author_url: cleaned.author_url ?? '',
    author_ip: cleaned.author_ip ?? '',
    author_user_agent: cleaned.author_user_agent ?? '',
    date: cleaned.date!,
    date_gmt: cleaned.date_gmt!,
    content: await cleanContent(context, deps, cleaned.content!, userId),
    type: 'comment',
  };
  await checkParent(deps, fields.parent, fields.post);
  const author = userId > 0 ? await getUser(deps.storage, userId) : null;
  const trusted = author !== null && (userId === post.author
    || userCan(principalOf(author, deps.roles), 'moderate_comments', undefined, deps.capabilityRules));

  if (!moderator) {
    await takeOrRefuse(deps.throttles?.comments, context.remoteAddress, deps.clock.now().getTime(), 'You are posting comments too quickly. Slow down.');
  }
  const saved = await deps.storage.transaction(async (tx) => {
    await checkDuplicate(tx, fields);
    await checkFlood(tx, fields, options, moderator);
    const approval = await initialStatus(tx, fields, options, trusted);
    const inserted = await insertComment(tx, { ...fields, status: approval, meta: {} });
    return status !== undefined ? applyStatus(tx, inserted, status) : inserted;
  });
  const shown = await prepareComment(saved, environment(context, deps));
  return created(shown, context.url(`/cms/v2/comments/${saved.id}`), { context: moderator ? 'edit' : 'view' });
}

function dateFields(deps: CommentsDeps, context: RequestContext): { date: string; date_gmt: string } {
  const { local, gmt } = nowDates(deps.clock.now(), context.site);
  return { date: local, date_gmt: gmt };
}

export async function updateComment(context: RequestContext<Params<typeof writeArgs>>, deps: CommentsDeps): Promise<HandlerResult> {
  const { comment } = await loadComment(context, deps);
  const { params } = context;
  if (params.type !== undefined && params.type !== null && params.type !== comment.type) {
    throw new CmsError('rest_comment_invalid_type', 'Sorry, you are not allowed to change the comment type.', 404);
  }
  const status = requestedStatus(params.status);
  const moderator = canModerate(viewerOf(context, deps));
  const sent = await readChanges(context, deps.storage, context.site, { creating: false, moderator });
  if (sent.post !== undefined && sent.post !== 0 && !(await getPost(deps.storage, sent.post))) {
    throw new CmsError('rest_comment_invalid_post_id', 'Invalid post ID.', 403);
  }
  if (sent.content !== undefined && sent.content === '') throw new CmsError('rest_comment_content_invalid', 'Invalid comment content.', 400);
  checkLengths(sent);
  const changes = cleanAuthorFields(sent);
  if (changes.content !== undefined) changes.content = await cleanContent(context, deps, changes.content, changes.user_id ?? comment.user_id);
  if (changes.parent !== undefined) await checkParent(deps, changes.parent, changes.post ?? comment.post);

  const saved = await deps.storage.transaction(async (tx) => {
    let current: CommentRecord = comment;
    if (Object.keys(changes).length > 0) {
      const patch: Partial<CommentRecord> = { ...changes };
      if (changes.post !== undefined && changes.post !== comment.post) Object.assign(patch, await postFactsOf(tx, await getPost(tx, changes.post)));
      current = (await saveComment(tx, comment.id, patch)) ?? comment;
    }
    return status !== undefined ? applyStatus(tx, current, status) : current;
  });
  return item(await prepareComment(saved, environment(context, deps)), EDIT);
}

export async function deleteComment(context: RequestContext<Params<typeof deleteArgs>>, deps: CommentsDeps): Promise<HandlerResult> {
  const { comment } = await loadComment(context, deps);
  const env = environment(context, deps);
  if (context.params.force === true) {
    const previous = await prepareComment(comment, env);
    await deps.storage.transaction((tx) => removeComment(tx, comment));
    return reply({ deleted: true, previous: filterByContext(previous.data, commentSchema(), 'edit') });
  }
  if (!resolveCommentOptions(deps.comments).trash) {
    throw new CmsError('rest_trash_not_supported', "The comment does not support trashing. Set 'force=true' to delete.", 501);
  }
  if (comment.status === 'trash') throw new CmsError('rest_already_trashed', 'The comment has already been trashed.', 410);
  const trashed = await deps.storage.transaction((tx) => applyStatus(tx, comment, 'trash'));
  return item(await prepareComment(trashed, env), EDIT);
}
