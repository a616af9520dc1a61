/** Single-record handlers: read, create, update, delete. */
import type { RequestContext } from '../../core/context.js';
import { CmsError } from '../../core/errors.js';
import { created, item, reply } from '../../core/response.js';
import { filterByContext } from '../../core/shape.js';
import { permalinkOf } from './permalink.js';
import { requirePost } from './permissions.js';
import { preparePost } from './prepare.js';
import { POSTS_COLLECTION, type PostRecord } from './record.js';
import { deletePost, savePost, trashPost } from './save.js';
import { scopeOf, type PostScope, type PostType } from './scope.js';
import { uniquePostSlug } from './unique-slug.js';
import { prepareChanges, type PostChanges } from './write.js';

const SLUG_CHECKED_AS_PUBLISHED = new Set(['draft', 'pending']);

export async function readPost(context: RequestContext, postType: PostType): Promise<unknown> {
  const post = await requirePost(context, postType);
  const scope = scopeOf(context, postType);
  const password = typeof context.params.password === 'string' ? context.params.password : undefined;
  const excerptLength = typeof context.params.excerpt_length === 'number' ? context.params.excerpt_length : undefined;
  const prepared = await preparePost(post, scope.prepareOptions(context.context, { password, excerptLength }));
  const permalink = await permalinkOf(post, scope.links);
  return item(prepared, { headers: { Link: `<${permalink}>; rel="alternate"; type=text/html` } });
}

/** An explicit slug on a draft or pending record is made unique as if the record were published. */
async function slugAsPublished(scope: PostScope, changes: PostChanges, status: string | undefined, id: number, parent: number): Promise<void> {
  if (!changes.slug || status === undefined || !SLUG_CHECKED_AS_PUBLISHED.has(status)) return;
  const { definition } = scope.postType;
  changes.slug = await uniquePostSlug(scope.storage, changes.slug, {
    id, status: 'publish', type: definition.type, parent, hierarchical: definition.hierarchical,
  }, scope.settings.permalinkStructure);
}

/** Writes answer in the edit context, whatever context the request named. */
function editResponse(scope: PostScope, post: PostRecord) {
  return preparePost(post, scope.prepareOptions('edit'));
}

const EDIT = { context: 'edit' } as const;

export async function createPost(context: RequestContext, postType: PostType): Promise<unknown> {
  const scope = scopeOf(context, postType);
  const changes = await prepareChanges(context, null, scope.writeEnvironment());
  await slugAsPublished(scope, changes, changes.status, 0, changes.parent ?? 0);
  const saved = await scope.storage.transaction((tx) => savePost(null, changes, scope.saveEnvironment(tx), 'create'));
  const prepared = await editResponse(scope, saved);
  return created(prepared, context.url(`/cms/v2/${postType.definition.restBase}/${saved.id}`), EDIT);
}

export async function updatePost(context: RequestContext, postType: PostType): Promise<unknown> {
  const existing = await requirePost(context, postType);
  const scope = scopeOf(context, postType);
  const changes = await prepareChanges(context, existing, scope.writeEnvironment());
  await slugAsPublished(scope, changes, changes.status ?? existing.status, existing.id, changes.parent ?? 0);
  const saved = await scope.storage.transaction(async (tx) => {
    const current = (await tx.get(POSTS_COLLECTION, existing.id)) as PostRecord | null;
    if (!current) throw new CmsError('rest_post_invalid_id', 'Invalid post ID.', 404);
    return savePost(current, changes, scope.saveEnvironment(tx), 'update');
  });
  return item(await editResponse(scope, saved), EDIT);
}

export async function removePost(context: RequestContext, postType: PostType): Promise<unknown> {
  const post = await requirePost(context, postType);
  const scope = scopeOf(context, postType);
  if (!scope.abilities.canDelete(post)) {
    throw new CmsError('rest_user_cannot_delete_post', 'Sorry, you are not allowed to delete this post.', context.user ? 403 : 401);
  }
  if (context.params.force === true) {
    const previous = await editResponse(scope, post);
    await scope.storage.transaction((tx) => deletePost(post, scope.saveEnvironment(tx)));
    return reply({ deleted: true, previous: filterByContext(previous.data, postType.schema, 'edit') });
  }
  if (!scope.settings.trash) {
    throw new CmsError('rest_trash_not_supported', "The post does not support trashing. Set 'force=true' to delete.", 501);
  }
  if (post.status === 'trash') throw new CmsError('rest_already_trashed', 'The post has already been deleted.', 410);
  const trashed = await scope.storage.transaction(async (tx) => {
    const current = (await tx.get(POSTS_COLLECTION, post.id)) as PostRecord | null;
    return trashPost(current ?? post, scope.saveEnvironment(tx));
  });
  return item(await editResponse(scope, trashed), EDIT);
}

