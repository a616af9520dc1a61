/** Autosave handlers: the list of a post's autosaves, its newest autosave, and saving one. */
import type { Params } from '../../core/args/define.js';
import type { RequestContext } from '../../core/context.js';
import type { autosaveCreateArgs } from './args.js';
import { CmsError } from '../../core/errors.js';
import { collection, item } from '../../core/response.js';
import { prepareChanges, requirePost, scopeOf } from '../post-type/index.js';
import { autosavesOf, latestAutosave, requireParent } from '../revisions/index.js';
import type { AutosavedType } from './deps.js';
import { prepareAutosave } from './prepare.js';
import { DRAFT_STATUSES, saveAutosaveRevision, updateOwnDraft } from './save.js';

/** Every user's autosave of the post, newest first, on one unpaged list. */
export async function listAutosaves(context: RequestContext, postType: AutosavedType): Promise<unknown> {
  const parent = await requireParent(context, postType, 'id');
  const records = await autosavesOf(postType.deps.storage, parent.id);
  const items = await Promise.all(records.map((record) => prepareAutosave(context, postType, record, parent, context.context)));
  return collection(items);
}

/** The newest autosave of the post by any user; the `{id}` of the address is not consulted, as in the reference. */
export async function readAutosave(context: RequestContext, postType: AutosavedType): Promise<unknown> {
  const parent = await requireParent(context, postType, 'parent');
  const autosave = await latestAutosave(postType.deps.storage, parent.id);
  if (!autosave) throw new CmsError('rest_post_no_autosave', 'There is no autosave revision for this post.', 404);
  return item(await prepareAutosave(context, postType, autosave, parent, context.context));
}

/** Saves an autosave and answers 200 in the edit context, whichever way it was stored. */
export async function createAutosave(context: RequestContext<Params<typeof autosaveCreateArgs>>, postType: AutosavedType): Promise<unknown> {
  const post = await requirePost(context, postType);
  const changes = await prepareChanges(context, post, scopeOf(context, postType).writeEnvironment());
  const ownDraft = DRAFT_STATUSES.has(post.status) && context.user !== null && post.author === context.user.id;
  const saved = ownDraft
    ? await updateOwnDraft(context, postType, post, changes)
    : await saveAutosaveRevision(context, postType, post, changes);
  return item(await prepareAutosave(context, postType, saved, ownDraft ? saved : post, 'edit'), { context: 'edit' });
}
