/**
 * Contact forms are records of the `posts` collection with their own `type` (the reference's post type), so their
 * ids share the post id space; submissions have a collection of their own.
 */
import type { StoredRecord } from '../ports/storage.js';
import type { MailTemplate } from './defaults.js';

export const POSTS_COLLECTION = 'posts';
export const FORM_TYPE = 'wpcf7_contact_form';
export const SUBMISSIONS_COLLECTION = 'form_submissions';

/** The five properties of a form, as stored. `messages` holds only the keys written; reads fill the rest. */
export interface FormProperties {
  form: string;
  mail: MailTemplate;
  mail_2: MailTemplate;
  messages: Record<string, string>;
  additional_settings: string;
}

/** A form in memory: a stored one, or one built for a create or a dry run (`id` null until stored). */
export interface ContactForm {
  id: number | null;
  /** Null for a form that was created in this request: the reference answers a create without its slug. */
  slug: string | null;
  title: string;
  locale: string;
  /** Hex; the list shows its first 7 characters. */
  hash: string;
  properties: FormProperties;
}

export interface FormRecord extends StoredRecord {
  type: typeof FORM_TYPE;
  status: 'publish';
  title: string;
  slug: string;
  locale: string;
  hash: string;
  form: string;
  mail: MailTemplate;
  mail_2: MailTemplate;
  messages: Record<string, string>;
  additional_settings: string;
  /** Every property's text on its own line: what `search` looks through, with the title. */
  content: string;
  date: string;
  date_gmt: string;
  modified: string;
  modified_gmt: string;
}

export function isFormRecord(record: StoredRecord | null): record is FormRecord {
  return record !== null && record.type === FORM_TYPE;
}

/** One accepted submission, as kept for the form's editors. */
export interface SubmissionRecord extends StoredRecord {
  form_id: number;
  status: string;
  /** Posted values by field name (pipes applied, values of `do-not-store` tags left out). */
  fields: Record<string, string | string[]>;
  /** Uploaded files by field: their names, sizes, types and SHA-256 digests; the bytes are not kept. */
  files: Record<string, SubmittedFileReference[]>;
  /** Remote address, user agent, referring URL, unit tag, container post and user id. */
  meta: Record<string, string | number>;
  /** UTC, `YYYY-MM-DDTHH:MM:SS`. */
  date_gmt: string;
}

export interface SubmittedFileReference {
  name: string;
  size: number;
  type: string;
  sha256: string;
}
