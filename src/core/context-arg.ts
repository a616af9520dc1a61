/** The `context` argument of the reference's routes: the scope a request is made in, which decides an answer's fields. */
import { args } from './args/define.js';
import { sanitizeKey } from '../format/text.js';

export function contextArg() {
  return args.string(
    { description: 'Scope under which the request is made; determines fields present in response.', enum: ['view', 'embed', 'edit'], default: 'view' },
    { transform: sanitizeKey },
  );
}
