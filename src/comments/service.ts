/** Typed access to stored comments and to the facts about their posts. */
import { postsIn, type PostRecord } from '../content/post-type/index.js';
import type { Condition, ListQuery, StoragePort } from '../ports/storage.js';
import { COMMENTS_COLLECTION, toComment, type CommentFields, type CommentRecord, type PostFacts } from './record.js';

/** Fields a new comment is stored with (its post facts are filled in from the post). */
export type NewComment = CommentFields & { id?: number };

export async function getComment(storage: StoragePort, id: number): Promise<CommentRecord | null> {
  if (!Number.isSafeInteger(id) || id <= 0) return null;
  const record = await storage.get(COMMENTS_COLLECTION, id);
  return record ? toComment(record) : null;
}

export async function listComments(storage: StoragePort, query: ListQuery): Promise<{ items: CommentRecord[]; total: number }> {
  const result = await storage.list(COMMENTS_COLLECTION, { ...query, withTotal: true });
  return { items: result.items.map(toComment), total: result.total ?? 0 };
}

export async function countComments(storage: StoragePort, where: Condition[]): Promise<number> {
  const result = await storage.list(COMMENTS_COLLECTION, { where, limit: 0, withTotal: true });
  return result.total ?? 0;
}

export async function getPost(storage: StoragePort, id: number): Promise<PostRecord | null> {
  if (!Number.isSafeInteger(id) || id <= 0) return null;
  return postsIn(storage).get(id);
}

/** What a comment keeps about its post; attachments in `inherit` take their parent's status. */
export async function postFactsOf(storage: StoragePort, post: PostRecord | null): Promise<PostFacts> {
  if (!post) return { post_type: null, post_status: null, post_author: null, post_protected: false, post_trashed_from: null };
  let status = post.status;
  if (post.type === 'attachment' && status === 'inherit') {
    const parent = post.parent > 0 ? await getPost(storage, post.parent) : null;
    status = parent && parent.status !== 'trash' ? parent.status : 'publish';
  }
  return {
    post_type: post.type,
    post_status: status,
    post_author: post.author,
    post_protected: typeof post.password === 'string' && post.password !== '',
    post_trashed_from: post.status === 'trash' ? post.trashed_from_status ?? null : null,
  };
}

export async function insertComment(storage: StoragePort, fields: NewComment): Promise<CommentRecord> {
  const facts = await postFactsOf(storage, await getPost(storage, fields.post));
  return toComment(await storage.insert(COMMENTS_COLLECTION, { ...fields, ...facts }));
}

export async function updateComment(storage: StoragePort, id: number, patch: Partial<CommentRecord>): Promise<CommentRecord | null> {
  const record = await storage.update(COMMENTS_COLLECTION, id, patch);
  return record ? toComment(record) : null;
}

/** Whether the comment has replies that are approved or held (the reference's check for the `children` link). */
export async function hasChildren(storage: StoragePort, id: number): Promise<boolean> {
  const result = await storage.list(COMMENTS_COLLECTION, {
    where: [{ field: 'parent', op: 'eq', value: id }, { field: 'status', op: 'in', values: ['approved', 'hold'] }],
    limit: 1,
  });
  return result.items.length > 0;
}

/** Every comment of a post, in pages, so a post with many comments never loads them all at once. */
export async function* commentsOfPost(storage: StoragePort, postId: number, pageSize = 500): AsyncGenerator<CommentRecord> {
  let afterId = 0;
  for (;;) {
    const { items } = await storage.list(COMMENTS_COLLECTION, {
      where: [{ field: 'post', op: 'eq', value: postId }, { field: 'id', op: 'gt', value: afterId }],
      orderBy: [{ field: 'id', direction: 'asc' }],
      limit: pageSize,
    });
    for (const item of items) yield toComment(item);
    if (items.length < pageSize) return;
    afterId = items[items.length - 1]!.id;
  }
}

/**
 * Removes a comment for good; its replies move up to its own parent, as the reference does.
 */
export async function deleteComment(storage: StoragePort, comment: CommentRecord): Promise<void> {
  for (;;) {
    const { items } = await storage.list(COMMENTS_COLLECTION, { where: [{ field: 'parent', op: 'eq', value: comment.id }], limit: 500 });
    for (const child of items) await storage.update(COMMENTS_COLLECTION, child.id, { parent: comment.parent });
    if (items.length < 500) break;
  }
  await storage.remove(COMMENTS_COLLECTION, comment.id);
}
