import {
  checkApplicationPassword,
  dummyVerify,
  findApplicationPasswordHolder,
  invalidApplicationPasswordError,
  parseBasicAuthorization,
  throttledError,
  type ApplicationPasswordDirectory,
  type ApplicationPasswordHolder,
  type LoginReservation,
  type LoginThrottle,
  type Principal,
  type RoleTable,
  type SiteSecret,
} from '../auth/index.js';
import * as crypto from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { writtenBetween } from '../core/kept-facts.js';
import type { Clock } from '../ports/clock.js';
import type { StoragePort } from '../ports/storage.js';
import { needsUsageStamp, recordApplicationPasswordUse, tagApplicationPassword } from './application-passwords.js';
import { applicationPasswordPrincipalOf } from './principal.js';
import { USERS, type UserRecord } from './records.js';
import { findUserByEmail, findUserByLogin, getUser } from './store.js';

/** `crypto.hash` (Node 20.12 and later); absent elsewhere. */
const oneShotHash = (crypto as { hash?: (algorithm: string, data: string, encoding: 'base64') => string }).hash;

export interface BasicAuthenticationInput {
  headers: Readonly<Record<string, string>>;
  remoteAddress?: string;
  /** The store's change token as this request reads it (see `RequestChangeToken` in the dispatcher). */
  changeToken?: { read(): Promise<string>; written(): void };
}

export interface BasicAuthenticationServices {
  storage: StoragePort;
  clock: Clock;
  roles: RoleTable;
  /** Failed attempts are counted here, and refused with 429 while it says so; none: nothing is throttled. */
  loginThrottle?: LoginThrottle | null;
  /** The site secret: remembered credentials are keyed under its `auth/credential-memory` key (read once ready). */
  secret: Pick<SiteSecret, 'key'>;
}

function holderOf(user: UserRecord | null): ApplicationPasswordHolder<UserRecord> | null {
  if (user === null) return null;
  const passwords = user.application_passwords;
  return {
    user,
    passwordHashes: passwords.map((record) => record.password_hash),
    lookupTags: passwords.map((record) => record.lookup_tag),
    lastUsed: passwords.map((record) => record.last_used),
  };
}

function directoryOf(storage: StoragePort): ApplicationPasswordDirectory<UserRecord> {
  return {
    findByLogin: async (login) => holderOf(await findUserByLogin(storage, login)),
    findByEmail: async (email) => holderOf(await findUserByEmail(storage, email)),
  };
}

export interface CredentialMemoryOptions {
  /** How long a verified credential is remembered, in milliseconds (default 2 minutes; 0 remembers nothing). */
  rememberMs?: number;
  /** Most credentials remembered at once (default 10,000; the least recently used go first). */
  maxRemembered?: number;
}

/** What a verified credential is remembered as: never the credential itself. */
interface RememberedLogin {
  userId: number;
  username: string;
  uuid: string;
  passwordHash: string;
  /** The user and principal last found for it, and the store's change token they were read under. */
  seen?: { token: string; user: UserRecord; principal: Principal };
}

export type BasicAuthenticator = (input: BasicAuthenticationInput) => Promise<Principal | undefined>;

/**
 * The HTTP Basic step of authentication: `undefined` when the request makes no Basic attempt (no
 * `Authorization` header, or another scheme), the user's principal when login (or email) and application
 * password match, and otherwise a thrown 401 `incorrect_password`, the same for every kind of failure.
 *
 * Verifying a password is deliberately slow (scrypt), so a verified header is remembered for a short while,
 * keyed by an HMAC of it under a key derived from the site secret. A remembered login is used only while the
 * user still holds that very application password (same uuid and hash) under the same login or email, and the
 * principal is always built from the user as stored now, so a revoke, a new password, a login change or a role
 * change takes effect on the next request. Failures are never remembered. While the store's change token stays
 * the same the user is as it was, so the principal found for a remembered credential is reused until it moves.
 */
export function createBasicAuthenticator(services: BasicAuthenticationServices, options: CredentialMemoryOptions = {}): BasicAuthenticator {
  const rememberMs = options.rememberMs ?? 2 * 60 * 1000;
  // Made at the first login: the cache sets aside room for all its entries when it is made.
  let remembered: LRUCache<string, RememberedLogin> | undefined;
  const memoryOf = () => {
    remembered ??= new LRUCache<string, RememberedLogin>({ max: options.maxRemembered ?? 10_000, ttl: rememberMs });
    return remembered;
  };
  // Asked for at the first request: the secret is ready only by then.
  let memoryKey: Buffer | undefined;
  let memoryPrefix: string | undefined;
  /** Full verifications under way, by remembered key. */
  const verifying = new Map<string, Promise<Principal>>();
  const keyOf = (header: string) => {
    memoryKey ??= services.secret.key('auth/credential-memory');
    // A keyed SHA-256 (the key, then the header) in one call where the runtime has it: a fifth of an HMAC's cost,
    // paid on every signed-in request. The keys are only looked up here, never shown, so either serves.
    if (typeof oneShotHash !== 'function') return crypto.createHmac('sha256', memoryKey).update(header).digest('base64');
    memoryPrefix ??= memoryKey.toString('base64');
    return oneShotHash('sha256', `${memoryPrefix}\u0000${header}`, 'base64');
  };

  return async (input) => {
    const header = input.headers.authorization;
    // A remembered header was verified, so it reads as Basic credentials: it is looked up before it is parsed.
    const remembering = remembered !== undefined && header !== undefined;
    const rememberedKey = remembering ? keyOf(header) : '';
    const recalled = remembering ? remembered!.get(rememberedKey) : undefined;
    if (recalled) {
      const principal = await principalRecalled(recalled, input, services);
      if (principal !== null) return principal;
      remembered!.delete(rememberedKey);
    }
    const credentials = parseBasicAuthorization(header);
    if (credentials === null) return undefined;
    const throttle = services.loginThrottle ?? null;
    const client = input.remoteAddress;
    if (credentials === 'malformed') {
      await reserveOrRefuse(throttle, client, null, services.clock);
      // As slow as a real attempt, so an unreadable header cannot be told apart by timing either.
      await dummyVerify();
      throw invalidApplicationPasswordError();
    }
    const memory = rememberMs > 0 ? memoryOf() : null;
    const key = memory ? (remembering ? rememberedKey : keyOf(header!)) : '';
    const underWay = memory ? verifying.get(key) : undefined;
    if (underWay) {
      // The same header is being verified: wait for that rather than count an attempt of its own, so a burst of
      // one client's requests to a process that has not verified it yet is not refused as too many failures.
      await underWay.catch(() => undefined);
      const known = memory!.get(key);
      if (known) {
        const principal = await principalRecalled(known, input, services);
        if (principal !== null) return principal;
        memory!.delete(key);
      }
    }
    if (!memory) return verify(credentials, '', null, input);
    const verification = verify(credentials, key, memory, input);
    verifying.set(key, verification);
    const done = () => { if (verifying.get(key) === verification) verifying.delete(key); };
    verification.then(done, done);
    return verification;
  };

  async function verify(
    credentials: { username: string; password: string }, key: string, memory: LRUCache<string, RememberedLogin> | null, input: BasicAuthenticationInput,
  ): Promise<Principal> {
    const throttle = services.loginThrottle ?? null;
    const client = input.remoteAddress;
    const holder = await findApplicationPasswordHolder(credentials.username, directoryOf(services.storage));
    // One user's login and email count together; a name that finds nobody counts as itself.
    const subject = holder === null ? { name: credentials.username } : { userId: holder.user.id };
    const reservation = await reserveOrRefuse(throttle, client, subject, services.clock);
    const login = await checkApplicationPassword(credentials.password, holder);
    const used = login === null ? undefined : login.user.application_passwords[login.passwordIndex];
    // The failure was counted ahead by the reservation.
    if (login === null || used === undefined) throw invalidApplicationPasswordError();
    await reservation?.succeeded(services.clock.now().getTime());
    if (used.lookup_tag === undefined) await tagQuietly(services.storage, login.user.id, used.uuid, credentials.password);
    memory?.set(key, { userId: login.user.id, username: credentials.username, uuid: used.uuid, passwordHash: used.password_hash });
    return principalFor(login.user, used.uuid, input, services);
  }
}

/**
 * Answers 429 before any password work while the throttle refuses this client or login; otherwise the attempt
 * is counted as a failure now, in the same step as the check, and given back if it succeeds.
 */
async function reserveOrRefuse(
  throttle: LoginThrottle | null,
  client: string | undefined,
  subject: { userId: number } | { name: string } | null,
  clock: Clock,
): Promise<LoginReservation | null> {
  if (throttle === null) return null;
  const reservation = await throttle.reserve(client, subject, clock.now().getTime());
  if (reservation.refusedFor > 0) throw throttledError('rest_too_many_login_attempts', 'Too many failed login attempts. Try again later.', reservation.refusedFor);
  return reservation;
}

async function tagQuietly(storage: StoragePort, userId: number, uuid: string, password: string): Promise<void> {
  try {
    await tagApplicationPassword(storage, userId, uuid, password);
  } catch {
    // Tagging only saves work on later failures; the next successful login tries again.
  }
}

/**
 * The principal of a remembered credential, or null when it no longer logs in (the entry is then forgotten). The
 * user is read again unless the store's change token is the one it was last read under.
 */
async function principalRecalled(known: RememberedLogin, input: BasicAuthenticationInput, services: BasicAuthenticationServices): Promise<Principal | null> {
  const token = input.changeToken ? await input.changeToken.read() : services.storage.changeToken ? await services.storage.changeToken() : undefined;
  const seen = known.seen;
  // Writes since that left the user's record alone (most: a signed-in writer's own) leave its principal as it was.
  if (seen !== undefined && token !== undefined && seen.token !== token && !userWrittenBetween(services.storage, seen.token, token, known.userId)) {
    seen.token = token;
  }
  if (seen !== undefined && seen.token === token) {
    // Used within the day (the usual case): nothing to stamp, nor to wait for.
    if (!needsUsageStamp(seen.user, known.uuid, services.clock.now().getTime())) return seen.principal;
    // The request may go on with the token just read only while nothing was written since.
    if (await recordUseQuietly(seen.user, known.uuid, input, services)) input.changeToken?.written();
    return seen.principal;
  }
  // What follows may write (the usage stamp, or a full login when this one no longer counts).
  input.changeToken?.written();
  const user = await getUser(services.storage, known.userId);
  const used = user?.application_passwords.find((record) => record.uuid === known.uuid && record.password_hash === known.passwordHash);
  if (!user || !used || !answersTo(user, known.username)) return null;
  const principal = await principalFor(user, used.uuid, input, services);
  if (token !== undefined) known.seen = { token, user, principal };
  return principal;
}

/** Whether a write between the store's states `since` and `token` may have changed user `id` (true when it cannot tell). */
function userWrittenBetween(storage: StoragePort, since: string, token: string, id: number): boolean {
  const writes = writtenBetween(storage, since, token);
  if (writes === null) return true;
  for (const write of writes) if (write.collection === USERS && write.id === id) return true;
  return false;
}

function answersTo(user: UserRecord, username: string): boolean {
  const name = username.toLowerCase();
  return user.login.toLowerCase() === name || user.email.toLowerCase() === name;
}

async function principalFor(user: UserRecord, uuid: string, input: BasicAuthenticationInput, services: BasicAuthenticationServices): Promise<Principal> {
  await recordUseQuietly(user, uuid, input, services);
  return applicationPasswordPrincipalOf(user, services.roles, uuid);
}

/** Stamps the usage; true when it wrote, or tried to. */
async function recordUseQuietly(user: UserRecord, uuid: string, input: BasicAuthenticationInput, services: BasicAuthenticationServices): Promise<boolean> {
  try {
    return await recordApplicationPasswordUse(services.storage, services.clock, user.id, uuid, input.remoteAddress ?? null, user);
  } catch {
    // A failed usage stamp must not turn a valid login into an error; the next request records it again.
    return true;
  }
}
