import { isEmail } from '../format/formats.js';
import { formatApplicationPassword } from '../auth/index.js';
import { createUsersApi, type User, type UsersApi, type UsersApiServices } from './api.js';
import { userSlug } from './fields.js';

export interface AdministratorOptions {
  /** Default `admin`. */
  login?: string;
  /** Default: the login when it is an email address, else `{login}@localhost.invalid`. */
  email?: string;
  /**
   * A known application password to make valid (for scripts and tests); without it, a fresh one is minted when
   * the administrator is created, and none otherwise.
   */
  applicationPassword?: string;
  /** The application password's name; default `quire serve`. */
  applicationName?: string;
}

export interface AdministratorSetup {
  user: User;
  /** Whether the user was created by this call. */
  created: boolean;
  /**
   * The application password that now works for the user, in display form: the fresh one (shown only here) or
   * the known one that was asked for. Null when an existing administrator was left as it was.
   */
  applicationPassword: string | null;
}

const DEFAULT_LOGIN = 'admin';
const DEFAULT_APPLICATION_NAME = 'quire serve';

/**
 * Makes sure the standalone server has an administrator to log in with. A user with the login is used as it
 * is (with the known application password made valid, when one is given); otherwise, on a store without an
 * administrator, one is created with a fresh or the known application password. A store that already has
 * other administrators but not this login is left alone: that is an error, not a reason to add an account.
 *
 * Given the cms's `deps` (a `Cms` has them), the whole check-and-create runs in one store transaction, so
 * processes starting together on one store make the administrator once: the others wait for that transaction
 * and then find the user made (and get no password to print). A later start that finds the administrator as
 * asked changes nothing and takes no transaction.
 */
export async function ensureAdministrator(
  cms: { users: UsersApi; deps?: UsersApiServices }, options: AdministratorOptions = {},
): Promise<AdministratorSetup> {
  const { deps } = cms;
  if (deps === undefined) return setUpAdministrator(cms.users, options);
  // A later start, the administrator as asked already: found without the store's write lock, which every write
  // of every process sharing the store waits for, as verifying a known password is slow on purpose.
  const unchanged = await unchangedAdministrator(cms.users, options);
  if (unchanged) return unchanged;
  return deps.storage.transaction((tx) => setUpAdministrator(createUsersApi({ ...deps, storage: tx }), options));
}

/** The setup when the login's user exists and already holds the known application password (if one is given). */
async function unchangedAdministrator(users: UsersApi, options: AdministratorOptions): Promise<AdministratorSetup | null> {
  const login = options.login ?? DEFAULT_LOGIN;
  const existing = await users.find(login);
  if (existing === null || existing.login.toLowerCase() !== login.toLowerCase()) return null;
  if (options.applicationPassword === undefined) return { user: existing, created: false, applicationPassword: null };
  if (await users.verifyApplicationPassword(existing.id, options.applicationPassword) === null) return null;
  return { user: existing, created: false, applicationPassword: formatApplicationPassword(options.applicationPassword) };
}

async function setUpAdministrator(users: UsersApi, options: AdministratorOptions): Promise<AdministratorSetup> {
  const unchanged = await unchangedAdministrator(users, options);
  if (unchanged) return unchanged;
  const login = options.login ?? DEFAULT_LOGIN;
  const applicationName = options.applicationName ?? DEFAULT_APPLICATION_NAME;
  const existing = await users.find(login);

  if (existing !== null && existing.login.toLowerCase() === login.toLowerCase() && options.applicationPassword !== undefined) {
    // The user does not hold the known password: it replaces the one of that name.
    for (const password of await users.listApplicationPasswords(existing.id)) {
      if (password.name.toLowerCase() === applicationName.toLowerCase()) await users.revokeApplicationPassword(existing.id, password.uuid);
    }
    await users.createApplicationPassword(existing.id, { name: applicationName, password: options.applicationPassword });
    return { user: existing, created: false, applicationPassword: formatApplicationPassword(options.applicationPassword) };
  }

  if ((await users.list({ role: 'administrator' })).length > 0) {
    throw new Error(`There is no user "${login}", and the store already has an administrator; not creating another one.`);
  }
  const email = options.email ?? (isEmail(login) ? login : `${userSlug(login) || DEFAULT_LOGIN}@localhost.invalid`);
  const user = await users.create({ login, email, roles: ['administrator'] });
  const minted = await users.createApplicationPassword(user.id, {
    name: applicationName,
    ...(options.applicationPassword === undefined ? {} : { password: options.applicationPassword }),
  });
  return { user, created: true, applicationPassword: minted.password };
}
