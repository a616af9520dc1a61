import { collection } from '../ports/collection.js';
import type { StoredRecord } from '../ports/storage.js';

/** The storage collection holding user records. */
export const USERS = 'users';

/** One application password of a user, as stored (the password itself only as a hash). */
export interface ApplicationPasswordRecord {
  uuid: string;
  /** A UUID the application gave to identify itself, or "". */
  app_id: string;
  name: string;
  password_hash: string;
  /** Which hash a login verifies (`applicationPasswordLookupTag`); absent on passwords stored before tags existed. */
  lookup_tag?: string;
  /** GMT, `YYYY-MM-DDTHH:MM:SS`. */
  created: string;
  last_used: string | null;
  last_ip: string | null;
}

/**
 * A user record in collection `users`. Dates are GMT `YYYY-MM-DDTHH:MM:SS` strings (they sort by time).
 * Two fields are derived, for list queries: `capability_names` repeats the keys of `capabilities` (to filter on
 * them) and `name_sort` is the display name in lower case (to order by name ignoring case, as the reference's
 * database collation does).
 */
export interface UserRecord extends StoredRecord {
  login: string;
  email: string;
  /** Display name. */
  name: string;
  name_sort: string;
  /** The reference's `user_nicename`. */
  slug: string;
  url: string;
  description: string;
  first_name: string;
  last_name: string;
  nickname: string;
  /** "" means the site's locale. */
  locale: string;
  roles: string[];
  /** The user's own grants (`true`) and denials (`false`), on top of their roles. */
  capabilities: Record<string, boolean>;
  capability_names: string[];
  registered: string;
  /** Hash of the account password, which the REST interface never accepts; null when none was set. */
  password_hash: string | null;
  application_passwords: ApplicationPasswordRecord[];
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function textOrNull(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

function capabilityMap(value: unknown): Record<string, boolean> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return {};
  const map: Record<string, boolean> = {};
  for (const [name, granted] of Object.entries(value)) map[name] = granted === true;
  return map;
}

function applicationPasswordsOf(value: unknown): ApplicationPasswordRecord[] {
  if (!Array.isArray(value)) return [];
  return value
    .filter((entry): entry is Record<string, unknown> => entry !== null && typeof entry === 'object' && typeof entry.uuid === 'string')
    .map((entry) => ({
      uuid: entry.uuid as string,
      app_id: text(entry.app_id),
      name: text(entry.name),
      password_hash: text(entry.password_hash),
      ...(typeof entry.lookup_tag === 'string' && entry.lookup_tag !== '' ? { lookup_tag: entry.lookup_tag } : {}),
      created: text(entry.created),
      last_used: textOrNull(entry.last_used),
      last_ip: textOrNull(entry.last_ip),
    }));
}

/** Reads a stored record defensively: missing or mistyped fields get their empty values. */
export function toUserRecord(stored: StoredRecord): UserRecord {
  const capabilities = capabilityMap(stored.capabilities);
  return {
    id: stored.id,
    login: text(stored.login),
    email: text(stored.email),
    name: text(stored.name),
    name_sort: text(stored.name).toLowerCase(),
    slug: text(stored.slug),
    url: text(stored.url),
    description: text(stored.description),
    first_name: text(stored.first_name),
    last_name: text(stored.last_name),
    nickname: text(stored.nickname),
    locale: text(stored.locale),
    roles: Array.isArray(stored.roles) ? stored.roles.filter((role): role is string => typeof role === 'string') : [],
    capabilities,
    capability_names: Object.keys(capabilities),
    registered: text(stored.registered),
    password_hash: textOrNull(stored.password_hash),
    application_passwords: applicationPasswordsOf(stored.application_passwords),
  };
}

/** A GMT date as stored: `YYYY-MM-DDTHH:MM:SS`. */
export function gmtDateTime(date: Date): string {
  return date.toISOString().slice(0, 19);
}

/** Milliseconds since the epoch of a stored GMT date, or NaN. */
export function parseGmtDateTime(stored: string): number {
  // Every signed-in request reads the last use of its application password: the same date, parsed once.
  if (stored !== lastParsed.stored) lastParsed = { stored, time: Date.parse(`${stored}Z`) };
  return lastParsed.time;
}

let lastParsed = { stored: '', time: Number.NaN };

/** Typed access to the `users` collection through a storage handle. */
export const usersIn = collection<UserRecord>(USERS, toUserRecord);
