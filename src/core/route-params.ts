/**
 * The parameters of a matched route call: its groups (`ParamGroups`) checked and sanitised, or, for a GET that
 * sends what an earlier one sent, what that one's came to (params-memo.ts).
 */
import type { ArgCheckContext } from './args/define.js';
import { toCmsError, type CmsError } from './errors.js';
import type { RouteCall } from './outcome.js';
import { ParamGroups, validateParams } from './params.js';
import { keepParams, keptParams, keptParamsKey, paramsOf, RecordingContext, type CheckedParams } from './params-memo.js';
import type { RouteMatch } from './registry.js';

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const SAFE_METHODS = new Set(['GET', 'HEAD']);

export function groupsOf(call: RouteCall, found: RouteMatch): ParamGroups {
  return new ParamGroups({
    json: call.body.json,
    post: BODY_METHODS.has(call.method) ? call.post : null,
    query: call.query,
    url: found.urlParams,
    endpoint: found.endpoint,
    pathParams: found.route.pathParams,
  });
}

export function checkContextOf(call: RouteCall, groups: ParamGroups): ArgCheckContext {
  return { user: call.user, method: call.method, param: (name) => groups.get(name) };
}

/** The call's parameters checked (all at once), with the first error found; `onError` hears of unexpected ones. */
export function checkRouteParams(call: RouteCall, found: RouteMatch, onError?: (error: unknown) => void): { checked: CheckedParams; error: CmsError | null } {
  const { body, user, method } = call;
  // Without a body, only the query and the path give parameters (and the caller, to the arguments' own checks).
  const key = body.json === undefined && body.jsonError === null && SAFE_METHODS.has(method) ? keptParamsKey(call.queryText, found.urlParams) : null;
  const known = key === null ? undefined : keptParams(found.endpoint, key, user, method);
  if (known) return { checked: known, error: null };
  const groups = groupsOf(call, found);
  if (body.jsonError) return { checked: paramsOf(groups), error: body.jsonError };
  const recording = key === null ? null : new RecordingContext(user, method, groups);
  try {
    validateParams(groups, found.endpoint, recording ?? checkContextOf(call, groups));
  } catch (thrown) {
    return { checked: paramsOf(groups), error: toCmsError(thrown, onError) };
  }
  return { checked: recording && key ? keepParams(found.endpoint, key, groups, recording) : paramsOf(groups), error: null };
}
