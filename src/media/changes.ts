/**
 * A media create or update request → post changes, through the post-type kit's `prepareChanges`, with the
 * attachment rules on top: caption and description are the excerpt and content, `post` is the parent, and any
 * status other than `private` (or `trash`) is stored as `inherit`.
 */
import type { RequestContext } from '../core/context.js';
import { CmsError, forbidden } from '../core/errors.js';
import { loadRecord, prepareChanges, scopeOf, type PostChanges, type PostRecord } from '../content/post-type/index.js';
import type { MediaType } from './deps.js';
import { isEmpty } from '../format/php.js';

const ATTACHMENT_STATUSES = new Set(['inherit', 'private', 'trash', 'auto-draft']);

/** A field sent as a string or as `{raw}`. */
export function textOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const raw = (value as Record<string, unknown>).raw;
  if (raw === undefined || raw === null) return undefined;
  return typeof raw === 'string' || typeof raw === 'number' ? String(raw) : raw === true ? '1' : raw === false ? '' : undefined;
}


/** `post` may not name a revision or another attachment. */
export async function checkParentType(context: RequestContext, mediaType: MediaType): Promise<PostRecord | null> {
  if (isEmpty(context.params.post)) return null;
  const parent = await loadRecord(context, mediaType, Number(context.params.post));
  if (parent && (parent.type === 'revision' || parent.type === 'attachment')) {
    throw new CmsError('rest_invalid_param', 'Invalid parent type.', 400);
  }
  return parent;
}

/** Attaching to a post needs the right to edit it. */
export async function checkCanAttachTo(context: RequestContext, mediaType: MediaType): Promise<CmsError | null> {
  if (isEmpty(context.params.post)) return null;
  const parent = await loadRecord(context, mediaType, Number(context.params.post));
  const scope = scopeOf(context, mediaType);
  if (!parent || !scope.abilities.canEdit(parent)) {
    return forbidden(context.user, 'rest_cannot_edit', 'Sorry, you are not allowed to upload media to this post.');
  }
  return null;
}

export async function mediaChanges(context: RequestContext, existing: PostRecord | null, mediaType: MediaType): Promise<PostChanges> {
  const scope = scopeOf(context, mediaType);
  const changes = await prepareChanges(context, existing, scope.writeEnvironment());
  delete changes.password;
  delete changes.meta;
  delete changes.sticky;
  delete changes.parent;
  if (changes.status !== undefined && !ATTACHMENT_STATUSES.has(changes.status)) changes.status = 'inherit';
  if (existing === null && changes.status !== 'private') changes.status = 'inherit';

  const caption = textOf(context.params.caption);
  if (caption !== undefined) changes.excerpt = caption;
  const description = textOf(context.params.description);
  if (description !== undefined) changes.content = description;
  if (context.has('post') && context.params.post !== null && context.params.post !== undefined) {
    changes.parent = Math.max(0, Math.trunc(Number(context.params.post)) || 0);
  }
  return changes;
}
