/**
 * Running a prepared request: permission, handler, paging headers, then `Allow`. Only promises are waited for,
 * each with one step chained on it: no async function's frame is kept across the waits, and a request whose checks
 * and handler answer at once runs through in one go.
 */
import { allowHeader, asAnswered } from './allow.js';
import { isThenable } from './caller.js';
import { forbidden, isCmsError, toCmsError, type CmsError } from './errors.js';
import { errorOutcome, type Matched, type Outcome } from './outcome.js';
import { pagingHeaders } from './paging.js';
import { isHandlerResult } from './response.js';

type OnError = ((error: unknown) => void) | undefined;

const SAFE_METHODS = new Set(['GET', 'HEAD']);

/** Permission and handler for a prepared request (or its validation error), then the paging headers and `Allow`. */
export function executeRoute(prepared: Matched, validationError: CmsError | null, headerPrefix: string, onError: OnError): Promise<Outcome> {
  try {
    const outcome = validationError ? withAllow(prepared, errorOutcome(validationError, prepared.match.route, prepared.context))
      : stepped(prepared, permission, null, permitted, headerPrefix, onError);
    return isThenable(outcome) ? outcome : Promise.resolve(outcome);
  } catch (error) {
    return Promise.reject(error);
  }
}

type Next = (prepared: Matched, value: unknown, headerPrefix: string, onError: OnError) => Outcome | Promise<Outcome>;

/**
 * `next` with what `step` gives, at once or once its promise settles; what `step` throws, or its promise rejects
 * with, answers the request as an error.
 */
function stepped<Input>(prepared: Matched, step: (prepared: Matched, input: Input) => unknown, input: Input, next: Next,
  headerPrefix: string, onError: OnError): Outcome | Promise<Outcome> {
  let value: unknown;
  try {
    value = step(prepared, input);
  } catch (thrown) {
    return failed(prepared, thrown, onError);
  }
  if (!isThenable(value)) return next(prepared, value, headerPrefix, onError);
  return Promise.resolve(value).then((settled) => next(prepared, settled, headerPrefix, onError), (thrown) => failed(prepared, thrown, onError));
}

function permission({ match, context }: Matched): unknown {
  return match.endpoint.permission(context);
}

function permitted(prepared: Matched, answer: unknown, headerPrefix: string, onError: OnError): Outcome | Promise<Outcome> {
  return stepped(prepared, handler, answer, handled, headerPrefix, onError);
}

/** The handler, once the permission check answered `true`; any other answer refuses (an error as it is). */
function handler({ match, context }: Matched, answer: unknown): unknown {
  if (answer !== true) throw isCmsError(answer) ? answer : forbidden(context.user);
  return match.endpoint.handler(context);
}

function handled(prepared: Matched, value: unknown, headerPrefix: string, onError: OnError): Outcome | Promise<Outcome> {
  const { match, context } = prepared;
  let outcome: Outcome;
  try {
    const result = isHandlerResult(value) ? value : { kind: 'result' as const, status: 200, headers: {}, body: value ?? null };
    const headers = Object.assign({}, result.headers, result.paging ? pagingHeaders(result.paging, context, headerPrefix) : null);
    outcome = { status: result.status, headers, error: null, result, route: match.route, context };
  } catch (thrown) {
    return failed(prepared, thrown, onError);
  }
  return withAllow(prepared, outcome);
}

function failed(prepared: Matched, thrown: unknown, onError: OnError): Outcome | Promise<Outcome> {
  return withAllow(prepared, errorOutcome(toCmsError(thrown, onError), prepared.match.route, prepared.context));
}

/**
 * `Allow` asks the permission checks again, about the state the handler left: after a write the records they
 * remembered may be stale (a deleted post allows nothing), as the reference's checks re-read the object cache.
 */
function withAllow({ match, context, forget }: Matched, outcome: Outcome): Outcome | Promise<Outcome> {
  if (!SAFE_METHODS.has(context.method)) forget();
  const allowed = allowHeader(match.route, asAnswered(context, outcome.result));
  return typeof allowed === 'string' ? allowing(outcome, allowed) : allowed.then((allow) => allowing(outcome, allow));
}

function allowing(outcome: Outcome, allow: string): Outcome {
  if (allow !== '') outcome.headers.Allow = allow;
  return outcome;
}
