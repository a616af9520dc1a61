import type { JsonSchema } from '../../core/args/schema.js';
import { TAXONOMIES, type TaxonomyName } from '../taxonomy/index.js';

/** The item schema of a taxonomy's terms: per-field contexts for responses, and the source of the write args. */
export function termSchema(taxonomy: TaxonomyName): JsonSchema {
  const properties: Record<string, JsonSchema> = {
    id: { description: 'Unique identifier for the term.', type: 'integer', context: ['view', 'embed', 'edit'], readonly: true },
    count: { description: 'Number of published posts for the term.', type: 'integer', context: ['view', 'edit'], readonly: true },
    description: { description: 'HTML description of the term.', type: 'string', context: ['view', 'edit'] },
    link: { description: 'URL of the term.', type: 'string', format: 'uri', context: ['view', 'embed', 'edit'], readonly: true },
    name: { description: 'HTML title for the term.', type: 'string', context: ['view', 'embed', 'edit'], required: true },
    slug: { description: 'An alphanumeric identifier for the term unique to its type.', type: 'string', context: ['view', 'embed', 'edit'] },
    taxonomy: { description: 'Type attribution for the term.', type: 'string', enum: [taxonomy], context: ['view', 'embed', 'edit'], readonly: true },
  };
  if (TAXONOMIES[taxonomy].hierarchical) {
    properties.parent = { description: 'The parent term ID.', type: 'integer', context: ['view', 'edit'] };
  }
  properties.meta = { description: 'Meta fields.', type: 'object', context: ['view', 'edit'], properties: {} };
  return {
    $schema: 'http://json-schema.org/draft-04/schema#',
    title: taxonomy === 'post_tag' ? 'tag' : taxonomy,
    type: 'object',
    properties,
  } as JsonSchema;
}
