/**
 * The `search` argument every list declares. Its text is bounded before it is cleaned: the reference takes any
 * length (a search past Apache's 8,190-byte request line cannot reach it as a query string), but cleaning, splitting
 * and matching 16 MiB of search text held the event loop for 0.5–2 s on each list.
 */
import { arg } from './args/define.js';
import { checkTextLength } from './text-bound.js';
import { sanitizeTextField } from '../format/text.js';

/** The most characters a search text may hold; longer is 400 `rest_invalid_param` (`rest_too_long`). */
export const MAX_SEARCH_LENGTH = 8192;

export function searchArg(description: string) {
  return arg({ description, type: 'string', maxLength: MAX_SEARCH_LENGTH }, { transform: (value) => sanitizeTextField(value) });
}

/** The argument's error, for lists that declare no arguments and read `search` themselves. */
export function checkSearchLength(search: string): void {
  checkTextLength('search', search, MAX_SEARCH_LENGTH);
}
