/** Revisions of posts, pages and reusable blocks: their routes, and the revisions updates create. */
import type { PostEvents } from '../post-type/index.js';
import { revisionOnUpdate } from './create.js';
import type { RevisionedTypes } from './routes.js';

export { revisionRoutes, type RevisionedTypes } from './routes.js';
export { buildRevisionSchema } from './schema.js';
export { parentArg } from './args.js';
export { readPermission, requireParent } from './permissions.js';
export { prepareRevision, revisionPrepareOptions } from './prepare.js';
export {
  REVISION_TYPE, REVISION_STATUS, REVISIONED_FIELDS, revisionSlug, autosaveSlug, isAutosave, isRevision, latestRevision,
  latestAutosave, autosavesOf, insertRevision, sameWhitespaceAside, type RevisionedField,
} from './record.js';

/** Makes updates of the given types leave revisions; returns the unsubscribe function. */
export function keepRevisions(events: PostEvents, types: RevisionedTypes): () => void {
  return events.onPostSaved(revisionOnUpdate(new Set(Object.values(types).map((postType) => postType.definition.type))));
}
