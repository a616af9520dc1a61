import type { JsonObject, JsonValue } from './types.js';

/**
 * The one error type. Handlers, permission checks and the core throw (or return) it; the dispatcher turns it
 * into `{code, message, data: {status, ...}}`.
 */
export class CmsError extends Error {
  readonly code: string;
  readonly status: number;
  /** Extra members of `data`, next to `status`. */
  readonly extra: JsonObject;
  /** Further errors, reported as `additional_errors`. */
  readonly additional: CmsError[];
  /** Data the error held before `data`, oldest first, reported as `additional_data` when there is any. */
  readonly additionalData: JsonValue[];
  /** Headers the error answer carries (`Retry-After` of a 503). */
  readonly headers: Record<string, string>;

  constructor(code: string, message: string, status: number, extra: JsonObject = {}, additional: CmsError[] = []) {
    // An answer to the client, not a fault: no stack is captured. Capturing one costs more than many permission
    // checks that return an error (the `Allow` header asks every endpoint's check on each read).
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    try {
      super(message);
    } finally {
      Error.stackTraceLimit = limit;
    }
    this.headers = {};
    this.name = 'CmsError';
    this.code = code;
    this.status = status;
    this.extra = extra;
    this.additional = additional;
    this.additionalData = [];
  }

  toBody(): JsonObject {
    const body: JsonObject = { code: this.code, message: this.message, data: { status: this.status, ...this.extra } };
    if (this.additionalData.length > 0) body.additional_data = [...this.additionalData];
    if (this.additional.length > 0) {
      body.additional_errors = this.additional.map((error) => error.toBody());
    }
    return body;
  }
}

export function isCmsError(value: unknown): value is CmsError {
  return value instanceof CmsError;
}

/** 401 for anonymous requests, 403 for authenticated ones: the reference's `rest_authorization_required_code`. */
export function authorizationStatus(user: { id: number } | null | undefined): 401 | 403 {
  return user && user.id > 0 ? 403 : 401;
}

/**
 * A "not allowed" error whose status depends on whether anyone is logged in: one frozen error for each status,
 * code and message, shared by every request. The `Allow` header asks every endpoint's check on each read, and
 * building an error costs far more than the checks themselves.
 */
export function forbidden(
  user: { id: number } | null | undefined,
  code = 'rest_forbidden',
  message = 'Sorry, you are not allowed to do that.',
): CmsError {
  const status = authorizationStatus(user);
  let byStatus = refusals.get(code)?.get(message);
  if (byStatus === undefined) {
    if (refusalCount >= MAX_REFUSALS) {
      refusals.clear();
      refusalCount = 0;
    }
    let byMessage = refusals.get(code);
    if (byMessage === undefined) refusals.set(code, (byMessage = new Map()));
    byMessage.set(message, (byStatus = [undefined, undefined]));
    refusalCount += 1;
  }
  const slot = status === 401 ? 0 : 1;
  return (byStatus[slot] ??= frozen(new CmsError(code, message, status)));
}

/** The refusals made so far, by code, then message, then status (401, 403); bounded (messages may be spelt at run time). */
const refusals = new Map<string, Map<string, [CmsError | undefined, CmsError | undefined]>>();
const MAX_REFUSALS = 512;
let refusalCount = 0;

/** An error no one can change, with its data, headers and further errors. */
export function frozen(error: CmsError): CmsError {
  for (const part of [error.extra, error.additional, error.additionalData, error.headers, error]) Object.freeze(part);
  return error;
}

export function noRoute(): CmsError {
  return new CmsError('rest_no_route', 'No route was found matching the URL and request method.', 404);
}

export function internalError(): CmsError {
  return new CmsError('internal_error', 'The server met an unexpected condition and could not answer the request.', 500);
}

/** How long a client is told to wait when the store is unreachable, in seconds (the `Retry-After` header). */
export const STORE_UNAVAILABLE_RETRY_SECONDS = 5;

/**
 * The store could not be reached, or could not take its write lock in time (the storage port's
 * `store_unavailable`): a 503 with `Retry-After`, an expected condition rather than a fault. Told apart by shape,
 * as the core sits below the ports.
 */
function isStoreUnavailable(thrown: unknown): boolean {
  return thrown instanceof Error && (thrown as { name?: unknown }).name === 'StorageError'
    && (thrown as { code?: unknown }).code === 'store_unavailable';
}

export function storeUnavailable(): CmsError {
  const error = new CmsError('store_unavailable', 'The content store is unavailable right now. Please try again shortly.', 503, {
    retry_after: STORE_UNAVAILABLE_RETRY_SECONDS,
  });
  error.headers['Retry-After'] = String(STORE_UNAVAILABLE_RETRY_SECONDS);
  return error;
}

/**
 * The one normaliser: a `CmsError` passes as it is; the store's `store_unavailable` becomes a 503 (not reported);
 * anything else is reported (never to the client) and becomes a bare 500 `internal_error`. A failing reporter is
 * ignored rather than turned into a second failure.
 */
export function toCmsError(thrown: unknown, report: ((error: unknown) => void) | undefined): CmsError {
  if (isCmsError(thrown)) return thrown;
  if (isStoreUnavailable(thrown)) return storeUnavailable();
  try {
    report?.(thrown);
  } catch {
    // Nothing more can be done with an error about an error.
  }
  return internalError();
}

/** The detail entry of one failed argument, as it appears in `data.details`. */
export interface ArgIssue {
  code: string;
  message: string;
  data: JsonValue;
}
