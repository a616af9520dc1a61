/** Arguments of the oEmbed routes, as the reference declares them (they feed validation and the route index). */
import type { ArgCheck } from '../core/args/define.js';
import { args } from '../core/args/define.js';
import { absint } from './escape.js';

const URL_DESCRIPTION = 'The URL of the resource for which to fetch oEmbed data.';
/** Longer addresses are no one's content; refusing them keeps every later step cheap. */
export const MAX_URL_LENGTH = 8192;

/** The URL must be an absolute http(s) address: anything else cannot be embedded and is a client error. */
const isEmbeddableUrl: ArgCheck = (value, _context, param) => {
  if (typeof value === 'string' && value.length > MAX_URL_LENGTH) {
    return { code: 'rest_too_long', message: `${param} must be at most ${MAX_URL_LENGTH} characters long.`, data: null };
  }
  let protocol = '';
  try {
    protocol = typeof value === 'string' ? new URL(value.trim()).protocol : '';
  } catch {
    protocol = '';
  }
  return protocol === 'http:' || protocol === 'https:'
    ? null
    : { code: 'rest_invalid_url', message: `${param} is not a valid http or https URL.`, data: null };
};

const url = () => args.string({ description: URL_DESCRIPTION, format: 'uri' }, { required: true, check: isEmbeddableUrl });

/** `GET /oembed/1.0/embed`: `format` and `maxwidth` carry no type, so any value passes and the handler reads it. */
export const embedArgs = {
  url: url(),
  format: args.untyped({ default: 'json' }),
  maxwidth: args.untyped({ default: 600 }),
};

/** `GET /oembed/1.0/proxy`. */
export const proxyArgs = {
  url: url(),
  format: args.string({ description: 'The oEmbed format to use.', default: 'json', enum: ['json', 'xml'] }),
  maxwidth: args.integer({ description: 'The maximum width of the embed frame in pixels.', default: 600 }, { transform: absint }),
  maxheight: args.integer({ description: 'The maximum height of the embed frame in pixels.' }, { transform: absint }),
  discover: args.boolean({ description: 'Whether to perform an oEmbed discovery request for unsanctioned providers.', default: true }),
};
