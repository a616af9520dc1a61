import { batchArgs } from '../../../src/batch/args.js';
import type { JsonSchema } from '../../../src/core/args/schema.js';

/** The posts collection's `categories` argument (a term ID list or a term taxonomy query). */
export const categoriesSchema: JsonSchema = {
  type: ['object', 'array'],
  oneOf: [
    { title: 'Term ID List', type: 'array', items: { type: 'integer' } },
    {
      title: 'Term ID Taxonomy Query',
      type: 'object',
      properties: {
        terms: { type: 'array', items: { type: 'integer' }, default: [] },
        include_children: { type: 'boolean', default: false },
        operator: { type: 'string', enum: ['AND', 'OR'], default: 'OR' },
      },
      additionalProperties: false,
    },
  ],
};

/** The batch endpoint's `requests` argument, as the batch route declares it. */
export const requestsSchema: JsonSchema = batchArgs(25).requests.schema;
