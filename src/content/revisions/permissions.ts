/**
 * Checks shared by the revision and autosave routes. Everything hangs on the parent post: it must exist and be
 * of the route's type, and the user must be able to edit it — so nobody who may not edit a post (and so may not
 * see its private or password-protected content) reads its revisions.
 */
import type { PermissionResult, RequestContext } from '../../core/context.js';
import { CmsError, forbidden } from '../../core/errors.js';
import { loadRecord, scopeOf, type PostRecord, type PostType } from '../post-type/index.js';
import { isRevision } from './record.js';

export function invalidParent(): CmsError {
  return new CmsError('rest_post_invalid_parent', 'Invalid post parent ID.', 404);
}

export function invalidRevision(): CmsError {
  return new CmsError('rest_post_invalid_id', 'Invalid revision ID.', 404);
}

function positiveId(value: unknown): number | null {
  // A bracketed `?id[x]=` (a list or map) names no post.
  if (typeof value !== 'string' && typeof value !== 'number') return null;
  const id = Number(value);
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

/** The parent named by a URL parameter (`parent`, or `id` on the autosave collection), if it is of the route's type. */
export async function loadParent(context: RequestContext, postType: PostType, param: 'parent' | 'id'): Promise<PostRecord | null> {
  const id = positiveId(context.params[param]);
  if (id === null) return null;
  const record = await loadRecord(context, postType, id);
  return record && record.type === postType.definition.type ? record : null;
}

export async function requireParent(context: RequestContext, postType: PostType, param: 'parent' | 'id'): Promise<PostRecord> {
  const parent = await loadParent(context, postType, param);
  if (!parent) throw invalidParent();
  return parent;
}

/**
 * The revision named by `id`: it must be a revision of `parent`. (The reference's 6.1 release served a revision
 * of any post under any parent the user could edit; here a revision of another post is unknown.)
 */
export async function requireRevision(context: RequestContext, postType: PostType, parent: PostRecord): Promise<PostRecord> {
  const revision = await findRevision(context, postType, parent);
  if (!revision) throw invalidRevision();
  return revision;
}

async function findRevision(context: RequestContext, postType: PostType, parent: PostRecord): Promise<PostRecord | null> {
  const id = positiveId(context.params.id);
  const revision = id === null ? null : await loadRecord(context, postType, id);
  return isRevision(revision) && revision.parent === parent.id ? revision : null;
}

/** Reading revisions (or autosaves, `noun`) needs `edit_post` on the parent. */
export async function readPermission(
  context: RequestContext, postType: PostType, param: 'parent' | 'id', noun: 'revisions' | 'autosaves',
): Promise<PermissionResult> {
  const parent = await loadParent(context, postType, param);
  if (!parent) return invalidParent();
  if (!scopeOf(context, postType).abilities.canEdit(parent)) {
    return forbidden(context.user, 'rest_cannot_read', `Sorry, you are not allowed to view ${noun} of this post.`);
  }
  return true;
}

/**
 * Deleting a revision: the user must be able to delete the parent (the reference's further "may delete this
 * revision" check is never granted by its own capability rules, so it is left out on purpose), the revision
 * must belong to it, and the user must be able to read revisions.
 */
export async function deletePermission(context: RequestContext, postType: PostType): Promise<PermissionResult> {
  const parent = await loadParent(context, postType, 'parent');
  if (!parent) return invalidParent();
  if (!scopeOf(context, postType).abilities.canDelete(parent)) {
    return forbidden(context.user, 'rest_cannot_delete', 'Sorry, you are not allowed to delete revisions of this post.');
  }
  if (!(await findRevision(context, postType, parent))) return invalidRevision();
  return readPermission(context, postType, 'parent', 'revisions');
}
