import { randomUUID } from 'node:crypto';
import { isUuid } from '../format/formats.js';
import { sanitizeTextField } from '../format/text.js';
import { CmsError } from '../core/errors.js';
import {
  applicationPasswordLookupTag,
  generateApplicationPassword,
  hashApplicationPassword,
  normalizeApplicationPassword,
  type ScryptParameters,
} from '../auth/index.js';
import type { Clock } from '../ports/clock.js';
import type { StoragePort } from '../ports/storage.js';
import { invalidUserIdError } from './errors.js';
import { gmtDateTime, parseGmtDateTime, usersIn, type ApplicationPasswordRecord, type UserRecord } from './records.js';
import { getUser } from './store.js';

/** An application password as callers see it: never the password or its hash. */
export interface ApplicationPassword {
  uuid: string;
  appId: string;
  name: string;
  /** GMT, `YYYY-MM-DDTHH:MM:SS`. */
  created: string;
  lastUsed: string | null;
  lastIp: string | null;
}

export interface NewApplicationPassword {
  name: string;
  /** A UUID identifying the application. */
  appId?: string;
  /**
   * A password chosen by the caller instead of a generated one (for scripts and tests that need a known
   * credential). Only ASCII letters and digits count; at least 8 of them.
   */
  password?: string;
}

export interface CreatedApplicationPassword {
  /** The password in its display form (groups of four); it is shown only here. */
  password: string;
  item: ApplicationPassword;
}

export const MIN_CHOSEN_PASSWORD_LENGTH = 8;

/** Most application passwords one user may hold, unless the `applicationPasswords.max` option says otherwise. */
export const DEFAULT_MAX_APPLICATION_PASSWORDS = 50;

/** Fresh passwords drawn when one's lookup tag is already the user's (about 1 in 1,300 with 50 passwords). */
const MAX_DRAWS = 16;

/** Usage is recorded at most once in this period, as in the reference. */
const USAGE_RECORDING_INTERVAL_MS = 24 * 60 * 60 * 1000;

export function toApplicationPassword(record: ApplicationPasswordRecord): ApplicationPassword {
  return {
    uuid: record.uuid,
    appId: record.app_id,
    name: record.name,
    created: record.created,
    lastUsed: record.last_used,
    lastIp: record.last_ip,
  };
}

async function passwordsOf(storage: StoragePort, userId: number): Promise<ApplicationPasswordRecord[]> {
  const user = await getUser(storage, userId);
  if (user === null) throw invalidUserIdError();
  return user.application_passwords;
}

/** Reads, changes and writes a user's application passwords in one transaction. */
async function changePasswords<T>(
  storage: StoragePort,
  userId: number,
  change: (passwords: ApplicationPasswordRecord[]) => { passwords: ApplicationPasswordRecord[] | null; result: T },
): Promise<T> {
  return storage.transaction(async (tx) => {
    const users = usersIn(tx);
    const user = await users.get(userId);
    if (user === null) throw invalidUserIdError();
    const { passwords, result } = change(user.application_passwords);
    if (passwords !== null) await users.update(userId, { application_passwords: passwords });
    return result;
  });
}

function sameName(left: string, right: string): boolean {
  return left.toLowerCase() === right.toLowerCase();
}

/**
 * Creates an application password: the name is cleaned as text and must be non-empty and unique for the user
 * (ignoring case). Returns the password once, in display form, with the stored item.
 */
export async function createApplicationPassword(
  storage: StoragePort,
  clock: Clock,
  userId: number,
  input: NewApplicationPassword,
  hashParameters?: ScryptParameters,
  maxPasswords = DEFAULT_MAX_APPLICATION_PASSWORDS,
): Promise<CreatedApplicationPassword> {
  const name = sanitizeTextField(input.name ?? '');
  if (name === '') {
    throw new CmsError('application_password_empty_name', 'An application name is required to create an application password.', 400);
  }
  const appId = input.appId ?? '';
  if (appId !== '' && !isUuid(appId)) throw new CmsError('invalid_app_id', 'The application ID must be a UUID.', 400);
  // Checked before the slow hash, and again inside the transaction.
  const existing = await passwordsOf(storage, userId);
  checkRoom(existing, name, maxPasswords);
  const takenTags = new Set(existing.map((record) => record.lookup_tag));
  let password = generateApplicationPassword();
  for (let draw = 1; takenTags.has(applicationPasswordLookupTag(password)) && draw < MAX_DRAWS; draw += 1) password = generateApplicationPassword();
  if (input.password !== undefined) {
    password = normalizeApplicationPassword(input.password);
    if (password.length < MIN_CHOSEN_PASSWORD_LENGTH) {
      throw new CmsError(
        'application_password_too_short',
        `A chosen application password needs at least ${MIN_CHOSEN_PASSWORD_LENGTH} letters or digits.`,
        400,
      );
    }
  }
  const lookupTag = applicationPasswordLookupTag(password);
  if (takenTags.has(lookupTag)) throw lookupTagTakenError();
  const record: ApplicationPasswordRecord = {
    uuid: randomUUID(),
    app_id: appId,
    name,
    password_hash: await hashApplicationPassword(password, hashParameters),
    lookup_tag: lookupTag,
    created: gmtDateTime(clock.now()),
    last_used: null,
    last_ip: null,
  };
  await changePasswords(storage, userId, (passwords) => {
    checkRoom(passwords, name, maxPasswords);
    if (passwords.some((other) => other.lookup_tag === lookupTag)) throw lookupTagTakenError();
    return { passwords: [...passwords, record], result: null };
  });
  return { password: password.replace(/(.{4})(?=.)/g, '$1 '), item: toApplicationPassword(record) };
}

/** A unique name, and room for one more password. */
function checkRoom(passwords: readonly ApplicationPasswordRecord[], name: string, maxPasswords: number): void {
  if (passwords.some((existing) => sameName(existing.name, name))) throw duplicateNameError();
  if (passwords.length >= maxPasswords) {
    throw new CmsError(
      'rest_too_many_application_passwords',
      `A user may hold at most ${maxPasswords} application passwords; revoke one before creating another.`,
      400,
      { max: maxPasswords },
    );
  }
}

/** A chosen password whose lookup tag another of the user's passwords has (one chance in 65,536 per password held). */
function lookupTagTakenError(): CmsError {
  return new CmsError('application_password_unavailable', 'This application password cannot be used for this user; choose another.', 409);
}

function duplicateNameError(): CmsError {
  return new CmsError('application_password_duplicate_name', 'Each application name should be unique.', 409);
}

/** The user's application passwords in creation order; throws `rest_user_invalid_id` for an unknown user. */
export async function listApplicationPasswords(storage: StoragePort, userId: number): Promise<ApplicationPassword[]> {
  return (await passwordsOf(storage, userId)).map(toApplicationPassword);
}

export async function getApplicationPassword(storage: StoragePort, userId: number, uuid: string): Promise<ApplicationPassword | null> {
  const found = (await passwordsOf(storage, userId)).find((record) => record.uuid === uuid);
  return found ? toApplicationPassword(found) : null;
}

/** Renames an application password; an empty name (after cleaning) leaves it as it was. Null when not found. */
export async function renameApplicationPassword(
  storage: StoragePort,
  userId: number,
  uuid: string,
  newName: string,
): Promise<ApplicationPassword | null> {
  const name = sanitizeTextField(newName);
  return changePasswords(storage, userId, (passwords) => {
    const index = passwords.findIndex((record) => record.uuid === uuid);
    const current = passwords[index];
    if (current === undefined) return { passwords: null, result: null };
    if (name === '' || name === current.name) return { passwords: null, result: toApplicationPassword(current) };
    const renamed = { ...current, name };
    return { passwords: passwords.map((record, at) => (at === index ? renamed : record)), result: toApplicationPassword(renamed) };
  });
}

/** Removes one application password; false when the user has none with that uuid. */
export async function revokeApplicationPassword(storage: StoragePort, userId: number, uuid: string): Promise<boolean> {
  return changePasswords(storage, userId, (passwords) => {
    const remaining = passwords.filter((record) => record.uuid !== uuid);
    return remaining.length === passwords.length ? { passwords: null, result: false } : { passwords: remaining, result: true };
  });
}

/** Removes all of a user's application passwords; returns how many there were. */
export async function revokeAllApplicationPasswords(storage: StoragePort, userId: number): Promise<number> {
  return changePasswords(storage, userId, (passwords) => ({
    passwords: passwords.length > 0 ? [] : null,
    result: passwords.length,
  }));
}

/**
 * Stores the lookup tag of a password stored before tags existed, once a login has verified it (only the
 * password itself gives the tag). Left untagged when another of the user's passwords has that tag already.
 */
export async function tagApplicationPassword(storage: StoragePort, userId: number, uuid: string, password: string): Promise<void> {
  const lookupTag = applicationPasswordLookupTag(password);
  await changePasswords(storage, userId, (passwords) => {
    const index = passwords.findIndex((record) => record.uuid === uuid);
    const record = passwords[index];
    if (record === undefined || record.lookup_tag !== undefined || passwords.some((other) => other.lookup_tag === lookupTag)) {
      return { passwords: null, result: null };
    }
    return { passwords: passwords.map((entry, at) => (at === index ? { ...entry, lookup_tag: lookupTag } : entry)), result: null };
  });
}

/** Whether the user's application password `uuid` is due a usage stamp (held, and not stamped within a day). */
export function needsUsageStamp(user: UserRecord, uuid: string, now: number): boolean {
  const current = user.application_passwords.find((record) => record.uuid === uuid);
  return current !== undefined && !usedRecently(current, now);
}

function usedRecently(record: ApplicationPasswordRecord, now: number): boolean {
  return record.last_used !== null && parseGmtDateTime(record.last_used) + USAGE_RECORDING_INTERVAL_MS > now;
}

/** Stamps the last use (date and client address) of an application password, at most once a day; true when it wrote (or tried). */
export async function recordApplicationPasswordUse(
  storage: StoragePort,
  clock: Clock,
  userId: number,
  uuid: string,
  address: string | null,
  /** The user as just read, when the caller has it: most uses are recent, and then nothing more is read. */
  known?: UserRecord | null,
): Promise<boolean> {
  const now = clock.now();
  const isRecent = (record: ApplicationPasswordRecord) => usedRecently(record, now.getTime());
  const user = known?.id === userId ? known : await getUser(storage, userId);
  if (user === null || !needsUsageStamp(user, uuid, now.getTime())) return false;
  await changePasswords(storage, userId, (passwords) => {
    const index = passwords.findIndex((record) => record.uuid === uuid);
    const record = passwords[index];
    if (record === undefined || isRecent(record)) return { passwords: null, result: null };
    const used = { ...record, last_used: gmtDateTime(now), last_ip: address };
    return { passwords: passwords.map((entry, at) => (at === index ? used : entry)), result: null };
  });
  return true;
}
