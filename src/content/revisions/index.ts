export { registerRevisionsAndAutosaves, REVISIONED_TYPES } from './register.js';
export { registerRevisionRoutes } from './routes.js';
export { buildRevisionSchema } from './schema.js';
export { revisionOnUpdate } from './create.js';
export {
  REVISION_TYPE, REVISION_STATUS, REVISIONED_FIELDS, revisionSlug, autosaveSlug, isAutosave, isRevision, latestRevision,
  latestAutosave, autosavesOf, normalizeWhitespace,
} from './record.js';
