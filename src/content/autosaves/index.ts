/** Autosaves of posts and pages. */
export { autosaveRoutes } from './routes.js';
export { buildAutosaveSchema } from './schema.js';
export { previewToken, isValidPreviewToken } from './preview.js';
export type { AutosaveDeps, AutosavedType } from './deps.js';
