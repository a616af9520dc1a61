import { isEmail } from '../format/formats.js';
import { CmsError } from '../core/errors.js';
import { matchApplicationPassword } from './app-passwords.js';
import type { BasicCredentials } from './basic.js';

/** A user found by login or email, with the hashes of their application passwords in stored order. */
export interface ApplicationPasswordHolder<User> {
  user: User;
  passwordHashes: readonly string[];
  /** The passwords' lookup tags, in the same order (see `applicationPasswordLookupTag`); undefined where none is stored. */
  lookupTags?: readonly (string | undefined)[];
}

/**
 * How the login step finds users; storage supplies it. Login lookups should ignore case, as the reference's
 * database collation does.
 */
export interface ApplicationPasswordDirectory<User> {
  findByLogin(login: string): Promise<ApplicationPasswordHolder<User> | null> | ApplicationPasswordHolder<User> | null;
  findByEmail(email: string): Promise<ApplicationPasswordHolder<User> | null> | ApplicationPasswordHolder<User> | null;
}

export interface ApplicationPasswordLogin<User> {
  user: User;
  /** Which of the holder's `passwordHashes` matched, so its last use can be recorded. */
  passwordIndex: number;
}

/**
 * Checks Basic credentials against application passwords: the username is a login, or an email address when no
 * login matches and it is a valid address (the reference's `is_email`). Returns null for an unknown user and a wrong password alike, after
 * comparable scrypt work (one hash when the holder's passwords have lookup tags), so neither the answer nor its timing tells whether the user exists.
 */
export async function loginWithApplicationPassword<User>(
  credentials: BasicCredentials,
  directory: ApplicationPasswordDirectory<User>,
): Promise<ApplicationPasswordLogin<User> | null> {
  let holder: ApplicationPasswordHolder<User> | null = null;
  if (credentials.username !== '') {
    holder = await directory.findByLogin(credentials.username);
    if (holder === null && isEmail(credentials.username)) {
      holder = await directory.findByEmail(credentials.username);
    }
  }
  const passwordIndex = await matchApplicationPassword(credentials.password, holder?.passwordHashes ?? [], undefined, holder?.lookupTags);
  if (holder === null || passwordIndex === -1) return null;
  return { user: holder.user, passwordIndex };
}

/** The one answer to every failed Basic attempt: unknown user, wrong password, or unreadable header. */
export function invalidApplicationPasswordError(): CmsError {
  return new CmsError('incorrect_password', 'The provided password is an invalid application password.', 401);
}
