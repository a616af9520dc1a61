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
 * and then find the user made (and get no password to print).
 */
export async function ensureAdministrator(
  cms: { users: UsersApi; deps?: UsersApiServices }, options: AdministratorOptions = {},
): Promise<AdministratorSetup> {
  const { deps } = cms;
  if (deps === undefined) return setUpAdministrator(cms.users, options);
  return deps.storage.transaction((tx) => setUpAdministrator(createUsersApi({ ...deps, storage: tx }), options));
}

async function setUpAdministrator(users: UsersApi, options: AdministratorOptions): Promise<AdministratorSetup> {
  const login = options.login ?? DEFAULT_LOGIN;
  const applicationName = options.applicationName ?? DEFAULT_APPLICATION_NAME;
  const existing = await users.find(login);

  if (existing !== null && existing.login.toLowerCase() === login.toLowerCase()) {
    if (options.applicationPassword === undefined) return { user: existing, created: false, applicationPassword: null };
    const known = await users.verifyApplicationPassword(existing.id, options.applicationPassword);
    if (known === null) {
      for (const password of await users.listApplicationPasswords(existing.id)) {
        if (password.name.toLowerCase() === applicationName.toLowerCase()) await users.revokeApplicationPassword(existing.id, password.uuid);
      }
      await users.createApplicationPassword(existing.id, { name: applicationName, password: options.applicationPassword });
    }
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
