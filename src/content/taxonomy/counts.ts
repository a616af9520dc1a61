/**
 * Term counts: the published posts carrying each term, kept up to date as posts are saved (the reference's
 * stored count), and recounted from the posts for hosts that write posts into storage directly.
 */
import type { StoragePort, StoredRecord } from '../../ports/storage.js';
import { termsIn } from './record.js';
import { allTerms, ensureDefaultTerms, getTerm, getTerms } from './store.js';
import { TAXONOMIES, type TaxonomyName } from './taxonomies.js';

/** The collection post-type records live in (owned by the post-type kit, which builds on this module). */
const POSTS_COLLECTION = 'posts';

/**
 * The term ids a post contributes to the `count` of, in one taxonomy: those of a published record of one of the
 * taxonomy's post types, as the reference's `_update_post_term_count` (pages carry no categories or tags).
 */
function countedTermIds(post: StoredRecord | null, taxonomy: TaxonomyName): number[] {
  const definition = TAXONOMIES[taxonomy];
  if (!post || post.status !== 'publish' || !definition.objectTypes.includes(String(post.type))) return [];
  const ids = post[definition.postField];
  return Array.isArray(ids) ? [...new Set(ids.filter((id): id is number => typeof id === 'number'))] : [];
}

/** The fields that decide what a record counts for, in every taxonomy: a write that keeps them changes no count. */
const COUNTED_FIELDS: readonly string[] = ['status', 'type', ...new Set(Object.values(TAXONOMIES).map((definition) => definition.postField))];

function sameCountedFields(previous: StoredRecord | null, current: StoredRecord | null): boolean {
  if (!previous || !current) return false;
  for (const field of COUNTED_FIELDS) {
    const before = previous[field];
    const after = current[field];
    if (before === after) continue;
    if (!Array.isArray(before) || !Array.isArray(after) || before.length !== after.length) return false;
    for (let index = 0; index < before.length; index++) if (before[index] !== after[index]) return false;
  }
  return true;
}

/** The term's `count` (published posts carrying it), as stored; 0 for an unknown term. */
export async function countPublishedPosts(storage: StoragePort, taxonomy: TaxonomyName, termId: number): Promise<number> {
  return (await getTerm(storage, taxonomy, termId))?.count ?? 0;
}

/**
 * Keeps stored counts right after a post-type record changed: `previous` is the record before the write (null
 * on create), `current` after it (null on delete). Call it inside the write's transaction.
 */
export async function updateTermCountsForPost(
  storage: StoragePort, previous: StoredRecord | null, current: StoredRecord | null,
): Promise<void> {
  if (sameCountedFields(previous, current)) return;
  for (const taxonomy of Object.keys(TAXONOMIES) as TaxonomyName[]) {
    const deltas = new Map<number, number>();
    for (const id of countedTermIds(previous, taxonomy)) deltas.set(id, (deltas.get(id) ?? 0) - 1);
    for (const id of countedTermIds(current, taxonomy)) deltas.set(id, (deltas.get(id) ?? 0) + 1);
    for (const [id, delta] of deltas) {
      if (delta === 0) continue;
      const term = await termsIn(storage).get(id);
      if (!term || term.taxonomy !== taxonomy) continue;
      await termsIn(storage).update(id, { count: Math.max(0, term.count + delta) });
    }
  }
}

/**
 * Counts published posts per term from the posts themselves (one pass over the published posts) and stores the
 * result on every term of the taxonomy, or on the given ones. For hosts that write posts into storage directly.
 */
export async function recountTerms(storage: StoragePort, taxonomy: TaxonomyName, termIds?: readonly number[]): Promise<void> {
  await ensureDefaultTerms(storage);
  const { objectTypes } = TAXONOMIES[taxonomy];
  const { items: posts } = await storage.list(POSTS_COLLECTION, {
    where: [{ field: 'type', op: 'in', values: [...objectTypes] }, { field: 'status', op: 'eq', value: 'publish' }],
  });
  const tally = new Map<number, number>();
  for (const post of posts) {
    for (const id of countedTermIds(post, taxonomy)) tally.set(id, (tally.get(id) ?? 0) + 1);
  }
  const terms = termIds ? await getTerms(storage, taxonomy, termIds) : await allTerms(storage, taxonomy);
  for (const term of terms) {
    const count = tally.get(term.id) ?? 0;
    if (count !== term.count) await termsIn(storage).update(term.id, { count });
  }
}
