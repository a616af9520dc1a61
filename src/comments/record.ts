/**
 * The stored shape of a comment. Besides its own fields, a comment keeps a copy of the facts about its post that
 * decide who may read it (type, status, author, whether a password protects it), so a list can ask the store for
 * readable comments only and count them exactly; the copy follows every save of the post.
 */
import type { StoredRecord } from '../ports/storage.js';

export const COMMENTS_COLLECTION = 'comments';

/** Stored statuses: `approved` and `hold` are the reference's `1` and `0`. */
export type CommentStatus = 'approved' | 'hold' | 'spam' | 'trash' | 'post-trashed';

export const COMMENT_STATUSES: readonly CommentStatus[] = ['approved', 'hold', 'spam', 'trash', 'post-trashed'];

/** What a comment knows about its post; all null when the comment has no post or the post is gone. */
export interface PostFacts {
  post_type: string | null;
  /** For attachments in `inherit`, the status of the parent (or `publish` without one). */
  post_status: string | null;
  post_author: number | null;
  post_protected: boolean;
  /** While the post is in the trash: the status it had before. */
  post_trashed_from: string | null;
}

/** A comment's own fields, as written (its post facts are filled in from the post when stored). */
export interface CommentFields {
  /** The post id; 0 for none. */
  post: number;
  /** The parent comment id; 0 for none. */
  parent: number;
  /** The id of the user who wrote it; 0 for a visitor. */
  user_id: number;
  author_name: string;
  author_email: string;
  author_url: string;
  author_ip: string;
  author_user_agent: string;
  /** Site-local, `YYYY-MM-DDTHH:MM:SS`. */
  date: string;
  /** UTC, `YYYY-MM-DDTHH:MM:SS`. */
  date_gmt: string;
  content: string;
  status: CommentStatus | string;
  /** `comment`, `pingback`, `trackback`, or a custom type. */
  type: string;
  meta: Record<string, unknown>;
}

export interface CommentRecord extends StoredRecord, PostFacts, CommentFields {
  /** While trashed or marked spam: the status to restore. */
  trashed_from_status?: string;
  /** While its post is in the trash: the status it had before. */
  post_trashed_status?: string;
}

const text = (value: unknown): string => (typeof value === 'string' ? value : '');
const integer = (value: unknown): number => (typeof value === 'number' && Number.isSafeInteger(value) ? value : 0);
const textOrNull = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/** A stored record read as a comment; fields of the wrong type read as their empty values. */
export function toComment(record: StoredRecord): CommentRecord {
  const comment: CommentRecord = {
    id: record.id,
    post: integer(record.post),
    parent: integer(record.parent),
    user_id: integer(record.user_id),
    author_name: text(record.author_name),
    author_email: text(record.author_email),
    author_url: text(record.author_url),
    author_ip: text(record.author_ip),
    author_user_agent: text(record.author_user_agent),
    date: text(record.date),
    date_gmt: text(record.date_gmt),
    content: text(record.content),
    status: text(record.status) || 'hold',
    type: text(record.type) || 'comment',
    meta: record.meta !== null && typeof record.meta === 'object' && !Array.isArray(record.meta) ? record.meta as Record<string, unknown> : {},
    post_type: textOrNull(record.post_type),
    post_status: textOrNull(record.post_status),
    post_author: typeof record.post_author === 'number' ? record.post_author : null,
    post_protected: record.post_protected === true,
    post_trashed_from: textOrNull(record.post_trashed_from),
  };
  if (typeof record.trashed_from_status === 'string') comment.trashed_from_status = record.trashed_from_status;
  if (typeof record.post_trashed_status === 'string') comment.post_trashed_status = record.post_trashed_status;
  return comment;
}
