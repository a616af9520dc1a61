/** Handlers of the category and tag routes: list, read, create, update, delete. */
import type { Params } from '../../core/args/define.js';
import type { RequestContext } from '../../core/context.js';
import { CmsError } from '../../core/errors.js';
import { collection, created, item, reply } from '../../core/response.js';
import { pageWindow, paging } from '../../core/paging.js';
import { deleteTerm as removeTerm, getTerm, insertTerm, updateTerm as saveTerm, type TermInput } from '../taxonomy/index.js';
import type { deleteArgs, listArgs, readArgs, updateArgs, writeArgs } from './args.js';
import type { TermType } from './deps.js';
import { loadPostOf, requireTerm, termLookup } from './load.js';
import { prepareTerm } from './prepare.js';
import { queryTerms, type TermListQuery } from './query.js';
import { isEmpty } from '../../format/php.js';

export async function listTerms(context: RequestContext<Params<typeof listArgs>>, terms: TermType): Promise<unknown> {
  const { params } = context;
  const { definition } = terms;
  const search = params.search ?? '';
  // A hierarchical taxonomy's list declares no offset; one sent anyway is ignored.
  const window = pageWindow(definition.hierarchical ? { ...params, offset: undefined } : params, 'term');
  const query: TermListQuery = {
    include: params.include,
    exclude: params.exclude,
    slugs: params.slug ?? [],
    search: isEmpty(search) ? '' : search,
    hideEmpty: params.hide_empty,
    orderby: params.orderby,
    order: params.order,
    offset: window.offset,
    number: window.perPage,
  };
  if (definition.hierarchical && params.parent !== undefined) query.parent = params.parent;
  if (params.post !== undefined && params.post !== 0) {
    const post = await loadPostOf(context, terms, params.post);
    const ids = post?.[definition.postField];
    query.postTermIds = Array.isArray(ids) ? ids.filter((id): id is number => typeof id === 'number') : [];
  }

  const result = await queryTerms(terms.deps.storage, definition.name, query);
  const lookup = termLookup(context, terms);
  const items = await Promise.all(result.terms.map((term) => prepareTerm(context, terms, term, lookup)));
  return collection(items, paging(result.total, window.page, window.perPage));
}

export async function readTerm(context: RequestContext<Params<typeof readArgs>>, terms: TermType): Promise<unknown> {
  const term = await requireTerm(context, terms);
  return item(await prepareTerm(context, terms, term, termLookup(context, terms)));
}

type WriteParams = Params<ReturnType<typeof writeArgs>>;

/** `description` and `slug` when sent. */
function writableFields(params: WriteParams): TermInput {
  const fields: TermInput = {};
  if (params.description !== undefined) fields.description = params.description;
  if (params.slug !== undefined) fields.slug = params.slug;
  return fields;
}

/**
 * The parent a write asks for: undefined when none is sent; for tags any parent is an error, for categories a
 * parent other than 0 must be a category.
 */
async function requestedParent(context: RequestContext<WriteParams>, terms: TermType): Promise<number | undefined> {
  if (context.params.parent === undefined || context.params.parent === null) return undefined;
  if (!terms.definition.hierarchical) {
    throw new CmsError('rest_taxonomy_not_hierarchical', 'Cannot set parent term, taxonomy is not hierarchical.', 400);
  }
  const { parent } = context.params;
  if (parent !== 0 && !(await getTerm(terms.deps.storage, terms.definition.name, parent))) {
    throw new CmsError('rest_term_invalid', 'Parent term does not exist.', 400);
  }
  return parent;
}

export async function createTerm(context: RequestContext<WriteParams>, terms: TermType): Promise<unknown> {
  const parent = await requestedParent(context, terms);
  const input: TermInput & { name: string } = { name: context.params.name ?? '', ...writableFields(context.params) };
  if (parent !== undefined) input.parent = parent;
  const term = await insertTerm(terms.deps.storage, terms.definition.name, input);
  const prepared = await prepareTerm(context, terms, term, termLookup(context, terms));
  return created(prepared, context.url(`/cms/v2/${terms.definition.restBase}/${term.id}`));
}

export async function updateTerm(context: RequestContext<Params<typeof updateArgs>>, terms: TermType): Promise<unknown> {
  const term = await requireTerm(context, terms);
  const parent = await requestedParent(context, terms);
  const changes: TermInput = writableFields(context.params);
  if (context.params.name !== undefined) changes.name = context.params.name;
  if (parent !== undefined) changes.parent = parent;
  const updated = await saveTerm(terms.deps.storage, term, changes);
  return item(await prepareTerm(context, terms, updated, termLookup(context, terms)));
}

export async function deleteTerm(context: RequestContext<Params<typeof deleteArgs>>, terms: TermType): Promise<unknown> {
  const term = await requireTerm(context, terms);
  if (context.params.force !== true) {
    throw new CmsError('rest_trash_not_supported', "Terms do not support trashing. Set 'force=true' to delete.", 501);
  }
  const previous = await prepareTerm(context, terms, term, termLookup(context, terms));
  if (!(await removeTerm(terms.deps.storage, term))) {
    throw new CmsError('rest_cannot_delete', 'The term cannot be deleted.', 500);
  }
  return reply({ deleted: true, previous: previous.data });
}
