/** An autosave (or a draft an autosave updated in place) → the revision fields plus `preview_link`. */
import type { Item, RequestContext } from '../../core/context.js';
import { isViewable, permalinkOf, scopeOf, type PostRecord } from '../post-type/index.js';
import { isAutosave, prepareRevision, revisionPrepareOptions } from '../revisions/index.js';
import type { AutosavedType } from './deps.js';
import { previewToken, withQuery } from './preview.js';

/**
 * `record` is an autosave of `parent`, or `parent` itself after an in-place autosave. `contextName` is the
 * context the answer is shown in (`preview_link` only exists in `edit`).
 */
export async function prepareAutosave(
  context: RequestContext, postType: AutosavedType, record: PostRecord, parent: PostRecord, contextName: string,
): Promise<Item> {
  const prepared = await prepareRevision(record, revisionPrepareOptions(context, postType));
  if (contextName !== 'edit' || !context.wantsField('preview_link')) return prepared;
  const links = scopeOf(context, postType).links;
  let previewLink: string;
  // A type without a public view (reusable blocks) has nowhere to preview.
  if (!isViewable(postType)) previewLink = '';
  else if (isAutosave(record)) {
    const { deps } = postType;
    const token = previewToken(deps.previewKey(), context.user?.id ?? 0, parent.id, deps.clock.now());
    previewLink = withQuery(await permalinkOf(parent, links), { preview_id: parent.id, preview_nonce: token, preview: 'true' });
  } else {
    previewLink = withQuery(await permalinkOf(record, links), { preview: 'true' });
  }
  return { ...prepared, data: { ...prepared.data, preview_link: previewLink } };
}
