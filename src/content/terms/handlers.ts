/** Handlers of the category and tag routes: list, read, create, update, delete. */
import type { RequestContext } from '../../core/context.js';
import { CmsError } from '../../core/errors.js';
import { collection, created, item, reply } from '../../core/response.js';
import { paging } from '../../core/paging.js';
import { deleteTerm, getTerm, insertTerm, updateTerm, type TermInput } from '../taxonomy/index.js';
import type { TermType } from './deps.js';
import { isSet, loadPostOf, requireTerm, termLookup } from './load.js';
import { prepareTerm } from './prepare.js';
import { queryTerms, type TermListQuery } from './query.js';
import { isEmpty } from '../../format/php.js';

export async function listTerms(context: RequestContext, terms: TermType): Promise<unknown> {
  const { params } = context;
  const { definition } = terms;
  const perPage = Number(params.per_page);
  const requestedOffset = !definition.hierarchical && !isEmpty(params.offset)
    ? Number(params.offset)
    : (Number(params.page) - 1) * perPage;
  const query: TermListQuery = {
    include: (params.include as number[] | undefined) ?? [],
    exclude: (params.exclude as number[] | undefined) ?? [],
    slugs: Array.isArray(params.slug) ? params.slug.map(String) : [],
    search: isEmpty(params.search) ? '' : String(params.search),
    hideEmpty: params.hide_empty === true,
    orderby: (params.orderby as TermListQuery['orderby'] | undefined) ?? 'name',
    order: params.order === 'desc' ? 'desc' : 'asc',
    offset: Math.abs(requestedOffset),
    number: perPage,
  };
  if (definition.hierarchical && isSet(context, 'parent')) query.parent = Number(params.parent);
  if (!isEmpty(params.post)) {
    const post = await loadPostOf(context, terms, Number(params.post));
    const ids = post?.[definition.postField];
    query.postTermIds = Array.isArray(ids) ? ids.filter((id): id is number => typeof id === 'number') : [];
  }

  const result = await queryTerms(terms.deps.storage, definition.name, query);
  const lookup = termLookup(context, terms);
  const items = await Promise.all(result.terms.map((term) => prepareTerm(context, terms, term, lookup)));
  const page = Math.ceil(requestedOffset / perPage + 1);
  return collection(items, paging(result.total, page, perPage));
}

export async function readTerm(context: RequestContext, terms: TermType): Promise<unknown> {
  const term = await requireTerm(context, terms);
  return item(await prepareTerm(context, terms, term, termLookup(context, terms)));
}

/** `description` and `slug` when sent. */
function writableFields(context: RequestContext): TermInput {
  const fields: TermInput = {};
  if (isSet(context, 'description')) fields.description = String(context.params.description);
  if (isSet(context, 'slug')) fields.slug = String(context.params.slug);
  return fields;
}

/**
 * The parent a write asks for: undefined when none is sent; for tags any parent is an error, for categories a
 * parent other than 0 must be a category.
 */
async function requestedParent(context: RequestContext, terms: TermType): Promise<number | undefined> {
  if (!isSet(context, 'parent')) return undefined;
  if (!terms.definition.hierarchical) {
    throw new CmsError('rest_taxonomy_not_hierarchical', 'Cannot set parent term, taxonomy is not hierarchical.', 400);
  }
  const parent = Math.trunc(Number(context.params.parent));
  if (parent !== 0 && !(await getTerm(terms.deps.storage, terms.definition.name, parent))) {
    throw new CmsError('rest_term_invalid', 'Parent term does not exist.', 400);
  }
  return parent;
}

export async function createTerm(context: RequestContext, terms: TermType): Promise<unknown> {
  const parent = await requestedParent(context, terms);
  const input: TermInput & { name: string } = { name: String(context.params.name ?? ''), ...writableFields(context) };
  if (parent !== undefined) input.parent = parent;
  const term = await insertTerm(terms.deps.storage, terms.definition.name, input);
  const prepared = await prepareTerm(context, terms, term, termLookup(context, terms));
  return created(prepared, context.url(`/cms/v2/${terms.definition.restBase}/${term.id}`));
}

export async function updateTermHandler(context: RequestContext, terms: TermType): Promise<unknown> {
  const term = await requireTerm(context, terms);
  const parent = await requestedParent(context, terms);
  const changes: TermInput = writableFields(context);
  if (isSet(context, 'name')) changes.name = String(context.params.name);
  if (parent !== undefined) changes.parent = parent;
  const updated = await updateTerm(terms.deps.storage, term, changes);
  return item(await prepareTerm(context, terms, updated, termLookup(context, terms)));
}

export async function deleteTermHandler(context: RequestContext, terms: TermType): Promise<unknown> {
  const term = await requireTerm(context, terms);
  if (context.params.force !== true) {
    throw new CmsError('rest_trash_not_supported', "Terms do not support trashing. Set 'force=true' to delete.", 501);
  }
  const previous = await prepareTerm(context, terms, term, termLookup(context, terms));
  if (!(await deleteTerm(terms.deps.storage, term))) {
    throw new CmsError('rest_cannot_delete', 'The term cannot be deleted.', 500);
  }
  return reply({ deleted: true, previous: previous.data });
}
