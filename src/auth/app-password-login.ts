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
  /** When each was last used (GMT `YYYY-MM-DDTHH:MM:SS`, null if never), in the same order: which untagged one a login verifies. */
  lastUsed?: readonly (string | null)[];
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
 * The user a Basic username names: a login, or an email address when no login matches and it is a valid address
 * (the reference's `is_email`). Null for an empty or unknown username.
 */
export async function findApplicationPasswordHolder<User>(
  username: string,
  directory: ApplicationPasswordDirectory<User>,
): Promise<ApplicationPasswordHolder<User> | null> {
  if (username === '') return null;
  const holder = await directory.findByLogin(username);
  if (holder === null && isEmail(username)) return directory.findByEmail(username);
  return holder;
}

/**
 * Checks a password against a holder's application passwords (`findApplicationPasswordHolder`). Returns null for
 * an unknown user (null holder) and a wrong password alike, after comparable scrypt work (one hash when the
 * holder's passwords have lookup tags; see `matchApplicationPassword`), so neither the answer nor its timing
 * tells whether the user exists.
 */
export async function checkApplicationPassword<User>(
  password: string,
  holder: ApplicationPasswordHolder<User> | null,
): Promise<ApplicationPasswordLogin<User> | null> {
  const passwordIndex = await matchApplicationPassword(password, holder?.passwordHashes ?? [], undefined, holder?.lookupTags, holder?.lastUsed);
  if (holder === null || passwordIndex === -1) return null;
  return { user: holder.user, passwordIndex };
}

/** Both steps: finds the user the credentials name and checks the password. */
export async function loginWithApplicationPassword<User>(
  credentials: BasicCredentials,
  directory: ApplicationPasswordDirectory<User>,
): Promise<ApplicationPasswordLogin<User> | null> {
  return checkApplicationPassword(credentials.password, await findApplicationPasswordHolder(credentials.username, directory));
}

/** The one answer to every failed Basic attempt: unknown user, wrong password, or unreadable header. */
export function invalidApplicationPasswordError(): CmsError {
  return new CmsError('incorrect_password', 'The provided password is an invalid application password.', 401);
}
