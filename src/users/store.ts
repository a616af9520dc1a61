import { isEmail } from '../format/formats.js';
import { CmsError } from '../core/errors.js';
import type { JsonObject } from '../core/types.js';
import { hashAccountPassword, type RoleTable } from '../auth/index.js';
import type { Clock } from '../ports/clock.js';
import type { Condition, StoragePort } from '../ports/storage.js';
import { unknownRoleError } from './errors.js';
import {
  MAX_DESCRIPTION_LENGTH,
  MAX_LOGIN_LENGTH,
  MAX_NAME_LENGTH,
  MAX_SLUG_LENGTH,
  MAX_URL_LENGTH,
  escapeSpecialCharacters,
  sanitizeDescription,
  sanitizeLogin,
  sanitizeNameField,
  sanitizeUserUrl,
  userSlug,
} from './fields.js';
import { gmtDateTime, usersIn, type UserRecord } from './records.js';

/** What a new user is made of. Only `login` and `email` are required. */
export interface NewUser {
  login: string;
  email: string;
  /** The account password (hashed; never accepted over REST). */
  password?: string | null;
  /** Default: the `subscriber` role. An empty list gives a user without a role. */
  roles?: readonly string[];
  /** Display name; default: first and last name, or the login. */
  name?: string;
  firstName?: string;
  lastName?: string;
  /** Default: the login. */
  nickname?: string;
  /** Default: made from the login. A slug already taken gets a numeric suffix. */
  slug?: string;
  url?: string;
  description?: string;
  locale?: string;
  /** Own capability grants (`true`) and denials (`false`) on top of the roles. */
  capabilities?: Readonly<Record<string, boolean>>;
  /** Registration date; default: now. */
  registered?: Date;
}

/** Changes to a user; the login cannot change. */
export type UserChanges = Partial<Omit<NewUser, 'login' | 'registered'>>;

export interface UserStoreContext {
  storage: StoragePort;
  clock: Clock;
  roles: RoleTable;
}

export const DEFAULT_ROLE = 'subscriber';

/**
 * Names and descriptions that reach the store by another way than a request (the in-process API, a WXR import)
 * are bounded as the request arguments are, with their error: they are cleaned on the main thread.
 */
function checkTextLengths(input: Pick<NewUser, 'name' | 'firstName' | 'lastName' | 'nickname' | 'description'>): void {
  const fields = [
    ['name', input.name, MAX_NAME_LENGTH], ['first_name', input.firstName, MAX_NAME_LENGTH], ['last_name', input.lastName, MAX_NAME_LENGTH],
    ['nickname', input.nickname, MAX_NAME_LENGTH], ['description', input.description, MAX_DESCRIPTION_LENGTH],
  ] as const;
  const params: Record<string, string> = {};
  const details: Record<string, JsonObject> = {};
  for (const [field, text, max] of fields) {
    if (typeof text !== 'string' || text.length <= max || [...text.slice(0, 2 * max + 1)].length <= max) continue;
    params[field] = `${field} must be at most ${max.toLocaleString('en-US')} characters long.`;
    details[field] = { code: 'rest_too_long', message: params[field]!, data: null };
  }
  const names = Object.keys(params);
  if (names.length > 0) throw new CmsError('rest_invalid_param', `Invalid parameter(s): ${names.join(', ')}`, 400, { params, details });
}

/** Stored users: every write goes through a transaction, so uniqueness checks and writes cannot interleave. */
export async function getUser(storage: StoragePort, id: number): Promise<UserRecord | null> {
  if (!Number.isInteger(id) || id <= 0) return null;
  return usersIn(storage).get(id);
}

async function findOne(storage: StoragePort, where: Condition[]): Promise<UserRecord | null> {
  const { items } = await usersIn(storage).list({ where, limit: 1 });
  return items[0] ?? null;
}

/** By login, ignoring case as the reference's database collation does. */
export function findUserByLogin(storage: StoragePort, login: string): Promise<UserRecord | null> {
  return findOne(storage, [{ field: 'login', op: 'textEquals', value: login }]);
}

/** By email address, ignoring case. */
export function findUserByEmail(storage: StoragePort, email: string): Promise<UserRecord | null> {
  if (email === '') return Promise.resolve(null);
  return findOne(storage, [{ field: 'email', op: 'textEquals', value: email }]);
}

export function findUserBySlug(storage: StoragePort, slug: string): Promise<UserRecord | null> {
  return findOne(storage, [{ field: 'slug', op: 'eq', value: slug }]);
}

function badInput(code: string, message: string): CmsError {
  return new CmsError(code, message, 400);
}

export function checkRoles(roles: readonly string[], table: RoleTable): void {
  for (const role of roles) {
    if (!table.has(role)) throw unknownRoleError(role);
  }
}

function cleanEmail(email: string): string {
  const trimmed = email.trim();
  if (!isEmail(trimmed)) throw badInput('invalid_email', 'Invalid email address.');
  return trimmed;
}

function cleanUrl(url: string): string {
  const cleaned = sanitizeUserUrl(url);
  if (cleaned.length > MAX_URL_LENGTH) throw badInput('user_url_too_long', 'User URL may not be longer than 100 characters.');
  return cleaned;
}

function defaultDisplayName(login: string, firstName: string, lastName: string): string {
  if (firstName !== '' && lastName !== '') return `${firstName} ${lastName}`;
  return firstName || lastName || login;
}

/** A slug not used by another user: `name`, then `name-2`, `name-3`, ... within the length limit. */
async function uniqueSlug(storage: StoragePort, wanted: string, ownId: number | null): Promise<string> {
  const isFree = async (slug: string) => {
    const holder = await findUserBySlug(storage, slug);
    return holder === null || holder.id === ownId;
  };
  if (await isFree(wanted)) return wanted;
  for (let suffix = 2; ; suffix += 1) {
    const candidate = `${wanted.slice(0, MAX_SLUG_LENGTH - 1 - String(suffix).length)}-${suffix}`;
    if (await isFree(candidate)) return candidate;
  }
}

function slugFor(requested: string | undefined, login: string): string {
  const fromRequest = requested === undefined ? '' : userSlug(requested);
  const slug = fromRequest !== '' ? fromRequest : userSlug(login.slice(0, MAX_SLUG_LENGTH));
  if (slug.length > MAX_SLUG_LENGTH) throw badInput('user_nicename_too_long', 'Nicename may not be longer than 50 characters.');
  return slug;
}

function capabilityFields(capabilities: Readonly<Record<string, boolean>>): Pick<UserRecord, 'capabilities' | 'capability_names'> {
  const own: Record<string, boolean> = {};
  for (const [name, granted] of Object.entries(capabilities)) own[name] = granted === true;
  return { capabilities: own, capability_names: Object.keys(own) };
}

/**
 * Creates a user, with the checks of the reference's `wp_insert_user` in its order: the login is cleaned to the
 * characters logins may hold and must be non-empty, at most 60 characters and unused; the email must be unused.
 */
export async function createUser(store: UserStoreContext, input: NewUser): Promise<UserRecord> {
  checkTextLengths(input);
  const login = sanitizeLogin(String(input.login ?? ''));
  if (login === '') throw badInput('empty_user_login', 'Cannot create a user with an empty login name.');
  if ([...login].length > MAX_LOGIN_LENGTH) throw badInput('user_login_too_long', 'Username may not be longer than 60 characters.');
  const email = cleanEmail(String(input.email ?? ''));
  const roles = [...(input.roles ?? (store.roles.has(DEFAULT_ROLE) ? [DEFAULT_ROLE] : []))];
  checkRoles(roles, store.roles);
  const slug = slugFor(input.slug, login);
  const url = cleanUrl(input.url ?? '');
  const firstName = sanitizeNameField(input.firstName ?? '');
  const lastName = sanitizeNameField(input.lastName ?? '');
  const requestedName = input.name === undefined ? '' : sanitizeNameField(input.name);
  const nickname = input.nickname === undefined || input.nickname === '' ? login : sanitizeNameField(input.nickname);
  const passwordHash = input.password ? await hashAccountPassword(input.password) : null;

  return store.storage.transaction(async (tx) => {
    if (await findUserByLogin(tx, login)) throw badInput('existing_user_login', 'Sorry, that username already exists!');
    if (await findUserByEmail(tx, email)) throw badInput('existing_user_email', 'Sorry, that email address is already used!');
    const name = requestedName !== '' ? requestedName : escapeSpecialCharacters(defaultDisplayName(login, firstName, lastName));
    const record: Omit<UserRecord, 'id'> = {
      login,
      email,
      name,
      name_sort: name.toLowerCase(),
      slug: await uniqueSlug(tx, slug, null),
      url,
      description: sanitizeDescription(input.description ?? ''),
      first_name: firstName,
      last_name: lastName,
      nickname,
      locale: input.locale ?? '',
      roles,
      ...capabilityFields(input.capabilities ?? {}),
      registered: gmtDateTime(input.registered ?? store.clock.now()),
      password_hash: passwordHash,
      application_passwords: [],
    };
    return usersIn(tx).insert(record);
  });
}

/**
 * Applies changes to a user. The email must stay unique; an empty display name falls back to the login; a slug
 * taken by someone else gets a numeric suffix (the routes refuse it earlier, as the reference does).
 */
export async function updateUser(store: UserStoreContext, id: number, changes: UserChanges): Promise<UserRecord | null> {
  checkTextLengths(changes);
  const patch: Partial<UserRecord> = {};
  if (changes.email !== undefined) patch.email = cleanEmail(changes.email);
  if (changes.roles !== undefined) {
    checkRoles(changes.roles, store.roles);
    patch.roles = [...changes.roles];
  }
  if (changes.url !== undefined) patch.url = cleanUrl(changes.url);
  if (changes.firstName !== undefined) patch.first_name = sanitizeNameField(changes.firstName);
  if (changes.lastName !== undefined) patch.last_name = sanitizeNameField(changes.lastName);
  if (changes.description !== undefined) patch.description = sanitizeDescription(changes.description);
  if (changes.locale !== undefined) patch.locale = changes.locale;
  if (changes.capabilities !== undefined) Object.assign(patch, capabilityFields(changes.capabilities));
  if (changes.password) patch.password_hash = await hashAccountPassword(changes.password);

  return store.storage.transaction(async (tx) => {
    const current = await getUser(tx, id);
    if (current === null) return null;
    if (patch.email !== undefined && patch.email.toLowerCase() !== current.email.toLowerCase()) {
      const owner = await findUserByEmail(tx, patch.email);
      if (owner && owner.id !== id) throw badInput('existing_user_email', 'Sorry, that email address is already used!');
    }
    if (changes.name !== undefined) {
      const name = sanitizeNameField(changes.name);
      patch.name = name !== '' ? name : escapeSpecialCharacters(current.login);
      patch.name_sort = patch.name.toLowerCase();
    }
    if (changes.nickname !== undefined) {
      const nickname = sanitizeNameField(changes.nickname);
      patch.nickname = nickname !== '' ? nickname : current.login;
    }
    if (changes.slug !== undefined) patch.slug = await uniqueSlug(tx, slugFor(changes.slug, current.login), id);
    return usersIn(tx).update(id, patch);
  });
}
