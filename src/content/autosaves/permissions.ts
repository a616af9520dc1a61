/** Saving an autosave takes exactly the permission to update the post. */
import type { PermissionResult, RequestContext } from '../../core/context.js';
import { CmsError } from '../../core/errors.js';
import { updatePermission, type PostType } from '../post-type/index.js';

export async function createPermission(context: RequestContext, postType: PostType): Promise<PermissionResult> {
  const id = context.params.id;
  // A bracketed `?id[x]=` overrides the route's id with a map, which names no post.
  if ((typeof id !== 'string' && typeof id !== 'number') || Number(id) === 0) return new CmsError('rest_post_invalid_id', 'Invalid item ID.', 404);
  return updatePermission(context, postType);
}
