/**
 * The handlers of a post type's collection and item routes: list, read, create, update, delete. They run on
 * up-to-date records: the route table stores the due scheduled posts first (`publishingDuePosts`).
 */
import type { Params } from '../../core/args/define.js';
import type { AnyParams, Item, KeyedItem, Paging, RequestContext } from '../../core/context.js';
import { CmsError } from '../../core/errors.js';
import { created, item, keyedCollection, keyedItem, reply } from '../../core/response.js';
import { paging } from '../../core/paging.js';
import { filterByContext } from '../../core/shape.js';
import type { StoragePort } from '../../ports/storage.js';
import type { collectionArgs, ItemArgs } from './args.js';
import { isViewable, type PostType } from './define.js';
import type { PostTypeDefinition } from './definition.js';
import { fragmentRevision, fragmentRevisionNow, keptRevisionSummary, listRevisionNow, revisionHistories, type RevisionSources } from './fragment-revision.js';
import { revisionSummary } from './links.js';
import { permalinkOf, type LinkEnvironment } from './permalink.js';
import { onlyVisible, requirePost } from './permissions.js';
import { preparePost, termsOfRecords, type PrepareOptions } from './prepare.js';
import { buildListPlan, keepListPlan, keptListPlan, type ListPlan } from './query.js';
import { postsIn, type PostRecord } from './record.js';
import { deletePost, savePost, trashPost } from './save.js';
import { scopeOf, type PostScope } from './scope.js';
import { uniquePostSlug } from './unique-slug.js';
import { listVisibility } from './visibility.js';
import { prepareChanges, type PostChanges } from './write.js';
import { isEmpty } from '../../format/php.js';

const SLUG_CHECKED_AS_PUBLISHED = new Set(['draft', 'pending']);

/** The order checks every post-type list makes before querying. */
export function checkListOrder(params: Readonly<Record<string, unknown>>): void {
  if (params.orderby === 'relevance' && isEmpty(params.search)) {
    throw new CmsError('rest_no_search_term_defined', 'You need to define a search term to order by relevance.', 400);
  }
  if (params.orderby === 'include' && isEmpty(params.include)) {
    throw new CmsError('rest_orderby_include_missing_include', 'You need to define an include parameter to order by include.', 400);
  }
}

/**
 * Sticky posts first: those on the page move to the front in page order, then the other published sticky
 * posts of the type follow, newest first (whatever the other filters say, as in the reference).
 */
async function withStickyFirst(records: PostRecord[], plan: ListPlan, type: string, storage: StoragePort): Promise<PostRecord[]> {
  const onPage = records.filter((record) => record.sticky === true);
  const others = records.filter((record) => record.sticky !== true);
  const skip = [...records.map((record) => record.id), ...plan.excludedIds];
  const { items } = await postsIn(storage).list({
    where: [
      { field: 'type', op: 'eq', value: type },
      { field: 'status', op: 'eq', value: 'publish' },
      { field: 'sticky', op: 'eq', value: true },
      { field: 'id', op: 'notIn', values: skip },
    ],
    orderBy: [{ field: 'date', direction: 'desc' }],
  });
  return [...onPage, ...items, ...others];
}

/**
 * A record as the core may keep it shaped (`KeyedItem`): its fragment depends on the record (the store's state,
 * which the core follows) and its status as read (a scheduled post falls due by the clock); its revision
 * (fragment-revision.ts) lets the fragment outlive writes to other records.
 */
class KeyedPost implements KeyedItem {
  readonly identity: readonly (string | number)[];

  constructor(private readonly record: PostRecord, private readonly sources: AnswerSources) {
    this.identity = [record.type, record.id, record.status];
  }

  prepare(): Promise<Item> {
    return preparePost(this.record, this.sources.options);
  }

  revision(): Promise<string | null> {
    return fragmentRevision(this.record, this.sources);
  }

  revisionNow(token: string): string | null | undefined {
    return fragmentRevisionNow(this.record, this.sources, token);
  }
}

/**
 * What the records of one answer are prepared and revised with, shared by them and made on first use: when every
 * record's fragment is kept (most reads), none of it is.
 */
class AnswerSources implements RevisionSources {
  readonly storage: StoragePort;
  readonly definition: PostTypeDefinition;
  readonly links: LinkEnvironment;
  told: RevisionSources['told'] = undefined;
  #termsOf: RevisionSources['termsOf'] | null = null;
  #historyOf: RevisionSources['historyOf'] | null = null;
  #options: PrepareOptions | null = null;

  /** `records`: a list's (their histories read together) or a single read's (its own read alone). */
  constructor(
    readonly scope: PostScope, readonly contextName: string, readonly records: readonly PostRecord[], readonly isList: boolean,
    readonly extra: ReadExtra = {},
  ) {
    this.storage = scope.storage;
    this.definition = scope.postType.definition;
    this.links = scope.links;
  }

  get termsOf(): RevisionSources['termsOf'] {
    return this.#termsOf ??= termsOfRecords(this.storage, this.records, this.definition)!;
  }

  get historyOf(): RevisionSources['historyOf'] {
    return this.#historyOf ??= this.isList ? revisionHistories(this.storage, this.records) : onceEach((id) => revisionSummary(this.storage, id));
  }

  get options(): PrepareOptions {
    return this.#options ??= this.scope.prepareOptions(this.contextName, { ...this.extra, termsOf: this.termsOf, historyOf: this.historyOf });
  }
}

type ReadExtra = Pick<PrepareOptions, 'password' | 'excerptLength'>;

/** `read`, asked once per id for one answer (its revision and its links read the same history). */
function onceEach<T>(read: (id: number) => Promise<T>): (id: number) => Promise<T> {
  const asked = new Map<number, Promise<T>>();
  return (id) => {
    let answer = asked.get(id);
    if (!answer) asked.set(id, (answer = read(id)));
    return answer;
  };
}

/**
 * `GET /cms/v2/{posts|pages}`: the filtered, ordered, paged collection. Not an async function: one holding all of
 * this across its waits costs more than the few steps chained on the store's answer.
 */
export function listPosts(context: RequestContext<Params<typeof collectionArgs>>, postType: PostType): Promise<unknown> {
  try {
    checkListOrder(context.params);
    const scope = scopeOf(context, postType);
    const plan = listPlanOf(context, postType, scope);
    if (plan instanceof Promise) return plan.then((planned) => listed(context, scope, planned));
    return listed(context, scope, plan);
  } catch (error) {
    return Promise.reject(error);
  }
}

/** The list's plan: kept for an anonymous caller's parameters, or made now. */
function listPlanOf(context: RequestContext<Params<typeof collectionArgs>>, postType: PostType, scope: PostScope): ListPlan | Promise<ListPlan> {
  const anonymous = context.user === null;
  const kept = anonymous ? keptListPlan(context.paramsKey, context.site) : undefined;
  if (kept !== undefined) return kept;
  const planned = buildListPlan(postType.definition, context.params, {
    storage: scope.storage, site: context.site, user: context.user, visibility: listVisibility(context, scope),
  });
  if (planned instanceof Promise) return planned.then(sharingRecords);
  return anonymous && context.paramsKey !== null ? keepListPlan(context.paramsKey, context.site, planned) : sharingRecords(planned);
}

/**
 * The records are only read (visibility, terms, preparing and revisions make answers of their own): a store may
 * share its own instead of copying each out. Set on the plan's own query: a spread copy with one more member costs
 * more than the rest of the list's planning.
 */
function sharingRecords(plan: ListPlan): ListPlan {
  plan.query.shared = true;
  return plan;
}

function listed(context: RequestContext, scope: PostScope, plan: ListPlan): Promise<unknown> {
  return postsIn(scope.storage).list(plan.query).then((result) => {
    const pages = paging(result.total ?? result.items.length, plan.page, plan.perPage, { pastTheEnd: 'rest_post_invalid_page_number' });
    if (!plan.stickyFirst) return visibleAnswer(result.items, pages, context, scope, plan);
    return withStickyFirst(result.items, plan, scope.postType.definition.type, scope.storage).then((records) => visibleAnswer(records, pages, context, scope, plan));
  });
}

function visibleAnswer(records: PostRecord[], pages: Paging, context: RequestContext, scope: PostScope, plan: ListPlan): unknown {
  const checked = onlyVisible(records, scope, context);
  if (checked instanceof Promise) return checked.then((visible) => keyedAnswer(visible, pages, context, scope, plan));
  return keyedAnswer(checked, pages, context, scope, plan);
}

function keyedAnswer(visible: readonly PostRecord[], pages: Paging, context: RequestContext, scope: PostScope, plan: ListPlan): unknown {
  const sources = new AnswerSources(scope, context.context, visible, true);
  const keyed: KeyedPost[] = new Array(visible.length);
  for (let at = 0; at < visible.length; at++) keyed[at] = new KeyedPost(visible[at]!, sources);
  const result = keyedCollection(keyed, pages);
  // A kept plan (an anonymous caller's) stands for the list: the same object from one answer to the next.
  if (keptListPlan(context.paramsKey, context.site) === plan) {
    sources.told = null;
    result.keyedItemsRevisionNow = (token, work) => listRevisionNow(plan, visible, sources, token, work);
  }
  return result;
}

/** What reading a record takes besides its id; the route declares them (`password`, `excerpt_length`). */
type ReadParams = AnyParams & { readonly password?: string; readonly excerpt_length?: number };

export async function readPost(context: RequestContext<ReadParams>, postType: PostType): Promise<unknown> {
  const post = await requirePost(context, postType);
  const scope = scopeOf(context, postType);
  const { password, excerpt_length: excerptLength } = context.params;
  const init = isViewable(postType) ? { headers: { Link: `<${await permalinkOf(post, scope.links)}>; rel="alternate"; type=text/html` } } : {};
  // A password or an excerpt length shapes this answer alone: it is prepared for it and not kept.
  if (password === undefined && excerptLength === undefined) return keyedItem(new KeyedPost(post, new AnswerSources(scope, context.context, [post], false)), init);
  const sources = new AnswerSources(scope, context.context, [post], false, { password, excerptLength });
  return item(await preparePost(post, sources.options), init);
}

/** An explicit slug on a draft or pending record is made unique as if the record were published. */
async function slugAsPublished(scope: PostScope, changes: PostChanges, status: string | undefined, id: number, parent: number): Promise<void> {
  if (!changes.slug || status === undefined || !SLUG_CHECKED_AS_PUBLISHED.has(status)) return;
  const { definition } = scope.postType;
  changes.slug = await uniquePostSlug(scope.storage, changes.slug, {
    id, status: 'publish', type: definition.type, parent, hierarchical: definition.hierarchical,
  }, scope.settings.permalinkStructure);
}

/**
 * Writes answer in the edit context, whatever context the request named. The record's terms and revision history
 * are taken from those kept across states of the store (none a write since could have changed) when they are;
 * terms read are kept as a list's are, a history is not (`keptRevisionSummary`).
 */
function editResponse(scope: PostScope, post: PostRecord) {
  const { storage } = scope;
  return preparePost(post, scope.prepareOptions('edit', {
    termsOf: termsOfRecords(storage, [post], scope.postType.definition), historyOf: (id) => keptRevisionSummary(storage, id),
  }));
}

const EDIT = { context: 'edit' } as const;

export async function createPost(context: RequestContext<Params<ItemArgs>>, postType: PostType): Promise<unknown> {
  const scope = scopeOf(context, postType);
  const changes = await prepareChanges(context, null, scope.writeEnvironment());
  await slugAsPublished(scope, changes, changes.status, 0, changes.parent ?? 0);
  const saved = await scope.storage.transaction((tx) => savePost(null, changes, scope.saveEnvironment(tx), 'create'));
  const prepared = await editResponse(scope, saved);
  return created(prepared, context.url(`/cms/v2/${postType.definition.restBase}/${saved.id}`), EDIT);
}

export async function updatePost(context: RequestContext<Params<ItemArgs>>, postType: PostType): Promise<unknown> {
  const existing = await requirePost(context, postType);
  const scope = scopeOf(context, postType);
  const changes = await prepareChanges(context, existing, scope.writeEnvironment());
  await slugAsPublished(scope, changes, changes.status ?? existing.status, existing.id, changes.parent ?? 0);
  const saved = await scope.storage.transaction(async (tx) => {
    const current = await postsIn(tx).get(existing.id);
    if (!current) throw new CmsError('rest_post_invalid_id', 'Invalid post ID.', 404);
    return savePost(current, changes, scope.saveEnvironment(tx), 'update');
  });
  return item(await editResponse(scope, saved), EDIT);
}

export async function removePost(context: RequestContext, postType: PostType): Promise<unknown> {
  const post = await requirePost(context, postType);
  const scope = scopeOf(context, postType);
  if (!scope.abilities.canDelete(post)) {
    throw new CmsError('rest_user_cannot_delete_post', 'Sorry, you are not allowed to delete this post.', context.user ? 403 : 401);
  }
  if (context.params.force === true) {
    const previous = await editResponse(scope, post);
    await scope.storage.transaction((tx) => deletePost(post, scope.saveEnvironment(tx)));
    return reply({ deleted: true, previous: filterByContext(previous.data, postType.schema, 'edit') });
  }
  if (!scope.settings.trash) {
    throw new CmsError('rest_trash_not_supported', "The post does not support trashing. Set 'force=true' to delete.", 501);
  }
  if (post.status === 'trash') throw new CmsError('rest_already_trashed', 'The post has already been deleted.', 410);
  const trashed = await scope.storage.transaction(async (tx) => {
    const current = await postsIn(tx).get(post.id);
    return trashPost(current ?? post, scope.saveEnvironment(tx));
  });
  return item(await editResponse(scope, trashed), EDIT);
}
