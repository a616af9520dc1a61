/** Who is calling: the authenticator the dispatcher asks, and the change token it may share with the request. */
import type { Principal } from './context.js';
import type { CmsRequest } from './types.js';

/**
 * Resolves who is calling: a principal, null for anonymous, or a thrown `CmsError` for bad credentials. It may read
 * the store's change token through `changeToken` (then shared with the rest of the request); whatever writes to the
 * store after reading it must call `written()`.
 */
export type Authenticator = (request: {
  headers: Readonly<Record<string, string>>; user: CmsRequest['user']; remoteAddress?: string; changeToken?: RequestChangeToken;
}) => Promise<Principal | null> | Principal | null;

/**
 * The store's change token as one request reads it: read on first use and kept, read again after `written()`. The
 * first read is made after the request began, so it sees every write acknowledged before.
 */
export class RequestChangeToken {
  #read: Promise<string> | undefined;

  constructor(readonly source: () => Promise<string>) {}

  read(): Promise<string> {
    return (this.#read ??= this.source());
  }

  written(): void {
    this.#read = undefined;
  }
}

/** A promise (or any thenable) rather than a value at hand: only those are waited for, a turn each. */
export function isThenable<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}
