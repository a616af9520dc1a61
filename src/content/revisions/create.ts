/**
 * When a post gets a revision (the reference's `wp_save_post_revision`, run after updates):
 * - only updates and moves to the trash count: creating a post, a scheduled post going live (the reference
 *   publishes those without an update) and an autosave of one's own draft never make one;
 * - only types that keep revisions, and never while the post is an auto-draft;
 * - the first update always makes one (autosaves do not count as revisions here), later ones only when the
 *   title, content or excerpt differ from the newest revision, whitespace aside.
 * The revision is a snapshot of the post after the update, written with the update's own storage handle, so the
 * two are kept or undone together.
 */
import { formatUtc, type PostRecord, type PostSavedEvent, type SaveReason } from '../post-type/index.js';
import { turnTaker } from '../../format/turn.js';
import { insertRevision, latestRevision, REVISIONED_FIELDS, revisionSlug, sameWhitespaceAside } from './record.js';

const REVISING_REASONS: ReadonlySet<SaveReason> = new Set(['update', 'trash']);

async function differs(post: PostRecord, revision: Readonly<PostRecord>): Promise<boolean> {
  let take: (() => Promise<void>) | undefined;
  for (const field of REVISIONED_FIELDS) {
    const text = post[field];
    const revised = String(revision[field] ?? '');
    // Most saves leave a text as it was: no comparison to wait for.
    if (text === revised) continue;
    if (!await sameWhitespaceAside(text, revised, take ??= turnTaker())) return true;
  }
  return false;
}

/** The listener for `postEvents.onPostSaved`; `types` are the post types that keep revisions. */
export function revisionOnUpdate(types: ReadonlySet<string>): (event: PostSavedEvent) => Promise<void> {
  return async (event) => {
    const { post, storage } = event;
    if (!REVISING_REASONS.has(event.reason) || !types.has(post.type) || post.status === 'auto-draft') return;
    const latest = await latestRevision(storage, post.id);
    if (latest && !await differs(post, latest)) return;
    await insertRevision(storage, {
      parent: post.id,
      slug: revisionSlug(post.id),
      author: event.user?.id ?? 0,
      date: post.modified,
      dateGmt: post.modified_gmt ?? formatUtc(event.now),
      title: post.title,
      content: post.content,
      excerpt: post.excerpt,
      home: event.home ?? '',
    });
  };
}
