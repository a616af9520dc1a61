/**
 * Sign-up forms in storage. They live in the `posts` collection with their own type (the reference's
 * `mc4wp-form`), so form ids and post ids share one sequence: a form's id never names a post and the other way
 * round. The post routes list and read only their own types, so forms never show up there.
 */
import type { Condition, StoragePort, StoredRecord } from '../ports/storage.js';
import { DEFAULT_MESSAGES, DEFAULT_SETTINGS, MESSAGE_KEYS, SETTING_KEYS, type FormMessages, type FormSettings, type MessageKey } from './settings.js';
import { pageOffset } from '../core/paging.js';

export const POSTS_COLLECTION = 'posts';
export const FORM_TYPE = 'mc4wp-form';

export type FormStatus = 'publish' | 'draft';

/** A form's stored fields, besides `id`. */
export interface SignupFormFields {
  type: typeof FORM_TYPE;
  status: FormStatus;
  title: string;
  slug: string;
  content: string;
  /** Site-local and UTC dates, `YYYY-MM-DDTHH:MM:SS`, as every record of the collection has them. */
  date: string;
  date_gmt: string;
  modified: string;
  modified_gmt: string;
  author: number;
  parent: number;
  menu_order: number;
  settings: FormSettings;
  /** Only the messages changed from the defaults. */
  messages: Partial<FormMessages>;
}

export interface SignupFormRecord extends StoredRecord, SignupFormFields {}

/** A sign-up form as the routes and the in-process API show it. */
export interface SignupForm {
  id: number;
  title: string;
  slug: string;
  status: FormStatus;
  content: string;
  settings: FormSettings;
  /** Every message, the form's own where it has one. */
  messages: FormMessages;
  date: string;
  date_gmt: string;
  modified: string;
  modified_gmt: string;
}

function isFormRecord(record: StoredRecord | null): record is SignupFormRecord {
  return record !== null && record.type === FORM_TYPE;
}

export function defaultSettings(): FormSettings {
  return { ...DEFAULT_SETTINGS, lists: [...DEFAULT_SETTINGS.lists] };
}

/** Settings as stored, with defaults for keys a record (or an older version) lacks. */
export function settingsOf(record: SignupFormRecord): FormSettings {
  const stored = (record.settings ?? {}) as Partial<FormSettings>;
  const settings = defaultSettings();
  for (const key of SETTING_KEYS) {
    if (stored[key] !== undefined) (settings as unknown as Record<string, unknown>)[key] = stored[key];
  }
  return settings;
}

export function messagesOf(record: SignupFormRecord): FormMessages {
  const messages = { ...DEFAULT_MESSAGES } as FormMessages;
  const own = (record.messages ?? {}) as Partial<Record<MessageKey, unknown>>;
  for (const key of MESSAGE_KEYS) {
    if (typeof own[key] === 'string') messages[key] = own[key];
  }
  return messages;
}

export function toSignupForm(record: SignupFormRecord): SignupForm {
  return {
    id: record.id,
    title: record.title,
    slug: record.slug,
    status: record.status,
    content: record.content,
    settings: settingsOf(record),
    messages: messagesOf(record),
    date: record.date,
    date_gmt: record.date_gmt,
    modified: record.modified,
    modified_gmt: record.modified_gmt,
  };
}

export async function getFormRecord(storage: StoragePort, id: number): Promise<SignupFormRecord | null> {
  if (!Number.isSafeInteger(id) || id <= 0) return null;
  const record = await storage.get(POSTS_COLLECTION, id);
  return isFormRecord(record) ? record : null;
}

/** The published form with the lowest id: what a sign-up with a non-numeric form id is matched to. */
export async function firstPublishedForm(storage: StoragePort): Promise<SignupFormRecord | null> {
  const { items } = await storage.list(POSTS_COLLECTION, {
    where: [{ field: 'type', op: 'eq', value: FORM_TYPE }, { field: 'status', op: 'eq', value: 'publish' }],
    orderBy: [{ field: 'id', direction: 'asc' }],
    limit: 1,
  });
  const record = items[0] ?? null;
  return isFormRecord(record) ? record : null;
}

export async function listFormRecords(storage: StoragePort, page: number, perPage: number): Promise<{ items: SignupFormRecord[]; total: number }> {
  const { items, total } = await storage.list(POSTS_COLLECTION, {
    where: [{ field: 'type', op: 'eq', value: FORM_TYPE }],
    orderBy: [{ field: 'id', direction: 'asc' }],
    offset: pageOffset(page, perPage),
    limit: perPage,
    withTotal: true,
  });
  return { items: items.filter(isFormRecord), total: total ?? 0 };
}

/** Every list id some sign-up form (of any status) names in its settings: the lists the local provider keeps. */
export async function signupFormLists(storage: StoragePort): Promise<Set<string>> {
  const lists = new Set<string>();
  const perPage = 100;
  for (let page = 1; ; page++) {
    const { items, total } = await listFormRecords(storage, page, perPage);
    for (const record of items) for (const list of settingsOf(record).lists) lists.add(list);
    if (page * perPage >= total) return lists;
  }
}

/** A slug not yet taken by another form: `name`, then `name-2`, `name-3`, ... */
export async function uniqueFormSlug(storage: StoragePort, wanted: string, ownId?: number): Promise<string> {
  const conditions = (slug: string): Condition[] => [
    { field: 'type', op: 'eq', value: FORM_TYPE },
    { field: 'slug', op: 'eq', value: slug },
    ...(ownId === undefined ? [] : [{ field: 'id', op: 'ne', value: ownId } as Condition]),
  ];
  for (let suffix = 1; ; suffix++) {
    const candidate = suffix === 1 ? wanted : `${wanted.slice(0, 190)}-${suffix}`;
    const { items } = await storage.list(POSTS_COLLECTION, { where: conditions(candidate), limit: 1 });
    if (items.length === 0) return candidate;
  }
}

export async function insertFormRecord(storage: StoragePort, record: SignupFormFields): Promise<SignupFormRecord> {
  return (await storage.insert(POSTS_COLLECTION, { ...record })) as SignupFormRecord;
}

export async function updateFormRecord(storage: StoragePort, id: number, patch: Partial<Omit<SignupFormFields, 'type'>>): Promise<SignupFormRecord | null> {
  const updated = await storage.update(POSTS_COLLECTION, id, patch);
  return isFormRecord(updated) ? updated : null;
}

export async function removeFormRecord(storage: StoragePort, id: number): Promise<boolean> {
  return storage.remove(POSTS_COLLECTION, id);
}
