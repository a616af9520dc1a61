/**
 * Authors and terms of a WXR file, as the reference's importer treats them: a user whose login exists, or a
 * category or tag whose slug exists, is used as it is; others are made. Taxonomies other than categories and
 * tags (menus, custom ones) have nowhere to go and are counted as skipped.
 */
import { isCmsError } from '../core/errors.js';
import { skip, warn, type ImportRun } from './import-run.js';
import type { NewTerm } from './ports.js';
import type { WxrAuthor, WxrTerm } from './records.js';

export async function importAuthor(run: ImportRun, author: WxrAuthor): Promise<void> {
  run.progress.authors++;
  let id = run.ids.userByLogin(author.login) ?? (await run.port.userIdByLogin(author.login));
  if (id !== null) {
    run.summary.existing.users++;
  } else {
    try {
      id = await run.port.createAuthor({
        login: author.login, email: author.email, displayName: author.displayName, firstName: author.firstName,
        lastName: author.lastName, role: run.options.authorRole,
      });
      run.summary.created.users++;
    } catch (error) {
      if (!isCmsError(error)) throw error;
      id = run.options.defaultAuthor;
      warn(run, `line ${author.line}: no user was made for the author "${author.login}" (${error.message}); their records get user ${id}`);
    }
  }
  run.ids.rememberLogin(author.login, id);
  if (author.id > 0) run.ids.users.set(author.id, id);
}

/** The id of the term with that slug: the one read from the file or already stored, else a new one (null if it cannot be made). */
export async function termFor(run: ImportRun, term: Pick<NewTerm, 'taxonomy' | 'slug' | 'name'>, line: number): Promise<number | null> {
  const known = run.ids.termBySlug(term.taxonomy, term.slug) ?? (await run.port.termId(term.taxonomy, term.slug));
  if (known !== null) {
    run.ids.rememberSlug(term.taxonomy, term.slug, known);
    return known;
  }
  try {
    const { id, created } = await run.port.createTerm({ ...term, name: term.name.trim() || term.slug, description: '', parent: 0 });
    run.ids.rememberSlug(term.taxonomy, term.slug, id);
    run.summary[created ? 'created' : 'existing'][term.taxonomy === 'category' ? 'categories' : 'tags']++;
    return id;
  } catch (error) {
    if (!isCmsError(error)) throw error;
    warn(run, `line ${line}: the term "${term.slug}" was not made (${error.message})`);
    return null;
  }
}

export async function importTerm(run: ImportRun, term: WxrTerm): Promise<void> {
  run.progress.terms++;
  const { taxonomy } = term;
  if (taxonomy !== 'category' && taxonomy !== 'post_tag') return skip(run, `taxonomy:${taxonomy}`);
  const existing = run.ids.termBySlug(taxonomy, term.slug) ?? (await run.port.termId(taxonomy, term.slug));
  if (existing !== null) {
    run.ids.rememberSlug(taxonomy, term.slug, existing);
    run.summary.existing[taxonomy === 'category' ? 'categories' : 'tags']++;
    if (term.id > 0) run.ids.terms.set(term.id, existing);
    return;
  }
  const parent = term.parentSlug === '' ? 0 : run.ids.termBySlug(taxonomy, term.parentSlug) ?? (await run.port.termId(taxonomy, term.parentSlug)) ?? 0;
  try {
    const { id, created } = await run.port.createTerm({ taxonomy, name: term.name, slug: term.slug, description: term.description, parent });
    run.ids.rememberSlug(taxonomy, term.slug, id);
    if (term.id > 0) run.ids.terms.set(term.id, id);
    run.summary[created ? 'created' : 'existing'][taxonomy === 'category' ? 'categories' : 'tags']++;
    if (created && term.parentSlug !== '' && parent === 0) run.ids.termParents.push([id, taxonomy, term.parentSlug]);
  } catch (error) {
    if (!isCmsError(error)) throw error;
    warn(run, `line ${term.line}: the ${taxonomy === 'category' ? 'category' : 'tag'} "${term.slug}" was not made (${error.message})`);
  }
}
