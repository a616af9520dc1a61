import {
  dummyVerify,
  invalidApplicationPasswordError,
  loginWithApplicationPassword,
  parseBasicAuthorization,
  type ApplicationPasswordDirectory,
  type ApplicationPasswordHolder,
  type Principal,
  type RoleTable,
} from '../auth/index.js';
import type { Clock } from '../ports/clock.js';
import type { StoragePort } from '../ports/storage.js';
import { recordApplicationPasswordUse } from './application-passwords.js';
import { applicationPasswordPrincipalOf } from './principal.js';
import type { UserRecord } from './records.js';
import { findUserByEmail, findUserByLogin } from './store.js';

export interface BasicAuthenticationInput {
  headers: Readonly<Record<string, string>>;
  remoteAddress?: string;
}

export interface BasicAuthenticationServices {
  storage: StoragePort;
  clock: Clock;
  roles: RoleTable;
}

function holderOf(user: UserRecord | null): ApplicationPasswordHolder<UserRecord> | null {
  return user === null ? null : { user, passwordHashes: user.application_passwords.map((record) => record.password_hash) };
}

function directoryOf(storage: StoragePort): ApplicationPasswordDirectory<UserRecord> {
  return {
    findByLogin: async (login) => holderOf(await findUserByLogin(storage, login)),
    findByEmail: async (email) => holderOf(await findUserByEmail(storage, email)),
  };
}

/**
 * The HTTP Basic step of authentication: `undefined` when the request makes no Basic attempt (no
 * `Authorization` header, or another scheme), the user's principal when login (or email) and application
 * password match, and otherwise a thrown 401 `incorrect_password`, the same for every kind of failure.
 */
export async function authenticateWithApplicationPassword(
  input: BasicAuthenticationInput,
  services: BasicAuthenticationServices,
): Promise<Principal | undefined> {
  const credentials = parseBasicAuthorization(input.headers.authorization);
  if (credentials === null) return undefined;
  if (credentials === 'malformed') {
    // As slow as a real attempt, so an unreadable header cannot be told apart by timing either.
    await dummyVerify();
    throw invalidApplicationPasswordError();
  }
  const login = await loginWithApplicationPassword(credentials, directoryOf(services.storage));
  if (login === null) throw invalidApplicationPasswordError();
  const used = login.user.application_passwords[login.passwordIndex];
  if (used === undefined) throw invalidApplicationPasswordError();
  try {
    await recordApplicationPasswordUse(services.storage, services.clock, login.user.id, used.uuid, input.remoteAddress ?? null);
  } catch {
    // A failed usage stamp must not turn a valid login into an error; the next request records it again.
  }
  return applicationPasswordPrincipalOf(login.user, services.roles, used.uuid);
}
