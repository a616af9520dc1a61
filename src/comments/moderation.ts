/**
 * Whether a new comment is approved, held, a duplicate or part of a flood (the reference's `wp_allow_comment`),
 * and the status changes moderators make (approve, hold, spam, unspam, trash, untrash).
 */
import { CmsError } from '../core/errors.js';
import type { Condition, StoragePort } from '../ports/storage.js';
import { findUserByEmail } from '../users/index.js';
import { formatUtc, parseStored } from '../content/post-type/index.js';
import type { ResolvedCommentOptions } from './options.js';
import { COMMENTS_COLLECTION, type CommentRecord } from './record.js';
import { updateComment } from './service.js';

export interface Candidate {
  post: number;
  parent: number;
  user_id: number;
  author_name: string;
  author_email: string;
  author_ip: string;
  content: string;
  date_gmt: string;
  type: string;
}

/** The same author saying the same thing under the same parent twice (trashed comments aside): 409. */
export async function checkDuplicate(storage: StoragePort, candidate: Candidate): Promise<void> {
  const sameAuthor: Condition = { field: 'author_name', op: 'eq', value: candidate.author_name };
  const { items } = await storage.list(COMMENTS_COLLECTION, {
    where: [
      { field: 'post', op: 'eq', value: candidate.post },
      { field: 'parent', op: 'eq', value: candidate.parent },
      { field: 'status', op: 'ne', value: 'trash' },
      { field: 'content', op: 'eq', value: candidate.content },
      candidate.author_email !== ''
        ? { op: 'or', conditions: [sameAuthor, { field: 'author_email', op: 'eq', value: candidate.author_email }] }
        : sameAuthor,
    ],
    limit: 1,
  });
  if (items.length > 0) {
    throw new CmsError('comment_duplicate', 'Duplicate comment detected; it looks as though you\u2019ve already said that!', 409);
  }
}

/** A second comment from one user (or address) or email within `floodSeconds`: 400. Moderators are not throttled. */
export async function checkFlood(storage: StoragePort, candidate: Candidate, options: ResolvedCommentOptions, moderator: boolean): Promise<void> {
  if (moderator || options.floodSeconds === 0) return;
  const now = parseStored(candidate.date_gmt).getTime();
  const hourAgo = formatUtc(new Date(now - 3_600_000));
  const who = candidate.user_id > 0
    ? { field: 'user_id', op: 'eq', value: candidate.user_id } as const
    : { field: 'author_ip', op: 'eq', value: candidate.author_ip } as const;
  const { items } = await storage.list(COMMENTS_COLLECTION, {
    where: [
      { field: 'date_gmt', op: 'gte', value: hourAgo },
      candidate.author_email !== '' ? { op: 'or', conditions: [who, { field: 'author_email', op: 'eq', value: candidate.author_email }] } : who,
    ],
    orderBy: [{ field: 'date_gmt', direction: 'desc' }],
    limit: 1,
  });
  const last = items[0];
  if (last && typeof last.date_gmt === 'string' && now - parseStored(last.date_gmt).getTime() < options.floodSeconds * 1000) {
    throw new CmsError('comment_flood', 'You are posting comments too quickly. Slow down.', 400);
  }
}

const LINK = /(href\t*?=\t*?['"]?)?(https?:)?\/\//gi;

/**
 * The status of a new comment: the post's author and moderators are approved at once; everyone else is held when
 * the site holds everything or the comment has too many links, and otherwise approved when the author already has
 * an approved comment (or when the site does not ask for that).
 */
export async function initialStatus(
  storage: StoragePort,
  candidate: Candidate,
  options: ResolvedCommentOptions,
  trusted: boolean,
): Promise<'approved' | 'hold'> {
  if (trusted) return 'approved';
  if (options.holdAll) return 'hold';
  if (options.maxLinks > 0 && (candidate.content.match(LINK)?.length ?? 0) >= options.maxLinks) return 'hold';
  if (!options.approveKnownAuthors) return 'approved';
  if (candidate.type === 'pingback' || candidate.type === 'trackback' || candidate.author_name === '' || candidate.author_email === '') return 'hold';
  const registered = await findUserByEmail(storage, candidate.author_email);
  const where = registered
    ? [{ field: 'user_id', op: 'eq', value: registered.id } as const]
    : [{ field: 'author_name', op: 'eq', value: candidate.author_name } as const, { field: 'author_email', op: 'eq', value: candidate.author_email } as const];
  const { items } = await storage.list(COMMENTS_COLLECTION, { where: [...where, { field: 'status', op: 'eq', value: 'approved' }], limit: 1 });
  return items.length > 0 ? 'approved' : 'hold';
}

/** The status values a write may ask for, and what they lead to. */
const REQUESTED: Readonly<Record<string, string>> = {
  approved: 'approved', approve: 'approved', 1: 'approved',
  hold: 'hold', 0: 'hold',
  spam: 'spam', unspam: 'unspam',
  trash: 'trash', untrash: 'untrash',
};

export function isKnownStatusRequest(status: string): boolean {
  return Object.hasOwn(REQUESTED, status);
}

export function invalidStatus(): CmsError {
  return new CmsError('rest_comment_invalid_status', 'The comment status must be one of approved, hold, spam, unspam, trash or untrash.', 400);
}

/**
 * Applies a requested status. Spam and trash remember the status to return to; unspam and untrash go back to it
 * (or to `hold`). Asking for the status a comment already has changes nothing.
 */
export async function applyStatus(storage: StoragePort, comment: CommentRecord, requested: string): Promise<CommentRecord> {
  const target = Object.hasOwn(REQUESTED, requested) ? REQUESTED[requested] : undefined;
  if (target === undefined) throw invalidStatus();
  let patch: Partial<CommentRecord> & Record<string, unknown>;
  if (target === 'unspam' || target === 'untrash') {
    const from = target === 'unspam' ? 'spam' : 'trash';
    if (comment.status !== from) return comment;
    patch = { status: comment.trashed_from_status ?? 'hold', trashed_from_status: undefined };
  } else if (target === comment.status) {
    return comment;
  } else if (target === 'spam' || target === 'trash') {
    patch = { status: target, trashed_from_status: comment.status === 'spam' || comment.status === 'trash' ? comment.trashed_from_status ?? 'hold' : comment.status };
  } else {
    patch = { status: target, trashed_from_status: undefined };
  }
  return (await updateComment(storage, comment.id, patch)) ?? comment;
}
