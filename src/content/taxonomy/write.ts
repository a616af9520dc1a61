/**
 * Writing terms with the rules of the reference's term functions: sanitised names, unique slugs, no two terms
 * of one name under the same parent, the undeletable default category, and posts losing a deleted term.
 */
import { asciiLower } from '../../format/php.js';
import { sanitizeTextField } from '../../format/text.js';
import { CmsError } from '../../core/errors.js';
import { sanitizeTitleHtml } from '../../format/kses/sanitize.js';
import { escapeHtml } from '../../format/entities.js';
import { sanitizeTitle } from '../../format/slug.js';
import { sanitizeTitleHtmlWhereCheapest } from '../render/pool/jobs.js';
import type { Condition, StoragePort } from '../../ports/storage.js';
import { updateTermCountsForPost } from './counts.js';
import { DEFAULT_CATEGORY_ID, TERMS_COLLECTION, termsIn, type TermInput, type TermRecord } from './record.js';
import { ensureDefaultTerms, getTerm } from './store.js';
import { TAXONOMIES, type TaxonomyName } from './taxonomies.js';

/** The collection post-type records live in (owned by the post-type kit, which builds on this module). */
const POSTS_COLLECTION = 'posts';

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

/**
 * The most characters a name or slug may hold as sent: the reference keeps them in columns of 200, and they are
 * sanitised, compared and made into slugs on the main thread.
 */
export const MAX_TERM_NAME_LENGTH = 200;

/** The argument's own error (`rest_too_long`), for names and slugs that reach the store by another way than a request. */
function checkLength(field: 'name' | 'slug', text: string | undefined): void {
  const max = MAX_TERM_NAME_LENGTH;
  if (text === undefined || text.length <= max || [...text.slice(0, 2 * max + 1)].length <= max) return;
  const message = `${field} must be at most ${max} characters long.`;
  throw new CmsError('rest_invalid_param', `Invalid parameter(s): ${field}`, 400, {
    params: { [field]: message }, details: { [field]: { code: 'rest_too_long', message, data: null } },
  });
}

/* Slugs. */

async function termsWithSlug(storage: StoragePort, slug: string, taxonomy?: TaxonomyName): Promise<TermRecord[]> {
  const where: Condition[] = [{ field: 'slug', op: 'eq', value: slug }];
  if (taxonomy) where.push({ field: 'taxonomy', op: 'eq', value: taxonomy });
  return (await termsIn(storage).list({ where })).items;
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
  if (parent > 0 && !(await termsIn(storage).get(parent))) {
    throw new CmsError('missing_parent', 'Parent term does not exist.', 400);
  }
}

/** The existing term a new one would duplicate (same name at the same level), as `wp_insert_term` decides. */
async function duplicateOf(
  storage: StoragePort, taxonomy: TaxonomyName, name: string, slug: string, slugProvided: boolean, parent: number,
): Promise<TermRecord | null> {
  const sameLevel = (await termsIn(storage).list({
    where: [{ field: 'taxonomy', op: 'eq', value: taxonomy }, { field: 'parent', op: 'eq', value: parent }],
  })).items;
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
  const error = new CmsError('term_exists', message, 400, { term_id: existing.id });
  // The reference's error keeps the data it held before `{status, term_id}`: the id from `wp_insert_term`, then
  // the id its REST controller adds. Clients read the existing term from either.
  error.additionalData.push(existing.id, existing.id);
  return error;
}

/**
 * Creates a term (`wp_insert_term`). Errors: `empty_term_name` (400), `missing_parent` (400), `term_exists`
 * (400, with the existing `term_id`), `rest_invalid_param` (400) for a name or slug over `MAX_TERM_NAME_LENGTH`,
 * `rest_render_busy` (503) when a long description finds the worker queue full. A slug is made from the name when none is given, and made unique.
 */
export async function insertTerm(storage: StoragePort, taxonomy: TaxonomyName, input: TermInput & { name: string }): Promise<TermRecord> {
  await ensureDefaultTerms(storage);
  checkLength('name', input.name);
  checkLength('slug', input.slug);
  if (input.name.trim() === '') throw emptyNameError();
  const parent = TAXONOMIES[taxonomy].hierarchical ? Math.trunc(input.parent ?? 0) : 0;
  await checkParentExists(storage, parent);
  const name = sanitizeTermName(input.name);
  const description = await sanitizeTitleHtmlWhereCheapest(input.description ?? '');
  const providedSlug = sanitizeTitle(input.slug ?? '');
  const slugProvided = providedSlug !== '';
  const slug = slugProvided ? providedSlug : sanitizeTitle(name);

  return storage.transaction(async (tx) => {
    const duplicate = await duplicateOf(tx, taxonomy, name, slug, slugProvided, parent);
    if (duplicate) throw termExistsError(taxonomy, duplicate);
    const unique = await uniqueTermSlug(tx, slug, { taxonomy, parent });
    const terms = termsIn(tx);
    const term = await terms.insert({ taxonomy, name, slug: unique, description, parent, count: 0, meta: {} });
    if (unique !== '') return term;
    return (await terms.update(term.id, { slug: String(term.id) })) ?? term;
  });
}

/** The parent to store: 0 instead of one that would make the term its own ancestor. */
async function parentWithoutLoop(storage: StoragePort, term: TermRecord, parent: number): Promise<number> {
  if (parent <= 0 || parent === term.id) return 0;
  const seen = new Set<number>();
  for (let ancestor = parent; ancestor > 0 && !seen.has(ancestor); ) {
    if (ancestor === term.id) return 0;
    seen.add(ancestor);
    ancestor = (await termsIn(storage).get(ancestor))?.parent ?? 0;
  }
  return parent;
}

/**
 * Changes a term (`wp_update_term`): omitted fields keep their values; an empty slug is remade from the name.
 * Errors as `insertTerm`'s but `term_exists`, and `duplicate_term_slug` (400) for a slug another term
 * of the taxonomy has (unless the parent changes, which makes it unique instead).
 */
export async function updateTerm(storage: StoragePort, term: TermRecord, changes: TermInput): Promise<TermRecord> {
  const rawName = changes.name ?? term.name;
  checkLength('name', changes.name);
  checkLength('slug', changes.slug);
  const name = sanitizeTermName(rawName);
  if (name.trim() === '') throw emptyNameError();
  const description = changes.description === undefined ? term.description : await sanitizeTitleHtmlWhereCheapest(changes.description);
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
    const updated = await termsIn(tx).update(term.id, { name, slug, description, parent });
    if (!updated) throw new Error(`Term ${term.id} was removed while it was being updated.`);
    return updated;
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
      const { items: children } = await termsIn(tx).list({
        where: [{ field: 'taxonomy', op: 'eq', value: term.taxonomy }, { field: 'parent', op: 'eq', value: term.id }],
      });
      for (const child of children) await termsIn(tx).update(child.id, { parent: term.parent });
    }
    const fallback = term.taxonomy === 'category' && (await termsIn(tx).get(DEFAULT_CATEGORY_ID)) ? DEFAULT_CATEGORY_ID : null;
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
    return termsIn(tx).remove(term.id);
  });
}
