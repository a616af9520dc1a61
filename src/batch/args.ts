/** Arguments of `POST /batch/v1`. */
import { args } from '../core/args/define.js';

export const DEFAULT_MAX_BATCH_SIZE = 25;

/** `validation` and `requests`, at most `maxItems` of them. */
export function batchArgs(maxItems: number) {
  return {
    validation: args.string({ enum: ['require-all-validate', 'normal'], default: 'normal' }, { phase: 'sanitize' }),
    requests: args.array({
      type: 'object',
      properties: {
        method: { type: 'string', enum: ['POST', 'PUT', 'PATCH', 'DELETE'], default: 'POST' },
        path: { type: 'string', required: true },
        body: { type: 'object', properties: {}, additionalProperties: true },
        headers: {
          type: 'object',
          properties: {},
          additionalProperties: { type: ['string', 'array'], items: { type: 'string' } },
        },
      },
    }, { maxItems }, { required: true, phase: 'sanitize', inTurns: true }),
  };
}
