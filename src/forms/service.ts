/**
 * Storage access for forms and their submissions: typed reads and writes over the storage port, so handlers
 * never touch raw records.
 */
import { createHash, randomBytes } from 'node:crypto';
import { parseSearch, textSearch, nowDates, uniquePostSlug } from '../content/post-type/index.js';
import { sanitizeTitle as slugOfTitle } from '../format/slug.js';
import type { Site } from '../core/site.js';
import type { Condition, ListQuery, SortKey, StoragePort } from '../ports/storage.js';
import { DEFAULT_FORM, DEFAULT_MESSAGES, defaultMail, defaultMail2, type MailTemplate } from './defaults.js';
import {
  FORM_TYPE, isFormRecord, POSTS_COLLECTION, SUBMISSIONS_COLLECTION,
  type ContactForm, type FormProperties, type FormRecord, type SubmissionRecord,
} from './record.js';
import { completeMessages } from './properties.js';
import { flatten, phpString } from './text.js';
import { pageOffset } from '../core/paging.js';

type SiteTime = Pick<Site, 'timezone' | 'gmtOffset'>;

function isMailTemplate(value: unknown): value is MailTemplate {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * A stored record as a form. As the reference's upgrade on load does, a mail without a recipient gets the admin
 * address and missing messages their default texts.
 */
export function formOf(record: FormRecord, adminEmail: string): ContactForm {
  const mail = isMailTemplate(record.mail) ? { ...record.mail } : defaultMail(adminEmail);
  if (!Object.hasOwn(mail, 'recipient')) mail.recipient = adminEmail;
  return {
    id: record.id,
    slug: record.slug,
    title: record.title,
    locale: record.locale,
    hash: record.hash,
    properties: {
      form: typeof record.form === 'string' ? record.form : '',
      mail,
      mail_2: isMailTemplate(record.mail_2) ? record.mail_2 : defaultMail2(adminEmail),
      messages: completeMessages(record.messages !== null && typeof record.messages === 'object' ? record.messages : {}),
      additional_settings: typeof record.additional_settings === 'string' ? record.additional_settings : '',
    },
  };
}

/** A new, unstored form from the default template. */
export function templateForm(locale: string, fromEmail: string): ContactForm {
  return {
    id: null,
    slug: null,
    title: 'Untitled',
    locale,
    hash: '',
    properties: {
      form: DEFAULT_FORM,
      mail: defaultMail(fromEmail),
      mail_2: defaultMail2(fromEmail),
      messages: { ...DEFAULT_MESSAGES },
      additional_settings: '',
    },
  };
}

export async function loadFormRecord(storage: StoragePort, id: number): Promise<FormRecord | null> {
  if (!Number.isSafeInteger(id) || id <= 0) return null;
  const record = await storage.get(POSTS_COLLECTION, id);
  return isFormRecord(record) ? record : null;
}

/** What `search` looks through besides the title: every property's text, one per line. */
function searchableText(properties: FormProperties): string {
  return flatten(properties).map(phpString).join('\n').trim();
}

function newHash(userId: number, home: string, now: Date): string {
  return createHash('sha256').update([userId, randomBytes(16).toString('hex'), now.getTime(), home].join('|')).digest('hex');
}

export interface SaveEnvironment {
  storage: StoragePort;
  now: Date;
  site: SiteTime & Pick<Site, 'home'>;
  userId: number;
}

/** Stores a form: a new record (slug from the title, fresh hash) or an update of the existing one. */
export async function saveForm(form: ContactForm, environment: SaveEnvironment): Promise<FormRecord> {
  const { storage, now, site } = environment;
  const dates = nowDates(now, site);
  const fields = {
    title: form.title,
    locale: form.locale,
    form: form.properties.form,
    mail: form.properties.mail,
    mail_2: form.properties.mail_2,
    messages: form.properties.messages,
    additional_settings: form.properties.additional_settings,
    content: searchableText(form.properties),
    modified: dates.local,
    modified_gmt: dates.gmt,
  };
  return storage.transaction(async (tx) => {
    if (form.id !== null) {
      const existing = await loadFormRecord(tx, form.id);
      if (!existing) throw new Error('The form to update is gone.');
      return (await tx.update(POSTS_COLLECTION, form.id, fields)) as FormRecord;
    }
    const owner = { id: 0, status: 'publish', type: FORM_TYPE, parent: 0, hierarchical: false };
    const slug = await uniquePostSlug(tx, slugOfTitle(form.title, 'untitled') || 'untitled', owner, '');
    return (await tx.insert(POSTS_COLLECTION, {
      type: FORM_TYPE,
      status: 'publish',
      slug,
      hash: newHash(environment.userId, site.home, now),
      parent: 0,
      menu_order: 0,
      date: dates.local,
      date_gmt: dates.gmt,
      ...fields,
    })) as FormRecord;
  });
}

export async function deleteForm(storage: StoragePort, id: number): Promise<boolean> {
  return storage.remove(POSTS_COLLECTION, id);
}

/** The list parameters the reference passes to its post query (none is validated). */
export interface FormListQuery {
  /** -1 (or absent) for all. */
  perPage: number;
  offset: number;
  order: 'asc' | 'desc';
  orderby: string;
  search: string | null;
}

const ORDER_FIELDS: Readonly<Record<string, string>> = {
  id: 'id', title: 'title', date: 'date', modified: 'modified', name: 'slug', post_name: 'slug', post_title: 'title',
  post_date: 'date', post_modified: 'modified', slug: 'slug',
};

export async function listForms(storage: StoragePort, query: FormListQuery): Promise<FormRecord[]> {
  const where: Condition[] = [{ field: 'type', op: 'eq', value: FORM_TYPE }];
  const field = ORDER_FIELDS[query.orderby.toLowerCase()] ?? 'date';
  const orderBy: SortKey[] = [{ field, direction: query.order }];
  const list: ListQuery = { where, orderBy };
  if (query.search !== null && query.search !== '') {
    list.search = textSearch(parseSearch(query.search), ['title', 'content'], false);
  }
  if (query.perPage >= 0) {
    list.limit = query.perPage;
    list.offset = Math.max(0, query.offset);
  }
  const { items } = await storage.list(POSTS_COLLECTION, list);
  return items.filter(isFormRecord);
}

export type NewSubmission = Omit<SubmissionRecord, 'id'>;

export async function storeSubmission(storage: StoragePort, submission: NewSubmission): Promise<SubmissionRecord> {
  return (await storage.insert(SUBMISSIONS_COLLECTION, { ...submission })) as SubmissionRecord;
}

export interface SubmissionPage {
  items: SubmissionRecord[];
  total: number;
}

/** A form's submissions, newest first. */
export async function listSubmissions(storage: StoragePort, formId: number, page: number, perPage: number): Promise<SubmissionPage> {
  const { items, total } = await storage.list(SUBMISSIONS_COLLECTION, {
    where: [{ field: 'form_id', op: 'eq', value: formId }],
    orderBy: [{ field: 'date_gmt', direction: 'desc' }],
    offset: pageOffset(page, perPage),
    limit: perPage,
    withTotal: true,
  });
  return { items: items as SubmissionRecord[], total: total ?? 0 };
}

export async function removeSubmission(storage: StoragePort, id: number): Promise<boolean> {
  return storage.remove(SUBMISSIONS_COLLECTION, id);
}

/** Removes every submission of a form (when the form is deleted). */
export async function removeSubmissionsOf(storage: StoragePort, formId: number): Promise<number> {
  const { items } = await storage.list(SUBMISSIONS_COLLECTION, { where: [{ field: 'form_id', op: 'eq', value: formId }] });
  for (const item of items) await storage.remove(SUBMISSIONS_COLLECTION, item.id);
  return items.length;
}
