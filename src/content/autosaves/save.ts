/**
 * The two ways an autosave is stored (the reference's autosave controller):
 * - the author's own draft is updated in place with the request's post fields, without a revision;
 * - otherwise each user keeps one autosave revision per post, created or overwritten. A first autosave holds
 *   only the title, content and excerpt that were sent (the others empty); an overwrite keeps earlier values of
 *   fields not sent. When every sent field equals the post's current value, the user's autosave is removed and
 *   the request fails with `rest_autosave_no_changes`.
 */
import { phpTrim } from '../../format/php.js';
import type { RequestContext } from '../../core/context.js';
import { CmsError } from '../../core/errors.js';
import { turnTaker } from '../../format/turn.js';
import {
  invalidPostId, nowDates, postsIn, savePost, scopeOf, type PostChanges, type PostRecord, type PostType,
} from '../post-type/index.js';
import { sanitizePostHtmlWhereCheapest, sanitizeTitleHtmlWhereCheapest } from '../render/pool/jobs.js';
import {
  autosaveSlug, insertRevision, latestAutosave, REVISIONED_FIELDS, sameWhitespaceAside, type RevisionedField,
} from '../revisions/index.js';

/** Statuses whose author's autosave updates the post itself. */
export const DRAFT_STATUSES: ReadonlySet<string> = new Set(['draft', 'auto-draft']);

/**
 * The changes an in-place autosave applies: the fields the reference prepares for storage. Sticky, featured
 * image, format, template, terms and meta are extra steps of a REST update and are left alone.
 */
function postFieldChanges(changes: PostChanges): PostChanges {
  const kept: PostChanges = { terms: {} };
  const fields = [
    'title', 'content', 'excerpt', 'status', 'date', 'resetDate', 'slug', 'author', 'password', 'parent', 'menuOrder',
    'commentStatus', 'pingStatus',
  ] as const;
  for (const field of fields) {
    if (changes[field] !== undefined) Object.assign(kept, { [field]: changes[field] });
  }
  return kept;
}

export async function updateOwnDraft(context: RequestContext, postType: PostType, post: PostRecord, changes: PostChanges): Promise<PostRecord> {
  const scope = scopeOf(context, postType);
  return scope.storage.transaction(async (tx) => {
    const current = await postsIn(tx).get(post.id);
    if (!current) throw invalidPostId();
    return savePost(current, postFieldChanges(changes), scope.saveEnvironment(tx), 'autosave');
  });
}

type RevisionedText = Partial<Record<RevisionedField, string>>;

function sentText(changes: PostChanges): RevisionedText {
  const sent: RevisionedText = {};
  for (const field of REVISIONED_FIELDS) {
    const value = changes[field];
    if (value !== undefined) sent[field] = value;
  }
  return sent;
}

/** Stored like any post text: HTML filtered for users without `unfiltered_html`, titles trimmed. */
async function sanitized(sent: RevisionedText, unfiltered: boolean): Promise<RevisionedText> {
  const result: RevisionedText = {};
  if (sent.title !== undefined) result.title = phpTrim(unfiltered ? sent.title : await sanitizeTitleHtmlWhereCheapest(sent.title));
  if (sent.content !== undefined) result.content = unfiltered ? sent.content : await sanitizePostHtmlWhereCheapest(sent.content);
  if (sent.excerpt !== undefined) result.excerpt = unfiltered ? sent.excerpt : await sanitizePostHtmlWhereCheapest(sent.excerpt);
  return result;
}

export async function saveAutosaveRevision(context: RequestContext, postType: PostType, post: PostRecord, changes: PostChanges): Promise<PostRecord> {
  const scope = scopeOf(context, postType);
  const userId = context.user?.id ?? 0;
  const sent = sentText(changes);
  const text = await sanitized(sent, scope.abilities.can('unfiltered_html'));
  const now = nowDates(postType.deps.clock.now(), context.site);

  const saved = await scope.storage.transaction(async (tx) => {
    const posts = postsIn(tx);
    const parent = await posts.get(post.id);
    if (!parent) throw invalidPostId();
    const existing = await latestAutosave(tx, post.id, userId);
    if (!existing) {
      return insertRevision(tx, {
        parent: post.id,
        slug: autosaveSlug(post.id),
        author: userId,
        date: now.local,
        dateGmt: now.gmt,
        title: text.title ?? '',
        content: text.content ?? '',
        excerpt: text.excerpt ?? '',
        home: context.site.home,
      });
    }
    const take = turnTaker();
    let changed = false;
    for (const [field, value] of Object.entries(sent) as [RevisionedField, string][]) {
      if (!await sameWhitespaceAside(value, parent[field], take)) {
        changed = true;
        break;
      }
    }
    if (!changed) {
      await posts.remove(existing.id);
      return null;
    }
    const patch = { ...text, author: userId, date: now.local, date_gmt: now.gmt, modified: now.local, modified_gmt: now.gmt };
    return posts.update(existing.id, patch);
  });
  // The removal of an unchanged autosave is kept; only then is the request refused.
  if (!saved) throw new CmsError('rest_autosave_no_changes', 'There is nothing to save. The autosave and the post content are the same.', 400);
  return saved;
}
