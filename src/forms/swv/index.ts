export { buildSchema, metaSchema, acceptedFileTypes, SCHEMA_VERSION, type SchemaContext, type SwvSchema } from './schema.js';
export { checkRule, validateSchema, extensionsForMime, RULE_NAMES, type SwvInput, type SwvRule, type SwvScope, type UploadView } from './rules.js';
