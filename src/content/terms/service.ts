import { asciiLower } from '../../format/php.js';
import { sanitizeTextField } from '../../format/text.js';
import { CmsError } from '../../core/errors.js';
import { sanitizeTitleHtml } from '../../format/kses/sanitize.js';
import { escapeHtml } from '../../format/entities.js';
import { isStorageError, type Condition, type StoragePort, type StoredRecord } from '../../ports/storage.js';
import { sanitizeTitle } from '../../format/slug.js';
import { TAXONOMIES, type TaxonomyName } from './taxonomies.js';

/**
 * Categories and tags as stored records, and the rules of the reference's term functions: unique slugs, no two
 * terms of one name under the same parent, the undeletable default category, counts of published posts.
 * Posts refer to terms by id arrays on the post record (`categories`, `tags`).
 */

export const TERMS_COLLECTION = 'terms';
export const POSTS_COLLECTION = 'posts';

/** The default category ("Uncategorized") every new store has. */
export const DEFAULT_CATEGORY_ID = 1;

export interface TermRecord {
  id: number;
  taxonomy: TaxonomyName;
  name: string;
  slug: string;
  description: string;
  /** 0 for top-level terms; always 0 for tags. */
  parent: number;
  /** Published posts carrying the term, kept up to date as posts are saved (the reference's stored count). */
  count: number;
  meta: Record<string, unknown>;
}

/** Fields a term is created or updated with; values are as received, sanitised here. */
export interface TermInput {
  name?: string;
  slug?: string;
  description?: string;
  parent?: number;
}

function toTerm(record: StoredRecord): TermRecord {
  return {
    id: record.id,
    taxonomy: record.taxonomy as TaxonomyName,
    name: typeof record.name === 'string' ? record.name : '',
    slug: typeof record.slug === 'string' ? record.slug : '',
    description: typeof record.description === 'string' ? record.description : '',
    parent: typeof record.parent === 'number' ? record.parent : 0,
    count: typeof record.count === 'number' ? record.count : 0,
    meta: record.meta !== null && typeof record.meta === 'object' && !Array.isArray(record.meta) ? record.meta as Record<string, unknown> : {},
  };
}

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
  if (await storage.get(TERMS_COLLECTION, DEFAULT_CATEGORY_ID)) return;
  try {
    await storage.insert(TERMS_COLLECTION, {
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
  const record = await storage.get(TERMS_COLLECTION, id);
  return record && record.taxonomy === taxonomy ? toTerm(record) : null;
}

/** Terms of the taxonomy with these ids, in no particular order; unknown ids are skipped. */
export async function getTerms(storage: StoragePort, taxonomy: TaxonomyName, ids: readonly number[]): Promise<TermRecord[]> {
  const wanted = [...new Set(ids)].filter((id) => Number.isSafeInteger(id) && id > 0);
  if (wanted.length === 0) return [];
  await ensureDefaultTerms(storage);
  const { items } = await storage.list(TERMS_COLLECTION, {
    where: [{ field: 'id', op: 'in', values: wanted }, { field: 'taxonomy', op: 'eq', value: taxonomy }],
  });
  return items.map(toTerm);
}

/** The ids among `ids` that are not terms of the taxonomy (empty when all exist). */
export async function termsExist(storage: StoragePort, taxonomy: TaxonomyName, ids: readonly number[]): Promise<number[]> {
  const found = new Set((await getTerms(storage, taxonomy, ids)).map((term) => term.id));
  return [...new Set(ids)].filter((id) => !found.has(id));
}

/** All terms of a taxonomy (taxonomies are small next to posts). */
export async function allTerms(storage: StoragePort, taxonomy: TaxonomyName): Promise<TermRecord[]> {
  await ensureDefaultTerms(storage);
  const { items } = await storage.list(TERMS_COLLECTION, { where: [{ field: 'taxonomy', op: 'eq', value: taxonomy }] });
  return items.map(toTerm);
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

/* Counts. */

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
  for (const taxonomy of Object.keys(TAXONOMIES) as TaxonomyName[]) {
    const deltas = new Map<number, number>();
    for (const id of countedTermIds(previous, taxonomy)) deltas.set(id, (deltas.get(id) ?? 0) - 1);
    for (const id of countedTermIds(current, taxonomy)) deltas.set(id, (deltas.get(id) ?? 0) + 1);
    for (const [id, delta] of deltas) {
      if (delta === 0) continue;
      const record = await storage.get(TERMS_COLLECTION, id);
      if (!record || record.taxonomy !== taxonomy) continue;
      const count = typeof record.count === 'number' ? record.count : 0;
      await storage.update(TERMS_COLLECTION, id, { count: Math.max(0, count + delta) });
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
    if (count !== term.count) await storage.update(TERMS_COLLECTION, term.id, { count });
  }
}

/** Ids ordered by term name (then id), the order the reference lists a post's terms in; unknown ids dropped. */
export async function sortTermIdsByName(storage: StoragePort, taxonomy: TaxonomyName, ids: readonly number[]): Promise<number[]> {
  const terms = await getTerms(storage, taxonomy, ids);
  terms.sort((a, b) => compareText(a.name, b.name) || a.id - b.id);
  return terms.map((term) => term.id);
}

const collator = new Intl.Collator('en', { sensitivity: 'base' });

/** Case- and accent-insensitive comparison, close to the database collation the reference sorts names with. */
export function compareText(a: string, b: string): number {
  return collator.compare(a, b);
}

/* Sanitising, as the reference's `sanitize_term` does for the database. */

/** Names: plain text, limited inline HTML, `&`, `<` and `>` escaped (quotes stay). */
export function sanitizeTermName(name: string): string {
  const text = sanitizeTitleHtml(sanitizeTextField(name));
  return text.split(/(["'])/).map((part) => (part === '"' || part === "'" ? part : escapeHtml(part))).join('');
}

/** Descriptions: limited inline HTML. */
export function sanitizeTermDescription(description: string): string {
  return sanitizeTitleHtml(description);
}

/* Slugs. */

async function termsWithSlug(storage: StoragePort, slug: string, taxonomy?: TaxonomyName): Promise<TermRecord[]> {
  const where: Condition[] = [{ field: 'slug', op: 'eq', value: slug }];
  if (taxonomy) where.push({ field: 'taxonomy', op: 'eq', value: taxonomy });
  return (await storage.list(TERMS_COLLECTION, { where })).items.map(toTerm);
}

/** The reference's `term_exists` for a string: a term of any taxonomy with that slug (sanitised) or that name. */
async function anyTermNamed(storage: StoragePort, text: string): Promise<boolean> {
  const { total } = await storage.list(TERMS_COLLECTION, {
    where: [{ op: 'or', conditions: [{ field: 'slug', op: 'eq', value: sanitizeTitle(text) }, { field: 'name', op: 'textEquals', value: text }] }],
    limit: 0,
    withTotal: true,
  });
  return (total ?? 0) > 0;
}

/**
 * A slug no other term of the taxonomy has: taken slugs of child categories first get their ancestors' slugs
 * appended (`news-world`), then a number (`news-2`), which must be free across all taxonomies.
 */
export async function uniqueTermSlug(
  storage: StoragePort, slug: string, term: { taxonomy: TaxonomyName; parent: number; id?: number },
): Promise<string> {
  if ((await termsWithSlug(storage, slug, term.taxonomy)).length === 0) return slug;

  let candidate = slug;
  if (TAXONOMIES[term.taxonomy].hierarchical && term.parent > 0) {
    let suffix = '';
    let parentId = term.parent;
    while (parentId > 0) {
      const parent = await getTerm(storage, term.taxonomy, parentId);
      if (!parent) break;
      suffix += `-${parent.slug}`;
      if (!(await anyTermNamed(storage, slug + suffix))) break;
      parentId = parent.parent;
    }
    candidate += suffix;
  }

  const takenByOther = (await termsWithSlug(storage, candidate)).some((other) => other.id !== term.id);
  if (!takenByOther) return candidate;
  for (let number = 2; ; number++) {
    const numbered = `${candidate}-${number}`;
    if ((await termsWithSlug(storage, numbered)).length === 0) return numbered;
  }
}

/* Writing. */

function emptyNameError(): CmsError {
  return new CmsError('empty_term_name', 'A name is required for this term.', 400);
}

async function checkParentExists(storage: StoragePort, parent: number): Promise<void> {
  if (parent > 0 && !(await storage.get(TERMS_COLLECTION, parent))) {
    throw new CmsError('missing_parent', 'Parent term does not exist.', 400);
  }
}

/** The existing term a new one would duplicate (same name at the same level), as `wp_insert_term` decides. */
async function duplicateOf(
  storage: StoragePort, taxonomy: TaxonomyName, name: string, slug: string, slugProvided: boolean, parent: number,
): Promise<TermRecord | null> {
  const sameLevel = (await storage.list(TERMS_COLLECTION, {
    where: [{ field: 'taxonomy', op: 'eq', value: taxonomy }, { field: 'parent', op: 'eq', value: parent }],
  })).items.map(toTerm);
  const nameMatch = sameLevel.find((term) => asciiLower(term.name) === asciiLower(name));
  if (!nameMatch) return null;
  const [slugMatch] = await termsWithSlug(storage, slug, taxonomy);
  if (slugProvided && nameMatch.slug !== slug && !slugMatch) return null;
  if (!TAXONOMIES[taxonomy].hierarchical) return nameMatch;
  if ((!slugProvided || nameMatch.slug === slug) && sameLevel.some((term) => term.name === name)) return nameMatch;
  if (slugMatch && sameLevel.some((term) => term.slug === slug)) return slugMatch;
  return null;
}

function termExistsError(taxonomy: TaxonomyName, existing: TermRecord): CmsError {
  const message = TAXONOMIES[taxonomy].hierarchical
    ? 'A term with the name provided already exists with this parent.'
    : 'A term with the name provided already exists in this taxonomy.';
  return new CmsError('term_exists', message, 400, { term_id: existing.id });
}

/**
 * Creates a term (`wp_insert_term`). Errors: `empty_term_name` (400), `missing_parent` (400), `term_exists`
 * (400, with the existing `term_id`). A slug is made from the name when none is given, and made unique.
 */
export async function insertTerm(storage: StoragePort, taxonomy: TaxonomyName, input: TermInput & { name: string }): Promise<TermRecord> {
  await ensureDefaultTerms(storage);
  if (input.name.trim() === '') throw emptyNameError();
  const parent = TAXONOMIES[taxonomy].hierarchical ? Math.trunc(input.parent ?? 0) : 0;
  await checkParentExists(storage, parent);
  const name = sanitizeTermName(input.name);
  const description = sanitizeTermDescription(input.description ?? '');
  const providedSlug = sanitizeTitle(input.slug ?? '');
  const slugProvided = providedSlug !== '';
  const slug = slugProvided ? providedSlug : sanitizeTitle(name);

  return storage.transaction(async (tx) => {
    const duplicate = await duplicateOf(tx, taxonomy, name, slug, slugProvided, parent);
    if (duplicate) throw termExistsError(taxonomy, duplicate);
    const unique = await uniqueTermSlug(tx, slug, { taxonomy, parent });
    const record = await tx.insert(TERMS_COLLECTION, { taxonomy, name, slug: unique, description, parent, count: 0, meta: {} });
    if (unique !== '') return toTerm(record);
    return toTerm((await tx.update(TERMS_COLLECTION, record.id, { slug: String(record.id) }))!);
  });
}

/** The parent to store: 0 instead of one that would make the term its own ancestor. */
async function parentWithoutLoop(storage: StoragePort, term: TermRecord, parent: number): Promise<number> {
  if (parent <= 0 || parent === term.id) return 0;
  const seen = new Set<number>();
  for (let ancestor = parent; ancestor > 0 && !seen.has(ancestor); ) {
    if (ancestor === term.id) return 0;
    seen.add(ancestor);
    const record = await storage.get(TERMS_COLLECTION, ancestor);
    ancestor = record && typeof record.parent === 'number' ? record.parent : 0;
  }
  return parent;
}

/**
 * Changes a term (`wp_update_term`): omitted fields keep their values; an empty slug is remade from the name.
 * Errors: `empty_term_name` (400), `missing_parent` (400), `duplicate_term_slug` (400) for a slug another term
 * of the taxonomy has (unless the parent changes, which makes it unique instead).
 */
export async function updateTerm(storage: StoragePort, term: TermRecord, changes: TermInput): Promise<TermRecord> {
  const rawName = changes.name ?? term.name;
  const name = sanitizeTermName(rawName);
  if (name.trim() === '') throw emptyNameError();
  const description = changes.description === undefined ? term.description : sanitizeTermDescription(changes.description);
  const hierarchical = TAXONOMIES[term.taxonomy].hierarchical;
  const requestedParent = hierarchical && changes.parent !== undefined ? Math.trunc(changes.parent) : term.parent;
  await checkParentExists(storage, requestedParent);
  const givenSlug = changes.slug === undefined ? term.slug : sanitizeTitle(changes.slug);
  const emptySlug = givenSlug === '';
  let slug = emptySlug ? sanitizeTitle(name) : givenSlug;

  return storage.transaction(async (tx) => {
    const parent = await parentWithoutLoop(tx, term, requestedParent);
    const [duplicate] = (await termsWithSlug(tx, slug, term.taxonomy)).filter((other) => other.id !== term.id);
    if (duplicate) {
      if (!emptySlug && parent === term.parent) {
        throw new CmsError('duplicate_term_slug', `The slug &#8220;${slug}&#8221; is already in use by another term.`, 400);
      }
      slug = await uniqueTermSlug(tx, slug, { taxonomy: term.taxonomy, parent: requestedParent, id: term.id });
    }
    if (slug === '') slug = String(term.id);
    const updated = await tx.update(TERMS_COLLECTION, term.id, { name, slug, description, parent });
    return toTerm(updated!);
  });
}

/**
 * Deletes a term (`wp_delete_term`): its children move up to its parent, and posts lose it — a post left with
 * no category gets the default one. The default category is never deleted (resolves `false`).
 */
export async function deleteTerm(storage: StoragePort, term: TermRecord): Promise<boolean> {
  await ensureDefaultTerms(storage);
  if (term.taxonomy === 'category' && term.id === DEFAULT_CATEGORY_ID) return false;
  const definition = TAXONOMIES[term.taxonomy];
  return storage.transaction(async (tx) => {
    if (definition.hierarchical) {
      const { items: children } = await tx.list(TERMS_COLLECTION, {
        where: [{ field: 'taxonomy', op: 'eq', value: term.taxonomy }, { field: 'parent', op: 'eq', value: term.id }],
      });
      for (const child of children) await tx.update(TERMS_COLLECTION, child.id, { parent: term.parent });
    }
    const fallback = term.taxonomy === 'category' && (await tx.get(TERMS_COLLECTION, DEFAULT_CATEGORY_ID)) ? DEFAULT_CATEGORY_ID : null;
    const { items: posts } = await tx.list(POSTS_COLLECTION, {
      where: [{ field: definition.postField, op: 'containsAny', values: [term.id] }],
    });
    for (const post of posts) {
      const current = Array.isArray(post[definition.postField]) ? post[definition.postField] as number[] : [];
      const remaining = current.filter((id) => id !== term.id);
      const next = remaining.length === 0 && fallback !== null ? [fallback] : remaining;
      const updated = await tx.update(POSTS_COLLECTION, post.id, { [definition.postField]: next });
      await updateTermCountsForPost(tx, post, updated);
    }
    return tx.remove(TERMS_COLLECTION, term.id);
  });
}
