/** Arguments of `GET /search`, as the reference declares them. */
import { arg, args } from '../core/args/define.js';
import { sanitizeKey } from '../format/text.js';
import { pageArgs } from '../core/paging.js';
import { SEARCH_HANDLERS } from './handlers-types.js';
import { searchArg } from '../core/search-arg.js';

export const ANY = 'any';

export function searchArgs() {
  const types = SEARCH_HANDLERS.map((handler) => handler.type);
  const subtypes = [...new Set(SEARCH_HANDLERS.flatMap((handler) => handler.subtypes))];
  return {
    context: args.string(
      { description: 'Scope under which the request is made; determines fields present in response.', enum: ['view', 'embed'], default: 'view' },
      { transform: sanitizeKey },
    ),
    ...pageArgs(),
    search: searchArg('Limit results to those matching a string.'),
    type: args.string({ default: types[0], description: 'Limit results to items of an object type.', enum: types }, { phase: 'sanitize' }),
    subtype: arg(
      { default: ANY, description: 'Limit results to items of one or more object subtypes.', type: 'array', items: { enum: [...subtypes, ANY], type: 'string' } },
      { phase: 'sanitize' },
    ),
    exclude: arg({ description: 'Ensure result set excludes specific IDs.', type: 'array', items: { type: 'integer' }, default: [] }, { phase: 'sanitize' }),
    include: arg({ description: 'Limit result set to specific IDs.', type: 'array', items: { type: 'integer' }, default: [] }, { phase: 'sanitize' }),
  };
}
