/**
 * The key of a kept answer: everything of the request the answer depends on. Headers are not in it: the parts
 * of an answer that follow request headers (CORS, `Vary`, no-cache) are laid over every answer afresh, and no
 * cached route reads a header. The store, the settings and the clock are the generation's business.
 */
import type { Principal } from '../context.js';
import { isSealedSet } from '../sealed-set.js';
import type { ParamMap } from '../types.js';

export interface KeyParts {
  /** The API root the links are built from (the configured site address, or the request's). */
  apiUrl: string;
  /** The site's offset from GMT now (it follows daylight saving time under a named time zone). */
  gmtOffset: number;
  /** The resolved route path (`rest_route` applied, trailing slashes removed). */
  path: string;
  /** The query string exactly as sent (every output switch — `_fields`, `_embed`, `_envelope`, `_jsonp`… — is in it). */
  query: string | ParamMap | undefined;
  user: Principal | null;
}

/** The key, or null when the caller cannot be told apart reliably (a principal that does not serialise). */
export function cacheKey(parts: KeyParts): string | null {
  const identity = identityOf(parts.user);
  if (identity === null) return null;
  const query = typeof parts.query === 'object' ? `o${JSON.stringify(parts.query)}` : `s${parts.query ?? ''}`;
  // Each part prefixed with its length, so no crafted path or query can spell another request's key.
  const offset = String(parts.gmtOffset);
  return `${identity.length}:${identity}${parts.apiUrl.length}:${parts.apiUrl}${offset.length}:${offset}${parts.path.length}:${parts.path}${query.length}:${query}`;
}

/**
 * The caller as far as answers can tell: anonymous callers share one key space; a signed-in caller is every
 * field of the principal (id, login, roles, capabilities, the application password used…), so a role or
 * capability granted by the host's own login changes the key even when nothing in the store changed.
 */
export function identityOf(user: Principal | null): string | null {
  if (user === null) return '';
  try {
    return JSON.stringify(user, (_name, value: unknown) => (value instanceof Set ? setText(value) : value));
  } catch {
    return null;
  }
}

/**
 * Capability sets are shared between principals of the same roles (see `createPrincipal`) and sealed, so each
 * stands for itself by a number; any other set is spelt out every time, since it may have changed.
 */
const sealedSetNumbers = new WeakMap<ReadonlySet<unknown>, number>();
let lastSealedSetNumber = 0;

function setText(set: ReadonlySet<unknown>): string | unknown[] {
  if (!isSealedSet(set)) return [...set];
  let number = sealedSetNumbers.get(set);
  if (number === undefined) sealedSetNumbers.set(set, (number = ++lastSealedSetNumber));
  return `sealed set ${number}`;
}
