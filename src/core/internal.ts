/** Requests made from inside the dispatcher: batch items and `_embed` lookups, run as the user who made the outer one. */
import { emptyBody } from './body.js';
import type { InternalRequest, InternalResponse, PreparedRequest } from './context.js';
import { errorOutcome, type InternalParent, type Outcome, type RouteSteps } from './outcome.js';
import { parseQueryString } from './query.js';
import { splitPath } from './render.js';
import { normalizeHeaders } from './transport.js';

/**
 * Matches and validates an internal request without running it (a batch validates every item before running any).
 * `run()` then checks permission, calls the handler and renders the answer without embeds; an `error` given to it
 * is answered instead, as a validation error of the matched route.
 */
export function prepareInternal(steps: RouteSteps, request: InternalRequest, parent: InternalParent): PreparedRequest {
  const [path, search] = splitPath(request.path);
  const prepared = steps.prepare({
    method: request.method.toUpperCase(),
    path,
    query: Object.assign(parseQueryString(search), request.query),
    body: emptyBody(),
    post: request.body ?? null,
    headers: normalizeHeaders(request.headers),
    user: parent.user,
    origin: parent.origin,
    site: parent.site,
  });
  const finish = async (outcome: Outcome): Promise<InternalResponse> =>
    ({ status: outcome.status, headers: outcome.headers, body: await steps.render(outcome) });
  return {
    matched: prepared.match !== null,
    allowBatch: prepared.match?.endpoint.allowBatch ?? false,
    error: prepared.error,
    run: async (error = prepared.error) => finish(prepared.match
      ? await steps.execute(prepared, error)
      : errorOutcome(prepared.error)),
  };
}
