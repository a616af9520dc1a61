/**
 * Permission checks of the media routes that add to the post-type kit's: attaching to a post needs the right to
 * edit it, and editing an image needs `upload_files`. The record loaders narrow the kit's to attachments.
 */
import type { PermissionResult, RequestContext } from '../core/context.js';
import { forbidden } from '../core/errors.js';
import { createPermission, invalidPostId, requirePost, scopeOf, updatePermission } from '../content/post-type/index.js';
import { checkCanAttachTo } from './changes.js';
import type { MediaType } from './deps.js';
import { isAttachment, type AttachmentRecord } from './record.js';

/** The attachment the URL names, or `rest_post_invalid_id` (404). */
export async function requireAttachment(context: RequestContext, mediaType: MediaType): Promise<AttachmentRecord> {
  const post = await requirePost(context, mediaType);
  if (!isAttachment(post)) throw invalidPostId();
  return post;
}

export async function createMediaPermission(context: RequestContext, mediaType: MediaType): Promise<PermissionResult> {
  const result = await createPermission(context, mediaType);
  if (result !== true) return result;
  return (await checkCanAttachTo(context, mediaType)) ?? true;
}

export async function editPermission(context: RequestContext, mediaType: MediaType): Promise<PermissionResult> {
  const scope = scopeOf(context, mediaType);
  if (!scope.abilities.can('upload_files')) {
    return forbidden(context.user, 'rest_cannot_edit_image', 'Sorry, you are not allowed to upload media on this site.');
  }
  const result = await updatePermission(context, mediaType);
  if (result !== true) return result;
  return (await checkCanAttachTo(context, mediaType)) ?? true;
}
