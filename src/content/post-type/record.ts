/**
 * The `posts` collection, where posts, pages, attachments and revisions share one id sequence; the stored shape of
 * its records (`PostRecord`) is a shared service type (src/services/posts.ts).
 */
import { collection } from '../../ports/collection.js';
import type { StoredRecord } from '../../ports/storage.js';
import type { PostRecord } from '../../services/posts.js';

export type { PostRecord };

export const POSTS_COLLECTION = 'posts';

/** Fields a post-type write may set, before defaults are filled in. */
export type PostFields = Partial<Omit<PostRecord, 'id'>>;

export function isPostRecord(record: StoredRecord | null): record is PostRecord {
  return record !== null && typeof record.type === 'string' && typeof record.status === 'string';
}

/** Typed access to the `posts` collection through a storage handle (the port, or a transaction's). */
export const postsIn = collection<PostRecord>(POSTS_COLLECTION, (record) => (isPostRecord(record) ? record : null));
