/** Writes answer in the edit context whatever `context` the request named, as the reference does. */
import type { RequestContext } from '../../core/context.js';

/**
 * Switches the context the core shapes this response with, on the request's own context object. Prefer the
 * `context` option of the core's result builders (`item(record, { context: 'edit' })`); this remains for callers
 * that still switch the request itself.
 */
export function answerInContext(context: RequestContext, name: string): void {
  Object.assign(context, { context: name });
}
