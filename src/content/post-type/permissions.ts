/** Permission checks of the post-type routes, in the reference's order, with its codes and messages. */
import { userCan } from '../../auth/index.js';
import type { PermissionResult, RequestContext } from '../../core/context.js';
import { CmsError, forbidden } from '../../core/errors.js';
import { getTerm, type TaxonomyName } from '../taxonomy/index.js';
import { passwordMatches } from './prepare.js';
import { canReadPost, isReadableByAnyone } from './readability.js';
import type { PostType } from './define.js';
import { postsIn, type PostRecord } from './record.js';
import { asPublishedWhenDue, requestNow } from './scheduler.js';
import { scopeOf, type PostScope } from './scope.js';
import { isEmpty } from '../../format/php.js';

export function invalidPostId(): CmsError {
  return new CmsError('rest_post_invalid_id', 'Invalid post ID.', 404);
}

/**
 * A post-type record by id, loaded once per request and read as of the request's time (a scheduled post whose
 * date has passed reads as published; nothing is written here).
 */
export function loadRecord(context: RequestContext, postType: PostType, id: number): Promise<PostRecord | null> {
  if (!Number.isSafeInteger(id) || id <= 0) return NO_RECORD;
  return context.memo(memoKeys(id).asRead, () => readRecord(context, postType, id));
}

const NO_RECORD: Promise<null> = Promise.resolve(null);

async function readRecord(context: RequestContext, postType: PostType, id: number): Promise<PostRecord | null> {
  const { deps } = postType;
  const record = await context.memo(memoKeys(id).stored, () => postsIn(deps.storage).get(id));
  return record && asPublishedWhenDue(record, requestNow(context, deps));
}

class RecordKeys {
  readonly stored: string;
  readonly asRead: string;
  #lastType = '';
  #ofLastType = '';

  constructor(readonly id: number) {
    this.stored = `post:${id}`;
    this.asRead = `post-as-read:${id}`;
  }

  /** The key of the record as a route of `type` loads it (none when it is of another type). */
  ofType(type: string): string {
    if (this.#lastType !== type) {
      this.#lastType = type;
      this.#ofLastType = `post-as-read:${type}:${this.id}`;
    }
    return this.#ofLastType;
  }
}

/**
 * The request-memo keys of a record: as stored (shared with every reader of records by id) and as read now. The
 * checks of `Allow` load the same record again and again, so the last id's keys are kept.
 */
let lastKeys = new RecordKeys(0);

function memoKeys(id: number): RecordKeys {
  if (lastKeys.id !== id) lastKeys = new RecordKeys(id);
  return lastKeys;
}

/** The record the URL names, if it exists and is of this type. */
export function loadPost(context: RequestContext, postType: PostType): Promise<PostRecord | null> {
  const id = Number(context.params.id);
  if (!Number.isSafeInteger(id) || id <= 0) return NO_RECORD;
  const { type } = postType.definition;
  return context.memo(memoKeys(id).ofType(type), () => loadRecord(context, postType, id).then((record) => record && record.type === type ? record : null));
}

export async function requirePost(context: RequestContext, postType: PostType): Promise<PostRecord> {
  const post = await loadPost(context, postType);
  if (!post) throw invalidPostId();
  return post;
}

/**
 * The records of a list page the user may see (edit them, in the edit context). The list's conditions select
 * only those already; this check stands behind them, so a record the conditions could not judge (a parent of an
 * unknown status) is still never shown. Answered at once when no record needs the store to tell (the page
 * itself when every record may be seen).
 */
export function onlyVisible<T extends PostRecord>(records: readonly T[], scope: PostScope, context: RequestContext): readonly T[] | Promise<T[]> {
  const { deps } = scope.postType;
  const editing = context.context === 'edit';
  let visible: T[] | null = null;
  for (let at = 0; at < records.length; at++) {
    const record = records[at]!;
    if (editing ? scope.abilities.canEdit(record) : isReadableByAnyone(record, deps.capabilityRules)) {
      visible?.push(record);
      continue;
    }
    if (!editing) return readableOf(records, scope, context);
    visible ??= records.slice(0, at);
  }
  return visible ?? records;
}

async function readableOf<T extends PostRecord>(records: readonly T[], scope: PostScope, context: RequestContext): Promise<T[]> {
  const visible: T[] = [];
  const { deps } = scope.postType;
  for (const record of records) {
    if (isReadableByAnyone(record, deps.capabilityRules) || await canReadPost(context, record, deps)) visible.push(record);
  }
  return visible;
}

export function listPermission(context: RequestContext, postType: PostType): PermissionResult {
  const scope = scopeOf(context, postType);
  if (context.context === 'edit' && !scope.abilities.can(scope.capabilities.edit_posts)) {
    return forbidden(context.user, 'rest_forbidden_context', 'Sorry, you are not allowed to edit posts in this post type.');
  }
  return true;
}

export async function readPermission(context: RequestContext, postType: PostType): Promise<PermissionResult> {
  const post = await loadPost(context, postType);
  if (!post) return invalidPostId();
  const scope = scopeOf(context, postType);
  if (context.context === 'edit' && !scope.abilities.canEdit(post)) {
    return forbidden(context.user, 'rest_forbidden_context', 'Sorry, you are not allowed to edit this post.');
  }
  const password = context.params.password;
  if (typeof password === 'string' && password !== '' && !passwordMatches(post.password, password)) {
    return new CmsError('rest_post_incorrect_password', 'Incorrect post password.', 403);
  }
  return canReadPost(context, post, postType.deps);
}

/** Every sent term that exists must be assignable by the user. */
/**
 * Refused only when a term the caller may not assign exists among those sent. Whether it may depends on the
 * taxonomy alone, so the terms are looked up only for a taxonomy it may not assign, each id once.
 */
async function canAssignTerms(context: RequestContext, scope: PostScope): Promise<boolean> {
  for (const taxonomy of scope.postType.definition.taxonomies) {
    const value = context.params[taxonomy.restBase];
    if (value === undefined || value === null) continue;
    if (userCan(context.user, 'assign_term', { taxonomy: taxonomy.taxonomy }, scope.postType.deps.capabilityRules)) continue;
    for (const id of new Set((Array.isArray(value) ? value : [value]).map(Number))) {
      if (await getTerm(scope.storage, taxonomy.taxonomy as TaxonomyName, id)) return false;
    }
  }
  return true;
}

/** The author and sticky checks shared by create and update. */
function authorAndStickyError(context: RequestContext, scope: PostScope, verb: 'create' | 'update'): CmsError | null {
  const { params, user } = context;
  const { abilities, capabilities } = scope;
  if (!isEmpty(params.author) && (user?.id ?? 0) !== params.author && !abilities.can(capabilities.edit_others_posts)) {
    return forbidden(user, 'rest_cannot_edit_others', `Sorry, you are not allowed to ${verb} posts as this user.`);
  }
  if (scope.postType.definition.supportsSticky && !isEmpty(params.sticky)
    && !abilities.can(capabilities.edit_others_posts) && !abilities.can(capabilities.publish_posts)) {
    return forbidden(user, 'rest_cannot_assign_sticky', 'Sorry, you are not allowed to make posts sticky.');
  }
  return null;
}

function termError(context: RequestContext): CmsError {
  return forbidden(context.user, 'rest_cannot_assign_term', 'Sorry, you are not allowed to assign the provided terms.');
}

function createRefused(user: RequestContext['user']): CmsError {
  return forbidden(user, 'rest_cannot_create', 'Sorry, you are not allowed to create posts as this user.');
}

export function createPermission(context: RequestContext, postType: PostType): PermissionResult | Promise<PermissionResult> {
  if (!isEmpty(context.params.id)) return new CmsError('rest_post_exists', 'Cannot create existing post.', 400);
  const scope = scopeOf(context, postType);
  const error = authorAndStickyError(context, scope, 'create');
  if (error) return error;
  if (!scope.abilities.can(scope.capabilities.create_posts)) return createRefused(context.user);
  return namesTerms(context, scope) ? assignsTerms(context, scope) : true;
}

/** Whether the request sends terms of any of the type's taxonomies (the list reads' `Allow` sends none). */
function namesTerms(context: RequestContext, scope: PostScope): boolean {
  for (const taxonomy of scope.postType.definition.taxonomies) {
    const value = context.params[taxonomy.restBase];
    if (value !== undefined && value !== null) return true;
  }
  return false;
}

async function assignsTerms(context: RequestContext, scope: PostScope): Promise<PermissionResult> {
  return (await canAssignTerms(context, scope)) ? true : termError(context);
}

export async function updatePermission(context: RequestContext, postType: PostType): Promise<PermissionResult> {
  const post = await loadPost(context, postType);
  if (!post) return invalidPostId();
  const scope = scopeOf(context, postType);
  if (!scope.abilities.canEdit(post)) return forbidden(context.user, 'rest_cannot_edit', 'Sorry, you are not allowed to edit this post.');
  const error = authorAndStickyError(context, scope, 'update');
  if (error) return error;
  return (await canAssignTerms(context, scope)) ? true : termError(context);
}

export async function deletePermission(context: RequestContext, postType: PostType): Promise<PermissionResult> {
  const post = await loadPost(context, postType);
  if (!post) return invalidPostId();
  const scope = scopeOf(context, postType);
  if (!scope.abilities.canDelete(post)) {
    return forbidden(context.user, 'rest_cannot_delete', 'Sorry, you are not allowed to delete this post.');
  }
  return true;
}
