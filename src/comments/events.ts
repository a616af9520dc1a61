/**
 * Comments follow their post: into the trash and back (the reference's `post-trashed` status), out of the store
 * when the post is deleted, and their copy of the post's facts follows every save.
 */
import type { PostDeletedEvent, PostEvents, PostSavedEvent } from '../content/post-type/index.js';
import { COMMENTS_COLLECTION, type CommentRecord, type PostFacts } from './record.js';
import { commentsOfPost, postFactsOf, updateComment } from './service.js';

const FACT_FIELDS: readonly (keyof PostFacts)[] = ['post_type', 'post_status', 'post_author', 'post_protected', 'post_trashed_from'];

async function onSaved(event: PostSavedEvent): Promise<void> {
  const { storage, post, previous } = event;
  const facts = await postFactsOf(storage, post);
  const trashing = post.status === 'trash' && previous !== null && previous.status !== 'trash';
  const restoring = previous !== null && previous.status === 'trash' && post.status !== 'trash';
  for await (const comment of commentsOfPost(storage, post.id)) {
    const patch: Partial<CommentRecord> = {};
    for (const field of FACT_FIELDS) {
      if (comment[field] !== facts[field]) Object.assign(patch, { [field]: facts[field] });
    }
    if (trashing && comment.status !== 'post-trashed') Object.assign(patch, { status: 'post-trashed', post_trashed_status: comment.status });
    if (restoring && comment.status === 'post-trashed') {
      Object.assign(patch, { status: comment.post_trashed_status ?? 'hold', post_trashed_status: undefined });
    }
    if (Object.keys(patch).length > 0) await updateComment(storage, comment.id, patch);
  }
}

/** Every comment of the post goes (replies included, so nothing needs moving up). */
async function onDeleted(event: PostDeletedEvent): Promise<void> {
  for await (const comment of commentsOfPost(event.storage, event.post.id)) await event.storage.remove(COMMENTS_COLLECTION, comment.id);
}

/** Subscribes once per set of listeners. */
const subscribed = new WeakSet<PostEvents>();

export function followPosts(events: PostEvents): void {
  if (subscribed.has(events)) return;
  subscribed.add(events);
  events.onPostSaved(onSaved);
  events.onPostDeleted(onDeleted);
}
