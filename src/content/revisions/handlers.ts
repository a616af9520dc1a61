/** Single-revision handlers: read and delete. */
import type { RequestContext } from '../../core/context.js';
import { CmsError } from '../../core/errors.js';
import { item, reply } from '../../core/response.js';
import { filterByContext } from '../../core/shape.js';
import { POSTS_COLLECTION } from '../posts/record.js';
import type { PostType } from '../posts/scope.js';
import type { ItemSchema } from '../posts/schema.js';
import { requireParent, requireRevision } from './permissions.js';
import { prepareRevision, revisionPrepareOptions } from './prepare.js';

export async function readRevision(context: RequestContext, postType: PostType): Promise<unknown> {
  const parent = await requireParent(context, postType, 'parent');
  const revision = await requireRevision(context, parent);
  return item(await prepareRevision(revision, revisionPrepareOptions(context, postType)));
}

/** Revisions cannot be trashed: only `force=true` removes one, answering with what it was. */
export async function deleteRevision(context: RequestContext, postType: PostType, schema: ItemSchema): Promise<unknown> {
  const parent = await requireParent(context, postType, 'parent');
  const revision = await requireRevision(context, parent);
  if (context.params.force !== true) {
    throw new CmsError('rest_trash_not_supported', "Revisions do not support trashing. Set 'force=true' to delete.", 501);
  }
  const previous = await prepareRevision(revision, revisionPrepareOptions(context, postType));
  const removed = await context.services.storage.remove(POSTS_COLLECTION, revision.id);
  if (!removed) throw new CmsError('rest_cannot_delete', 'The post cannot be deleted.', 500);
  return reply({ deleted: true, previous: filterByContext(previous.data, schema, context.context) });
}
