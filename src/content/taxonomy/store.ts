/**
 * Reading terms: the default category every store has, lookups by id, a taxonomy's terms and a term's
 * descendants, and the order posts list their terms in.
 */
import { isStorageError, type StoragePort } from '../../ports/storage.js';
import { DEFAULT_CATEGORY_ID, termsIn, type TermRecord } from './record.js';
import { TAXONOMIES, type TaxonomyName } from './taxonomies.js';

const ensured = new WeakMap<StoragePort, Promise<void>>();

/** Creates the default category once per store (idempotent; later calls on the same store cost nothing). */
export function ensureDefaultTerms(storage: StoragePort): Promise<void> {
  let pending = ensured.get(storage);
  if (!pending) {
    pending = createDefaultCategory(storage);
    ensured.set(storage, pending);
    pending.catch(() => ensured.delete(storage));
  }
  return pending;
}

async function createDefaultCategory(storage: StoragePort): Promise<void> {
  const terms = termsIn(storage);
  if (await terms.get(DEFAULT_CATEGORY_ID)) return;
  try {
    await terms.insert({
      id: DEFAULT_CATEGORY_ID, taxonomy: 'category', name: 'Uncategorized', slug: 'uncategorized', description: '', parent: 0, count: 0, meta: {},
    });
  } catch (error) {
    if (!isStorageError(error, 'duplicate_id')) throw error;
  }
}

/** The id of the default category. */
export async function defaultCategoryId(storage: StoragePort): Promise<number> {
  await ensureDefaultTerms(storage);
  return DEFAULT_CATEGORY_ID;
}

/** A term of the taxonomy, or null (also for an id of another taxonomy). */
export async function getTerm(storage: StoragePort, taxonomy: TaxonomyName, id: number): Promise<TermRecord | null> {
  if (!Number.isSafeInteger(id) || id <= 0) return null;
  await ensureDefaultTerms(storage);
  const term = await termsIn(storage).get(id);
  return term && term.taxonomy === taxonomy ? term : null;
}

/** Terms of the taxonomy with these ids, in no particular order; unknown ids are skipped. */
export async function getTerms(storage: StoragePort, taxonomy: TaxonomyName, ids: readonly number[]): Promise<TermRecord[]> {
  const wanted = [...new Set(ids)].filter((id) => Number.isSafeInteger(id) && id > 0);
  if (wanted.length === 0) return [];
  await ensureDefaultTerms(storage);
  const { items } = await termsIn(storage).list({
    where: [{ field: 'id', op: 'in', values: wanted }, { field: 'taxonomy', op: 'eq', value: taxonomy }],
  });
  return items;
}

/** Terms of any taxonomy with these ids, in no particular order; unknown ids are skipped. */
export async function getTermsOfAny(storage: StoragePort, ids: readonly number[]): Promise<TermRecord[]> {
  const wanted = [...new Set(ids)].filter((id) => Number.isSafeInteger(id) && id > 0);
  if (wanted.length === 0) return [];
  await ensureDefaultTerms(storage);
  return (await termsIn(storage).list({ where: [{ field: 'id', op: 'in', values: wanted }] })).items;
}

/** The ids among `ids` that are not terms of the taxonomy (empty when all exist). */
export async function termsExist(storage: StoragePort, taxonomy: TaxonomyName, ids: readonly number[]): Promise<number[]> {
  const found = new Set((await getTerms(storage, taxonomy, ids)).map((term) => term.id));
  return [...new Set(ids)].filter((id) => !found.has(id));
}

/** All terms of a taxonomy (taxonomies are small next to posts). */
export async function allTerms(storage: StoragePort, taxonomy: TaxonomyName): Promise<TermRecord[]> {
  await ensureDefaultTerms(storage);
  const { items } = await termsIn(storage).list({ where: [{ field: 'taxonomy', op: 'eq', value: taxonomy }] });
  return items;
}

/** Parent id → ids of its children, for one taxonomy. */
function childrenMap(terms: readonly TermRecord[]): Map<number, number[]> {
  const children = new Map<number, number[]>();
  for (const term of terms) {
    const siblings = children.get(term.parent);
    if (siblings) siblings.push(term.id);
    else children.set(term.parent, [term.id]);
  }
  return children;
}

/** `ids` (as given, first) followed by every descendant of them; for `include_children`. */
export async function descendantIds(storage: StoragePort, taxonomy: TaxonomyName, ids: readonly number[]): Promise<number[]> {
  const result = [...new Set(ids)];
  if (!TAXONOMIES[taxonomy].hierarchical || result.length === 0) return result;
  const children = childrenMap(await allTerms(storage, taxonomy));
  const seen = new Set(result);
  for (let index = 0; index < result.length; index++) {
    for (const child of children.get(result[index]!) ?? []) {
      if (seen.has(child)) continue;
      seen.add(child);
      result.push(child);
    }
  }
  return result;
}

/** Ids ordered by term name (then id), the order the reference lists a post's terms in; unknown ids dropped. */
export async function sortTermIdsByName(storage: StoragePort, taxonomy: TaxonomyName, ids: readonly number[]): Promise<number[]> {
  return idsByName(await getTerms(storage, taxonomy, ids));
}

/** The ids of `terms` ordered by name (then id). */
export function idsByName(terms: readonly TermRecord[]): number[] {
  return [...terms].sort((a, b) => compareText(a.name, b.name) || a.id - b.id).map((term) => term.id);
}

/** Made on first use: building a collator loads the collation tables (milliseconds, and memory). */
let collator: Intl.Collator | undefined;

/** Case- and accent-insensitive comparison, close to the database collation the reference sorts names with. */
export function compareText(a: string, b: string): number {
  collator ??= new Intl.Collator('en', { sensitivity: 'base' });
  return collator.compare(a, b);
}
