/**
 * The stored shape of a post-type record. Posts, pages, attachments and revisions share the `posts` collection
 * (and its id sequence); every field lists filter or sort on sits at the top level so stores can index it.
 */
import { collection } from '../../ports/collection.js';
import type { StoredRecord } from '../../ports/storage.js';

export const POSTS_COLLECTION = 'posts';

export interface PostRecord extends StoredRecord {
  /** `post`, `page`, `attachment`, `revision`, ... */
  type: string;
  status: string;
  /** Site-local publish date, `YYYY-MM-DDTHH:MM:SS`. */
  date: string;
  /** UTC publish date; `null` while the date floats (a draft saved without an explicit date). */
  date_gmt: string | null;
  modified: string;
  /** UTC; `null` when a floating draft was created (the reference stores zeros then). */
  modified_gmt: string | null;
  /** User id; 0 when none. */
  author: number;
  /** Parent post id (pages; a revision's post); 0 when none. */
  parent: number;
  slug: string;
  menu_order: number;
  title: string;
  content: string;
  excerpt: string;
  password: string;
  comment_status: string;
  ping_status: string;
  /** Set once, at creation. */
  guid: string;
  /** Page template slug, `''` for the default. */
  template: string;
  /** Id of the featured image, 0 when none. */
  featured_media: number;
  /** Registered meta values by key. */
  meta: Record<string, unknown>;
  /** Post types with the sticky feature only. */
  sticky?: boolean;
  /** Post types with formats only; `standard` when none is set. */
  format?: string;
  /** Term ids per taxonomy field, for post types with those taxonomies. */
  categories?: number[];
  tags?: number[];
  /** While trashed: the status before trashing and the slug it wants back. */
  trashed_from_status?: string;
  trashed_slug?: string;
  /** When it was trashed, UTC. */
  trashed_at?: string;
}

/** Fields a post-type write may set, before defaults are filled in. */
export type PostFields = Partial<Omit<PostRecord, 'id'>>;

export function isPostRecord(record: StoredRecord | null): record is PostRecord {
  return record !== null && typeof record.type === 'string' && typeof record.status === 'string';
}

/** Typed access to the `posts` collection through a storage handle (the port, or a transaction's). */
export const postsIn = collection<PostRecord>(POSTS_COLLECTION, (record) => (isPostRecord(record) ? record : null));
