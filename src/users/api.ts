import { createPrincipal, verifyApplicationPassword as verifyPasswordHash, type Principal, type RoleTable } from '../auth/index.js';
import { CmsError } from '../core/errors.js';
import { resolveSite, type SiteSettings } from '../core/site.js';
import type { Condition } from '../ports/storage.js';
import {
  createApplicationPassword,
  listApplicationPasswords,
  revokeApplicationPassword,
  tagApplicationPassword,
  toApplicationPassword,
  type ApplicationPassword,
  type CreatedApplicationPassword,
  type NewApplicationPassword,
} from './application-passwords.js';
import { invalidUserIdError } from './errors.js';
import { isValidLogin } from './fields.js';
import { principalOf } from './principal.js';
import { createUser, findUserByEmail, findUserByLogin, getUser, updateUser, type NewUser, type UserChanges } from './store.js';
import { usersIn, type UserRecord } from './records.js';
import type { UsersDeps } from './deps.js';

/** A user as the in-process API returns it: never a password or a hash. */
export interface User {
  id: number;
  login: string;
  email: string;
  /** Display name (HTML special characters escaped, as stored). */
  name: string;
  slug: string;
  roles: string[];
  /** Own grants and denials on top of the roles. */
  capabilities: Record<string, boolean>;
  /** GMT, `YYYY-MM-DDTHH:MM:SS`. */
  registered: string;
  url: string;
  description: string;
  firstName: string;
  lastName: string;
  nickname: string;
  locale: string;
}

/** `cms.users`: seeding and administration from the host's own code, without HTTP or permission checks. */
export interface UsersApi {
  /** Creates a user; throws a `CmsError` (`existing_user_login`, `existing_user_email`, `invalid_email`, ...). */
  create(input: NewUser): Promise<User>;
  get(id: number): Promise<User | null>;
  /** Users in id order, optionally only those holding a role. */
  list(filter?: { role?: string }): Promise<User[]>;
  /** By login or, failing that, by email address; case is ignored. */
  find(loginOrEmail: string): Promise<User | null>;
  update(id: number, changes: UserChanges): Promise<User | null>;
  /**
   * Deletes a user. Their posts go to `reassign` when given (0 leaves them without an author), and are removed
   * otherwise. False when there was no such user.
   */
  delete(id: number, options?: { reassign?: number }): Promise<boolean>;
  /** The principal of a user, for capability checks in host code. */
  principal(id: number): Promise<Principal | null>;
  /** Mints an application password; `password` in the answer is shown only here. */
  createApplicationPassword(userId: number, input: NewApplicationPassword): Promise<CreatedApplicationPassword>;
  listApplicationPasswords(userId: number): Promise<ApplicationPassword[]>;
  /** False when the user has no application password with that uuid. */
  revokeApplicationPassword(userId: number, uuid: string): Promise<boolean>;
  /** The user's application password that `password` (in any grouping) is, or null. */
  verifyApplicationPassword(userId: number, password: string): Promise<ApplicationPassword | null>;
}

export type UsersApiServices = Pick<UsersDeps, 'storage' | 'clock' | 'roles' | 'userPosts' | 'maxApplicationPasswords'>;

/**
 * The in-process API acts as the site's operator: when it deletes a user, the posts that go to the trash are
 * written with an administrator's rights (their content is not filtered as a lesser user's would be).
 */
function operatorOf(roles: RoleTable): Principal {
  return createPrincipal({ id: 0, login: '', roles: ['administrator'] }, roles);
}

export function toUser(record: UserRecord): User {
  return {
    id: record.id,
    login: record.login,
    email: record.email,
    name: record.name,
    slug: record.slug,
    roles: [...record.roles],
    capabilities: { ...record.capabilities },
    registered: record.registered,
    url: record.url,
    description: record.description,
    firstName: record.first_name,
    lastName: record.last_name,
    nickname: record.nickname,
    locale: record.locale,
  };
}

const asUser = (record: UserRecord | null) => (record === null ? null : toUser(record));

export function createUsersApi(services: UsersApiServices, site: SiteSettings = {}): UsersApi {
  const { storage, clock, roles } = services;

  async function requireUser(id: number): Promise<UserRecord> {
    const user = await getUser(storage, id);
    if (user === null) throw invalidUserIdError();
    return user;
  }

  return {
    async create(input) {
      if (!isValidLogin(String(input.login ?? ''))) {
        throw new CmsError(
          'invalid_username',
          'This username is invalid because it uses illegal characters. Please enter a valid username.',
          400,
        );
      }
      return toUser(await createUser(services, input));
    },
    get: async (id) => asUser(await getUser(storage, id)),
    async list(filter = {}) {
      const where: Condition[] = filter.role === undefined ? [] : [{ field: 'roles', op: 'containsAny', values: [filter.role] }];
      const { items } = await usersIn(storage).list({ where });
      return items.map(toUser);
    },
    find: async (loginOrEmail) => asUser((await findUserByLogin(storage, loginOrEmail)) ?? (await findUserByEmail(storage, loginOrEmail))),
    update: async (id, changes) => asUser(await updateUser(services, id, changes)),
    async delete(id, options = {}) {
      const { reassign } = options;
      if (reassign !== undefined && reassign !== 0 && (reassign === id || (await getUser(storage, reassign)) === null)) {
        throw new CmsError('rest_user_invalid_reassign', 'Invalid user ID for reassignment.', 400);
      }
      const posts = services.userPosts;
      return storage.transaction(async (tx) => {
        if ((await getUser(tx, id)) === null) return false;
        if (reassign !== undefined) await posts.reassign(tx, id, reassign);
        else await posts.removeAll(tx, id, { user: operatorOf(roles), site: resolveSite(site, undefined) });
        return usersIn(tx).remove(id);
      });
    },
    principal: async (id) => {
      const user = await getUser(storage, id);
      return user === null ? null : principalOf(user, roles);
    },
    createApplicationPassword: (userId, input) => createApplicationPassword(storage, clock, userId, input, undefined, services.maxApplicationPasswords),
    listApplicationPasswords: (userId) => listApplicationPasswords(storage, userId),
    revokeApplicationPassword: async (userId, uuid) => {
      await requireUser(userId);
      return revokeApplicationPassword(storage, userId, uuid);
    },
    async verifyApplicationPassword(userId, password) {
      const user = await requireUser(userId);
      for (const record of user.application_passwords) {
        if (!(await verifyPasswordHash(password, record.password_hash))) continue;
        if (record.lookup_tag === undefined) await tagApplicationPassword(storage, userId, record.uuid, password);
        return toApplicationPassword(record);
      }
      return null;
    },
  };
}
