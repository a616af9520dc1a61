/**
 * Shaping an outcome into the answer's body and headers: context filtering, `_fields`, compacted `_links`,
 * `_embedded` (the outer request only), and the paging headers of collections.
 */
import { listKey } from './cache/fragments.js';
import { fragmentKey, lastingFragmentKey, lastingListKey, type FragmentScope } from './cache/policy.js';
import type { HandlerResult, InternalRequest, InternalResponse, Item, KeyedItem, RequestContext } from './context.js';
import { EncodedJson, joinJsonArray } from './encode.js';
import { encodeLargeJson, entityTagInTurns, isLargeJson, LARGE_JSON_CHARS } from './large-json.js';
import type { JsonSchema } from './args/schema.js';
import type { InternalParent, Outcome } from './outcome.js';
import { parseQueryString } from './query.js';
import { shallowCopy } from './safe-object.js';
import { compactLinks, filterByContext, filterFields, isFieldIncluded, parseList } from './shape.js';

/** Runs a request from inside the dispatcher (embeds use it). */
export type InternalDispatch = (request: InternalRequest, parent: InternalParent) => Promise<InternalResponse>;

/**
 * The body of an outcome; with `embed`, embeddable links are fetched through `dispatch` and added as `_embedded`.
 * Keyed records (`KeyedItem`) are answered from view `fragments` when given and the answer is the records as
 * they are (no `_fields`, no `_embed`): the body is then `EncodedJson`.
 */
export async function render(outcome: Outcome, embed: true | string[] | null, dispatch: InternalDispatch, fragments: FragmentScope | null = null): Promise<unknown> {
  return renderedAtOnce(outcome, embed, fragments) ?? await renderedInTurns(outcome, embed, dispatch, fragments);
}

/**
 * `render` when its answer is at hand without waiting (most reads of keyed records): the record's fragment, or the
 * list joined from fragments, all kept already (a small list joined now). Undefined when only `render` can tell.
 */
export function renderedAtOnce(outcome: Outcome, embed: true | string[] | null, fragments: FragmentScope | null): EncodedJson | undefined {
  const result = outcome.result;
  if (!fragments || embed || outcome.error || !result || (!result.keyedItem && !result.keyedItems)) return undefined;
  const context = outcome.context!;
  if (context.params._fields !== undefined && parseList(context.params._fields).length > 0) return undefined;
  const schema = outcome.route?.schema?.();
  const shownContext = result.context ?? context.context;
  if (result.keyedItem) {
    const key = fragmentKey(fragments, schema, shownContext, result.keyedItem);
    return key === null ? undefined : fragments.cache.get(fragments.generation, key);
  }
  const keyedItems = result.keyedItems!;
  // The list whole, kept under its records' revision together: found without a look at each record.
  const revisionOf = shownContext === 'edit' ? undefined : result.keyedItemsRevisionNow;
  const revision = revisionOf?.(fragments.generation.token, false);
  const wholeKey = typeof revision === 'string' ? lastingListKey(fragments, schema, shownContext, revision) : null;
  const whole = wholeKey === null ? undefined : fragments.cache.getLasting(fragments.generation, wholeKey);
  if (whole !== undefined) return whole;
  const kept = keptParts(keyedItems.map((keyed) => fragmentKey(fragments, schema, shownContext, keyed)), fragments, keyedItems, shownContext);
  if (kept.includes(undefined)) return undefined;
  const list = keptList(kept as EncodedJson[], fragments) ?? joinedAtOnce(kept as EncodedJson[], fragments);
  if (list !== undefined) keepWhole(list, revisionOf, fragments, schema, shownContext);
  return list;
}

/**
 * Keeps a list joined from fragments kept by revision under its records' revision together, when it can be told
 * (each record's was, to find its fragment), so that the next answers find it whole. Called in the store's state
 * of the answer's generation (checked by the caller when it waited).
 */
function keepWhole(
  list: EncodedJson, revisionOf: HandlerResult['keyedItemsRevisionNow'], scope: FragmentScope, schema: JsonSchema | undefined, context: string,
): void {
  if (!revisionOf || !scope.keep() || !scope.cache.isLasting(list)) return;
  const revision = revisionOf(scope.generation.token, true);
  const key = typeof revision === 'string' ? lastingListKey(scope, schema, context, revision) : null;
  if (key !== null) scope.cache.setLasting(scope.generation, key, list);
}

/** `render` once `renderedAtOnce` has answered undefined. */
export async function renderedInTurns(outcome: Outcome, embed: true | string[] | null, dispatch: InternalDispatch, fragments: FragmentScope | null): Promise<unknown> {
  if (outcome.error) return outcome.error.toBody();
  const result = outcome.result!;
  const context = outcome.context!;
  const schema = outcome.route?.schema?.();
  const fieldsParam = context.params._fields;
  const fields = fieldsParam === undefined ? NO_FIELDS : parseList(fieldsParam);
  // The handler may name the context its records are shown in (writes answer in `edit`).
  const shownContext = result.context ?? context.context;
  if (fragments && fields.length === 0 && !embed && (result.keyedItem || result.keyedItems)) {
    if (result.keyedItem) return await fragmentOf(result.keyedItem, fragments, fragmentKey(fragments, schema, shownContext, result.keyedItem), shownContext, schema);
    const keyedItems = result.keyedItems!;
    const keys = keyedItems.map((keyed) => fragmentKey(fragments, schema, shownContext, keyed));
    const kept = keptParts(keys, fragments, keyedItems, shownContext);
    if (!kept.includes(undefined)) return keptList(kept as EncodedJson[], fragments) ?? await joined(kept as EncodedJson[], fragments);
    // Only the records not kept are prepared (a write to one listed post leaves the others' fragments found at once).
    const list = await joined(await Promise.all(keyedItems.map((keyed, index) => kept[index] ?? fragmentOf(keyed, fragments, keys[index]!, shownContext, schema))), fragments);
    const revisionOf = shownContext === 'edit' ? undefined : result.keyedItemsRevisionNow;
    if (revisionOf && fragments.cache.isLasting(list) && await fragments.unchanged()) keepWhole(list, revisionOf, fragments, schema, shownContext);
    return list;
  }
  const shapeData = (record: Item) => shapedData(record, schema, shownContext);
  const shown = (record: Item) => shownRecord(record, schema, shownContext);
  const embedder = embed ? new Embedder(embed, context, dispatch) : null;

  const records = result.items ?? (result.keyedItems ? await Promise.all(result.keyedItems.map((keyed) => keyed.prepare())) : undefined);
  if (records) {
    const filtered = filterFields(records.map(shown), fields) as unknown[];
    return embedder ? Promise.all(filtered.map((data) => embedder.embedLinks(data))) : filtered;
  }
  const record = result.item ?? (result.keyedItem ? await result.keyedItem.prepare() : undefined);
  if (record) {
    const data = filterFields(shapeData(record), fields);
    const wantsLinks = result.linksAlways || fields.length === 0 || isFieldIncluded('_links', fields) || isFieldIncluded('_embedded', fields);
    const links = wantsLinks ? compactLinks(record.links) : null;
    if (!links) return data;
    const withLinks = Array.isArray(data) ? {} : shallowCopy(data as object);
    withLinks._links = links;
    return embedder ? embedder.embedLinks(withLinks) : withLinks;
  }
  // As the reference: `_fields` never filters an error answer, whoever wrote it.
  return outcome.status >= 400 ? result.body : filterFields(result.body, fields);
}

const encoder = new TextEncoder();

/** No `_fields` sent: shared, never changed. */
const NO_FIELDS: readonly string[] = Object.freeze([]);

function shapedData(record: Item, schema: JsonSchema | undefined, context: string): Record<string, unknown> {
  return (schema ? filterByContext(record.data, schema, context) : record.data) as Record<string, unknown>;
}

/** A record as a list or a fragment shows it: context-filtered, links compacted. */
function shownRecord(record: Item, schema: JsonSchema | undefined, context: string): Record<string, unknown> {
  const shaped = shapedData(record, schema, context);
  // Filtering by context makes a new object already; the record's own data is copied before links are added.
  const data = shaped === record.data ? shallowCopy(shaped) : shaped;
  const links = compactLinks(record.links);
  if (links) data._links = links;
  return data;
}

/**
 * A record's fragment: kept, or prepared, shaped and encoded now (and kept while the answer may be, under a key:
 * none when the caller it depends on cannot be told apart).
 */
async function fragmentOf(
  keyed: KeyedItem, scope: FragmentScope, key: string | null, context: string, schema: JsonSchema | undefined,
): Promise<EncodedJson> {
  if (key === null) return encodedNow(keyed, schema, context);
  const { cache, generation } = scope;
  const kept = cache.get(generation, key);
  if (kept) return kept;
  const revision = keyed.revision && context !== 'edit' ? await keyed.revision() : null;
  const lastingKey = revision === null ? null : lastingFragmentKey(scope, key, context, revision);
  const lasting = lastingKey === null ? undefined : cache.getLasting(generation, lastingKey);
  const fragment = lasting ?? await encodedNow(keyed, schema, context);
  if (!scope.keep()) return fragment;
  cache.set(generation, key, fragment);
  // Kept by revision only when no write landed meanwhile: the revision and the fragment then show one state.
  if (lastingKey !== null && !lasting && await scope.unchanged()) cache.setLasting(generation, lastingKey, fragment);
  return fragment;
}

async function encodedNow(keyed: KeyedItem, schema: JsonSchema | undefined, context: string): Promise<EncodedJson> {
  const data = shownRecord(await keyed.prepare(), schema, context);
  // Small values (almost all) are encoded in one call, without a promise turn.
  return (isLargeJson(data) ? await encodeLargeJson(data) : null) ?? new EncodedJson(encoder.encode(JSON.stringify(data)));
}

/**
 * The fragments under these keys found without preparing a record or waiting for a promise (undefined for the
 * others): kept for this generation, or under a revision its record tells without waiting (`revisionNow`).
 */
function keptParts(keys: readonly (string | null)[], scope: FragmentScope, keyedItems: readonly KeyedItem[], context: string): (EncodedJson | undefined)[] {
  const { cache, generation } = scope;
  const parts: (EncodedJson | undefined)[] = [];
  for (let index = 0; index < keys.length; index += 1) {
    const key = keys[index]!;
    parts.push(key === null ? undefined : cache.get(generation, key) ?? keptLasting(keyedItems[index]!, key, scope, context));
  }
  return parts;
}

function keptLasting(keyed: KeyedItem, key: string, scope: FragmentScope, context: string): EncodedJson | undefined {
  const revision = context === 'edit' ? null : keyed.revisionNow?.(scope.generation.token);
  const lastingKey = revision ? lastingFragmentKey(scope, key, context, revision) : null;
  const kept = lastingKey === null ? undefined : scope.cache.getLasting(scope.generation, lastingKey);
  if (kept !== undefined && scope.keep()) scope.cache.set(scope.generation, key, kept);
  return kept;
}

/** The JSON array of these fragments, when kept. */
function keptList(parts: readonly EncodedJson[], scope: FragmentScope): EncodedJson | undefined {
  const { cache, generation } = scope;
  const key = listKey(parts);
  return cache.get(generation, key) ?? (parts.every((part) => cache.isLasting(part)) ? cache.getLasting(generation, key) : undefined);
}

/**
 * The JSON array of these fragments: kept, or joined now (and tagged in turns when large). A list of fragments
 * that all outlive generations is kept across them too (the first read after a write to another record finds it).
 */
async function joined(parts: EncodedJson[], scope: FragmentScope): Promise<EncodedJson> {
  const { cache, generation } = scope;
  const key = listKey(parts);
  const lasting = parts.every((part) => cache.isLasting(part));
  const kept = cache.get(generation, key) ?? (lasting ? cache.getLasting(generation, key) : undefined);
  if (kept) return kept;
  const list = new EncodedJson(joinJsonArray(parts.map((part) => part.bytes)));
  if (list.bytes.byteLength >= LARGE_JSON_CHARS) list.etag = await entityTagInTurns(list.bytes);
  return keptJoined(list, key, lasting, scope);
}

/** `joined` for a list of kept fragments that is not kept itself: at once when small, undefined when large. */
function joinedAtOnce(parts: EncodedJson[], scope: FragmentScope): EncodedJson | undefined {
  // The length `joinJsonArray` gives: brackets and commas around the parts.
  let length = 1 + Math.max(1, parts.length);
  for (const part of parts) length += part.bytes.byteLength;
  if (length >= LARGE_JSON_CHARS) return undefined;
  const lasting = parts.every((part) => scope.cache.isLasting(part));
  return keptJoined(new EncodedJson(joinJsonArray(parts.map((part) => part.bytes))), listKey(parts), lasting, scope);
}

function keptJoined(list: EncodedJson, key: string, lasting: boolean, scope: FragmentScope): EncodedJson {
  if (scope.keep()) {
    scope.cache.set(scope.generation, key, list);
    if (lasting) scope.cache.setLasting(scope.generation, key, list);
  }
  return list;
}

/** Fetches the targets of embeddable links as the same user, each address once per answer. */
class Embedder {
  readonly #fetched = new Map<string, Promise<unknown>>();

  constructor(readonly rels: true | string[], readonly context: RequestContext, readonly dispatch: InternalDispatch) {}

  async embedLinks(data: unknown): Promise<unknown> {
    if (data === null || typeof data !== 'object' || Array.isArray(data)) return data;
    const record = data as Record<string, unknown>;
    const links = record._links as Record<string, { href: string; embeddable?: boolean }[]> | undefined;
    if (!links) return data;
    const embedded: Record<string, unknown[]> = {};
    for (const [rel, targets] of Object.entries(links)) {
      if (Array.isArray(this.rels) && !this.rels.includes(rel)) continue;
      const entries: unknown[] = [];
      for (const target of targets) entries.push(target.embeddable ? await this.#fetch(target.href) : []);
      if (entries.some((entry) => !isEmptyAnswer(entry))) embedded[rel] = entries;
    }
    return Object.keys(embedded).length > 0 ? { ...record, _embedded: embedded } : data;
  }

  #fetch(href: string): Promise<unknown> {
    let pending = this.#fetched.get(href);
    if (!pending) {
      pending = this.#lookup(href);
      this.#fetched.set(href, pending);
    }
    return pending;
  }

  async #lookup(href: string): Promise<unknown> {
    const { site, user } = this.context;
    if (!href.startsWith(site.apiUrl)) return [];
    const [path, search] = splitPath(href.slice(site.apiUrl.length));
    if (path === '') return [];
    const query = parseQueryString(search);
    if (!query.context) query.context = 'embed';
    const response = await this.dispatch({ method: 'GET', path, query }, { user, site, origin: 'embed' });
    return response.body;
  }
}

export function splitPath(pathWithQuery: string): [string, string] {
  const mark = pathWithQuery.indexOf('?');
  return mark === -1 ? [pathWithQuery, ''] : [pathWithQuery.slice(0, mark), pathWithQuery.slice(mark + 1)];
}

/** An embedded answer with nothing in it (not PHP's `empty()`: the string "0" counts as content here). */
function isEmptyAnswer(value: unknown): boolean {
  if (value === null || value === undefined || value === false || value === 0 || value === '') return true;
  if (Array.isArray(value)) return value.length === 0;
  if (typeof value === 'object') return Object.keys(value).length === 0;
  return false;
}
