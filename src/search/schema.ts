/** The item schema of `/search` results. */
import type { JsonSchema } from '../core/args/schema.js';
import { SEARCH_HANDLERS } from './handlers-types.js';

const SHOWN = ['view', 'embed'];

let cached: JsonSchema | undefined;

export function searchResultSchema(): JsonSchema {
  cached ??= {
    $schema: 'http://json-schema.org/draft-04/schema#',
    title: 'search-result',
    type: 'object',
    properties: {
      id: { description: 'Unique identifier of the result.', type: ['integer', 'string'], context: SHOWN, readonly: true },
      title: { description: 'The title of the result.', type: 'string', context: SHOWN, readonly: true },
      url: { description: 'Address of the result.', type: 'string', format: 'uri', context: SHOWN, readonly: true },
      type: { description: 'The kind of result.', type: 'string', enum: SEARCH_HANDLERS.map((handler) => handler.type), context: SHOWN, readonly: true },
      subtype: {
        description: 'The post type or taxonomy of the result.',
        type: 'string',
        enum: [...new Set(SEARCH_HANDLERS.flatMap((handler) => handler.subtypes))],
        context: SHOWN,
        readonly: true,
      },
    },
  } as JsonSchema;
  return cached;
}
