/** Comments in-process: seeding and moderation without HTTP (no permission checks; the caller is trusted). */
import { formatUtc, gmtToLocal } from '../content/post-type/index.js';
import { resolveSite } from '../core/site.js';
import { CmsError } from '../core/errors.js';
import { applyStatus } from './moderation.js';
import type { CommentsDeps } from './options.js';
import { COMMENTS_COLLECTION, type CommentRecord } from './record.js';
import { getComment, getPost, insertComment, listComments, deleteComment } from './service.js';

export interface NewCommentInput {
  post: number;
  content: string;
  parent?: number;
  /** A user id; 0 (default) for a visitor. */
  author?: number;
  authorName?: string;
  authorEmail?: string;
  authorUrl?: string;
  authorIp?: string;
  userAgent?: string;
  /** Default `approved`. */
  status?: 'approved' | 'hold' | 'spam' | 'trash';
  /** Default `comment`. */
  type?: string;
  /** Default: now. */
  date?: Date;
}

export interface CommentsApi {
  create(input: NewCommentInput): Promise<CommentRecord>;
  get(id: number): Promise<CommentRecord | null>;
  /** Comments of a post in every status, oldest first. */
  ofPost(postId: number): Promise<CommentRecord[]>;
  /** `approved`, `hold`, `spam`, `unspam`, `trash` or `untrash`. */
  setStatus(id: number, status: string): Promise<CommentRecord>;
  /** Removes a comment for good (its replies move up to its parent). */
  delete(id: number): Promise<boolean>;
}

export function createCommentsApi(deps: CommentsDeps): CommentsApi {
  const site = () => resolveSite(deps.site, undefined, deps.names);
  async function existing(id: number): Promise<CommentRecord> {
    const comment = await getComment(deps.storage, id);
    if (!comment) throw new CmsError('rest_comment_invalid_id', 'Invalid comment ID.', 404);
    return comment;
  }
  return {
    async create(input) {
      const post = await getPost(deps.storage, input.post);
      if (!post) throw new CmsError('rest_comment_invalid_post_id', 'Invalid post ID.', 404);
      const gmt = formatUtc(input.date ?? deps.clock.now());
      return insertComment(deps.storage, {
        post: post.id,
        parent: input.parent ?? 0,
        user_id: input.author ?? 0,
        author_name: input.authorName ?? '',
        author_email: input.authorEmail ?? '',
        author_url: input.authorUrl ?? '',
        author_ip: input.authorIp ?? '',
        author_user_agent: input.userAgent ?? '',
        date: gmtToLocal(gmt, site()),
        date_gmt: gmt,
        content: input.content,
        status: input.status ?? 'approved',
        type: input.type ?? 'comment',
        meta: {},
      });
    },
    get: (id) => getComment(deps.storage, id),
    async ofPost(postId) {
      const { items } = await listComments(deps.storage, { where: [{ field: 'post', op: 'eq', value: postId }], orderBy: [{ field: 'date_gmt', direction: 'asc' }] });
      return items;
    },
    async setStatus(id, status) {
      return deps.storage.transaction(async (tx) => applyStatus(tx, await existing(id), status));
    },
    async delete(id) {
      const comment = await getComment(deps.storage, id);
      if (!comment) return false;
      await deps.storage.transaction((tx) => deleteComment(tx, comment));
      return (await deps.storage.get(COMMENTS_COLLECTION, id)) === null;
    },
  };
}
