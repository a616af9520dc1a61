/** Records the term routes look up, loaded once per request (permission checks and handlers share them). */
import type { AnyParams, RequestContext } from '../../core/context.js';
import { CmsError } from '../../core/errors.js';
import { postsIn, type PostRecord } from '../post-type/index.js';
import { getTerm, type TermRecord } from '../taxonomy/index.js';
import type { TermType } from './deps.js';

/** A term of the route's taxonomy by id. */
export function termLookup(context: RequestContext, terms: TermType): (id: number) => Promise<TermRecord | null> {
  const { name } = terms.definition;
  return (id) => context.memo(`term:${name}:${id}`, () => getTerm(terms.deps.storage, name, id));
}

/** The term of the URL (every item row declares `id`); `rest_term_invalid` 404 when it is not one of this taxonomy. */
export async function requireTerm(context: RequestContext<AnyParams & { readonly id?: number }>, terms: TermType): Promise<TermRecord> {
  const term = await termLookup(context, terms)(context.params.id ?? 0);
  if (!term) throw new CmsError('rest_term_invalid', 'Term does not exist.', 404);
  return term;
}

/** A post-type record by id (the `post` filter), shared with the post routes' loading in the same request. */
export function loadPostOf(context: RequestContext, terms: TermType, id: number): Promise<PostRecord | null> {
  return context.memo(`post:${id}`, () => postsIn(terms.deps.storage).get(id));
}

/** Whether a parameter was given a value (PHP's `isset`: a JSON null counts as absent). */
export function isSet(context: RequestContext, name: string): boolean {
  const value = context.params[name];
  return value !== undefined && value !== null;
}

