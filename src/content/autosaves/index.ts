export { registerAutosaveRoutes } from './routes.js';
export { buildAutosaveSchema } from './schema.js';
export { previewToken, isValidPreviewToken } from './preview.js';
