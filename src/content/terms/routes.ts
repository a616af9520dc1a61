import { userCan, type PostSubject } from '../../auth/index.js';
import { args } from '../../core/args/define.js';
import type { Item, Links, RequestContext, Services } from '../../core/context.js';
import { CmsError, forbidden } from '../../core/errors.js';
import type { Registry } from '../../core/registry.js';
import { collection, created, item, paging, reply } from '../../core/response.js';
import type { StoredRecord } from '../../ports/storage.js';
import { postEvents } from '../posts/events.js';
import { contextArg, idArg, listArgs, writeArgs } from './args.js';
import { queryTerms, type TermListQuery } from './query.js';
import { termSchema } from './schema.js';
import {
  DEFAULT_CATEGORY_ID, deleteTerm, getTerm, insertTerm, POSTS_COLLECTION, updateTerm, updateTermCountsForPost, type TermInput,
  type TermRecord,
} from './service.js';
import { TAXONOMIES, type TaxonomyDefinition, type TaxonomyName } from './taxonomies.js';

const NAMESPACE = 'cms/v2';

/**
 * Registers `/cms/v2/categories` and `/cms/v2/tags` with their single-term routes, and keeps term counts in step
 * with post writes.
 */
export function registerTerms(registry: Registry, services: Services): void {
  for (const taxonomy of ['category', 'post_tag'] as const) registerTaxonomy(registry, TAXONOMIES[taxonomy]);
  const events = postEvents(services);
  events.saved.push((event) => updateTermCountsForPost(event.storage, event.previous, event.post));
  events.deleted.push((event) => updateTermCountsForPost(event.storage, event.post, null));
}

function registerTaxonomy(registry: Registry, definition: TaxonomyDefinition): void {
  const routes = new TermRoutes(definition);
  const schema = () => termSchema(definition.name);
  registry.add(NAMESPACE, `/${definition.restBase}`, [
    { methods: ['GET'], args: listArgs(definition.name), permission: (c) => routes.canList(c), handler: (c) => routes.list(c) },
    { methods: ['POST'], args: writeArgs(definition.name, true), permission: (c) => routes.canCreate(c), handler: (c) => routes.create(c) },
  ], { schema, cache: true });
  registry.add(NAMESPACE, `/${definition.restBase}/(?P<id>[\\d]+)`, [
    { methods: ['GET'], args: { id: idArg(), context: contextArg() }, permission: (c) => routes.canRead(c), handler: (c) => routes.read(c) },
    {
      methods: ['POST', 'PUT', 'PATCH'],
      args: { id: idArg(), ...writeArgs(definition.name, false) },
      permission: (c) => routes.canUpdate(c),
      handler: (c) => routes.update(c),
    },
    {
      methods: ['DELETE'],
      args: {
        id: idArg(),
        force: args.boolean({ description: 'Required to be true, as terms do not support trashing.', default: false }),
      },
      permission: (c) => routes.canDelete(c),
      handler: (c) => routes.remove(c),
    },
  ], { schema, cache: true });
}

/** Whether a parameter was given a value (PHP's `isset`: a JSON null counts as absent). */
function isSet(context: RequestContext, name: string): boolean {
  const value = context.params[name];
  return value !== undefined && value !== null;
}

/** The reference's `empty()` for a request value. */
function isEmptyValue(value: unknown): boolean {
  return value === undefined || value === null || value === false || value === 0 || value === '' || value === '0'
    || (Array.isArray(value) && value.length === 0);
}

function postSubjectOf(post: StoredRecord): PostSubject {
  const subject: PostSubject = {
    type: String(post.type ?? 'post'),
    status: String(post.status ?? 'draft'),
    authorId: typeof post.author === 'number' ? post.author : 0,
  };
  if (typeof post.trashed_from_status === 'string') subject.trashedFromStatus = post.trashed_from_status;
  return subject;
}

class TermRoutes {
  readonly #taxonomy: TaxonomyName;

  constructor(readonly definition: TaxonomyDefinition) {
    this.#taxonomy = definition.name;
  }

  #can(context: RequestContext, capability: string, term?: TermRecord): boolean {
    const subject = term ? { taxonomy: term.taxonomy, isDefault: term.taxonomy === 'category' && term.id === DEFAULT_CATEGORY_ID } : undefined;
    return userCan(context.user, capability, subject, context.services.capabilityRules);
  }

  #capabilityName(context: RequestContext, which: 'edit_terms' | 'assign_terms'): string {
    return context.services.capabilityRules.taxonomies[this.#taxonomy]?.[which] ?? 'do_not_allow';
  }

  /** The term of the URL, loaded once per request; `rest_term_invalid` 404 when it is not one of this taxonomy. */
  async #term(context: RequestContext): Promise<TermRecord> {
    const term = await this.#lookup(context)(Number(context.params.id));
    if (!term) throw new CmsError('rest_term_invalid', 'Term does not exist.', 404);
    return term;
  }

  /** Runs a permission check that needs the URL's term, turning a missing term into its error. */
  async #withTerm(context: RequestContext, check: (term: TermRecord) => true | CmsError): Promise<true | CmsError> {
    try {
      return check(await this.#term(context));
    } catch (error) {
      if (error instanceof CmsError) return error;
      throw error;
    }
  }

  #lookup(context: RequestContext): (id: number) => Promise<TermRecord | null> {
    return (id) => context.memo(`term:${this.#taxonomy}:${id}`, () => getTerm(context.services.storage, this.#taxonomy, id));
  }

  #post(context: RequestContext, id: number): Promise<StoredRecord | null> {
    return context.memo(`post:${id}`, () => context.services.storage.get(POSTS_COLLECTION, id));
  }

  /* Permissions. */

  async canList(context: RequestContext): Promise<true | CmsError> {
    if (context.context === 'edit' && !this.#can(context, this.#capabilityName(context, 'edit_terms'))) {
      return forbidden(context.user, 'rest_forbidden_context', 'Sorry, you are not allowed to edit terms in this taxonomy.');
    }
    const postId = context.params.post;
    if (!isEmptyValue(postId)) {
      const post = await this.#post(context, Number(postId));
      if (!post) return new CmsError('rest_post_invalid_id', 'Invalid post ID.', 400);
      if (!this.#mayReadTermsOf(context, post)) {
        return forbidden(context.user, 'rest_forbidden_context', 'Sorry, you are not allowed to view terms for this post.');
      }
    }
    return true;
  }

  #mayReadTermsOf(context: RequestContext, post: StoredRecord): boolean {
    const subject = postSubjectOf(post);
    if (!this.definition.objectTypes.includes(subject.type)) return false;
    if (subject.status === 'publish') return true;
    return userCan(context.user, 'read_post', subject, context.services.capabilityRules);
  }

  canRead(context: RequestContext): Promise<true | CmsError> {
    return this.#withTerm(context, (term) => (context.context === 'edit' && !this.#can(context, 'edit_term', term)
      ? forbidden(context.user, 'rest_forbidden_context', 'Sorry, you are not allowed to edit this term.')
      : true));
  }

  canCreate(context: RequestContext): true | CmsError {
    const capability = this.#capabilityName(context, this.definition.hierarchical ? 'edit_terms' : 'assign_terms');
    return this.#can(context, capability)
      ? true
      : forbidden(context.user, 'rest_cannot_create', 'Sorry, you are not allowed to create terms in this taxonomy.');
  }

  canUpdate(context: RequestContext): Promise<true | CmsError> {
    return this.#withTerm(context, (term) => (this.#can(context, 'edit_term', term)
      ? true
      : forbidden(context.user, 'rest_cannot_update', 'Sorry, you are not allowed to edit this term.')));
  }

  canDelete(context: RequestContext): Promise<true | CmsError> {
    return this.#withTerm(context, (term) => (this.#can(context, 'delete_term', term)
      ? true
      : forbidden(context.user, 'rest_cannot_delete', 'Sorry, you are not allowed to delete this term.')));
  }

  /* Handlers. */

  async list(context: RequestContext) {
    const { params } = context;
    const storage = context.services.storage;
    const perPage = Number(params.per_page);
    const requestedOffset = !this.definition.hierarchical && !isEmptyValue(params.offset)
      ? Number(params.offset)
      : (Number(params.page) - 1) * perPage;
    const query: TermListQuery = {
      include: (params.include as number[] | undefined) ?? [],
      exclude: (params.exclude as number[] | undefined) ?? [],
      slugs: Array.isArray(params.slug) ? params.slug.map(String) : [],
      search: isEmptyValue(params.search) ? '' : String(params.search),
      hideEmpty: params.hide_empty === true,
      orderby: (params.orderby as TermListQuery['orderby'] | undefined) ?? 'name',
      order: params.order === 'desc' ? 'desc' : 'asc',
      offset: Math.abs(requestedOffset),
      number: perPage,
    };
    if (this.definition.hierarchical && isSet(context, 'parent')) query.parent = Number(params.parent);
    if (!isEmptyValue(params.post)) {
      const post = await this.#post(context, Number(params.post));
      const ids = post?.[this.definition.postField];
      query.postTermIds = Array.isArray(ids) ? ids.filter((id): id is number => typeof id === 'number') : [];
    }

    const result = await queryTerms(storage, this.#taxonomy, query);
    const lookup = this.#lookup(context);
    const items = await Promise.all(result.terms.map((term) => this.#item(context, term, lookup)));
    const page = Math.ceil(requestedOffset / perPage + 1);
    return collection(items, paging(result.total, page, perPage));
  }

  async read(context: RequestContext) {
    const term = await this.#term(context);
    return item(await this.#item(context, term, this.#lookup(context)));
  }

  async create(context: RequestContext) {
    const parent = await this.#requestedParent(context);
    const input: TermInput & { name: string } = { name: String(context.params.name ?? ''), ...this.#writableFields(context) };
    if (parent !== undefined) input.parent = parent;
    const term = await insertTerm(context.services.storage, this.#taxonomy, input);
    return created(await this.#item(context, term, this.#lookup(context)), context.url(`/${NAMESPACE}/${this.definition.restBase}/${term.id}`));
  }

  async update(context: RequestContext) {
    const term = await this.#term(context);
    const parent = await this.#requestedParent(context);
    const changes: TermInput = this.#writableFields(context);
    if (isSet(context, 'name')) changes.name = String(context.params.name);
    if (parent !== undefined) changes.parent = parent;
    const updated = await updateTerm(context.services.storage, term, changes);
    return item(await this.#item(context, updated, this.#lookup(context)));
  }

  async remove(context: RequestContext) {
    const term = await this.#term(context);
    if (context.params.force !== true) {
      throw new CmsError('rest_trash_not_supported', "Terms do not support trashing. Set 'force=true' to delete.", 501);
    }
    const previous = await this.#item(context, term, this.#lookup(context));
    if (!(await deleteTerm(context.services.storage, term))) {
      throw new CmsError('rest_cannot_delete', 'The term cannot be deleted.', 500);
    }
    return reply({ deleted: true, previous: previous.data });
  }

  /** `description` and `slug` when sent. */
  #writableFields(context: RequestContext): TermInput {
    const fields: TermInput = {};
    if (isSet(context, 'description')) fields.description = String(context.params.description);
    if (isSet(context, 'slug')) fields.slug = String(context.params.slug);
    return fields;
  }

  /**
   * The parent a write asks for: undefined when none is sent; for tags any parent is an error, for categories a
   * parent other than 0 must be a category.
   */
  async #requestedParent(context: RequestContext): Promise<number | undefined> {
    if (!isSet(context, 'parent')) return undefined;
    if (!this.definition.hierarchical) {
      throw new CmsError('rest_taxonomy_not_hierarchical', 'Cannot set parent term, taxonomy is not hierarchical.', 400);
    }
    const parent = Math.trunc(Number(context.params.parent));
    if (parent !== 0 && !(await getTerm(context.services.storage, this.#taxonomy, parent))) {
      throw new CmsError('rest_term_invalid', 'Parent term does not exist.', 400);
    }
    return parent;
  }

  async #item(context: RequestContext, term: TermRecord, lookup: (id: number) => Promise<TermRecord | null>): Promise<Item> {
    const ancestors = await this.#ancestors(term, lookup);
    const data: Record<string, unknown> = {
      id: term.id,
      count: term.count,
      description: term.description,
      link: this.#publicLink(context, term, ancestors),
      name: term.name,
      slug: term.slug,
      taxonomy: term.taxonomy,
    };
    if (this.definition.hierarchical) data.parent = term.parent;
    data.meta = Object.keys(term.meta).length > 0 ? term.meta : [];

    const base = `/${NAMESPACE}/${this.definition.restBase}`;
    const links: Links = {
      self: [{ href: context.url(`${base}/${term.id}`) }],
      collection: [{ href: context.url(base) }],
      about: [{ href: context.url(`/${NAMESPACE}/taxonomies/${term.taxonomy}`) }],
    };
    if (term.parent > 0 && ancestors[0]?.id === term.parent) {
      links.up = [{ embeddable: true, href: context.url(`${base}/${term.parent}`) }];
    }
    links['https://api.w.org/post_type'] = this.definition.objectTypes.map((type) => ({
      href: context.url(`/${NAMESPACE}/${type === 'post' ? 'posts' : type}`, { [this.definition.restBase]: term.id }),
    }));
    return { data, links };
  }

  /** Parent first, then its parent, and so on (stopping at a missing term or a loop). */
  async #ancestors(term: TermRecord, lookup: (id: number) => Promise<TermRecord | null>): Promise<TermRecord[]> {
    const ancestors: TermRecord[] = [];
    const seen = new Set([term.id]);
    for (let id = term.parent; id > 0 && !seen.has(id); ) {
      seen.add(id);
      const parent = await lookup(id);
      if (!parent) break;
      ancestors.push(parent);
      id = parent.parent;
    }
    return ancestors;
  }

  /** The public archive URL: `{home}/category/{ancestor slugs/}{slug}/`, `{home}/tag/{slug}/`. */
  #publicLink(context: RequestContext, term: TermRecord, ancestors: TermRecord[]): string {
    const home = context.site.home.replace(/\/+$/, '');
    const path = this.definition.hierarchical ? [...ancestors].reverse().map((ancestor) => ancestor.slug).concat(term.slug) : [term.slug];
    return `${home}/${this.definition.archiveBase}/${path.join('/')}/`;
  }
}
