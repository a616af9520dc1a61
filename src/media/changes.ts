/**
 * A media create or update request → post changes, through the post-type kit's `prepareChanges`, with the
 * attachment rules on top: caption and description are the excerpt and content, `post` is the parent, and any
 * status other than `private` (or `trash`) is stored as `inherit`.
 */
import type { Params } from '../core/args/define.js';
import type { AnyParams, RequestContext } from '../core/context.js';
import type { mediaWriteArgs } from './args.js';
import { CmsError, forbidden } from '../core/errors.js';
import { loadRecord, prepareChanges, scopeOf, type PostChanges, type PostRecord } from '../content/post-type/index.js';
import type { MediaType } from './deps.js';
import { isEmpty } from '../format/php.js';

/** The parameters of a media write: every one of its routes declares the attachment fields. */
export type MediaWriteParams = Params<typeof mediaWriteArgs>;
/** A route that declares `post`, the post an attachment belongs to. */
type WithPost = AnyParams & { readonly post?: number };

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
export async function checkParentType(context: RequestContext<WithPost>, mediaType: MediaType): Promise<PostRecord | null> {
  if (context.params.post === undefined || isEmpty(context.params.post)) return null;
  const parent = await loadRecord(context, mediaType, context.params.post);
  if (parent && (parent.type === 'revision' || parent.type === 'attachment')) {
    throw new CmsError('rest_invalid_param', 'Invalid parent type.', 400);
  }
  return parent;
}

/** Attaching to a post needs the right to edit it. */
export async function checkCanAttachTo(context: RequestContext<WithPost>, mediaType: MediaType): Promise<CmsError | null> {
  if (context.params.post === undefined || isEmpty(context.params.post)) return null;
  const parent = await loadRecord(context, mediaType, context.params.post);
  const scope = scopeOf(context, mediaType);
  if (!parent || !scope.abilities.canEdit(parent)) {
    return forbidden(context.user, 'rest_cannot_edit', 'Sorry, you are not allowed to upload media to this post.');
  }
  return null;
}

export async function mediaChanges(context: RequestContext<MediaWriteParams>, existing: PostRecord | null, mediaType: MediaType): Promise<PostChanges> {
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
  if (context.has('post') && context.params.post !== undefined) changes.parent = Math.max(0, context.params.post);
  return changes;
}
