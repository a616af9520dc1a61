/** A stored record → the response fields (every context; the core filters by context and `_fields`) and links. */
import { timingSafeEqual } from 'node:crypto';
import type { CapabilityRules } from '../../auth/index.js';
import type { Item } from '../../core/context.js';
import type { StoragePort } from '../../ports/storage.js';
import { keptFactsOf, type KeptFacts, type StoreWrite } from '../../core/kept-facts.js';
import { blockVersion } from '../render/index.js';
import { getTermsOfAny, idsByName, sortTermIdsByName, TERMS_COLLECTION, type TaxonomyName, type TermRecord } from '../taxonomy/index.js';
import type { Abilities } from './capabilities.js';
import { localToGmt, localToGmtByCurrentOffset } from './dates.js';
import { actionRelations, postLinks, type LinkContext } from './links.js';
import { permalinkOf, samplePermalink, type LinkEnvironment } from './permalink.js';
import type { PostTypeDefinition } from './definition.js';
import type { PostRecord } from './record.js';
import { renderedContentAsync, renderedExcerptAsync, renderedTitle } from './render-cache.js';
import type { ItemSchema } from './schema.js';

export interface PrepareOptions {
  definition: PostTypeDefinition;
  schema: ItemSchema;
  capabilityRules: CapabilityRules;
  storage: StoragePort;
  links: LinkEnvironment;
  site: { timezone: string; gmtOffset: number };
  abilities: Abilities;
  /** The response context (`view`, `embed`, `edit`). */
  context: string;
  /** Whether `_fields` asks for a top-level field. */
  wantsField(field: string): boolean;
  url(path: string, query?: Record<string, unknown>): string;
  /** The `password` a single read was sent. */
  password?: string | undefined;
  /** `excerpt_length` of a single read. */
  excerptLength?: number | undefined;
  /** The terms of every record of the answer, read once per taxonomy (see `termsOfRecords`); else per record. */
  termsOf?: ((taxonomy: TaxonomyName) => Promise<ReadonlyMap<number, TermRecord>>) | undefined;
  /**
   * The revision histories of the answer's records, as its fragments' revisions read them (`revisionSummary`
   * otherwise): the links show the same history the revision was worked out from, read once.
   */
  historyOf?: LinkContext['historyOf'];
}

/**
 * A loader of the terms of all `records` for one answer: the first record prepared reads every record's terms, of
 * every taxonomy of the type, in one query; the others find theirs in it. Nothing is read when no record is
 * prepared (every one came from a view fragment).
 */
export function termsOfRecords(storage: StoragePort, records: readonly PostRecord[], definition: PostTypeDefinition): PrepareOptions['termsOf'] {
  let all: Promise<Map<string, Map<number, TermRecord>>> | null = null;
  // Made on first use: a list whose records' fragments are all kept asks for no terms.
  let loaded: Map<TaxonomyName, Promise<ReadonlyMap<number, TermRecord>>> | null = null;
  return (taxonomy) => {
    loaded ??= new Map();
    let terms = loaded.get(taxonomy);
    if (!terms) {
      all ??= termsByTaxonomy(storage, records, definition);
      terms = all.then((found) => found.get(taxonomy) ?? new Map<number, TermRecord>());
      loaded.set(taxonomy, terms);
    }
    return terms;
  };
}

async function termsByTaxonomy(storage: StoragePort, records: readonly PostRecord[], definition: PostTypeDefinition): Promise<Map<string, Map<number, TermRecord>>> {
  const ids = new Set<number>();
  for (const { restBase } of definition.taxonomies) {
    for (const record of records) {
      for (const id of (record[restBase] as number[] | undefined) ?? []) ids.add(id);
    }
  }
  const byTaxonomy = new Map<string, Map<number, TermRecord>>();
  const wanted = new Set(definition.taxonomies.map(({ taxonomy }) => taxonomy as string));
  for (const term of await keptOrReadTerms(storage, [...ids])) {
    // A record may name a term of another taxonomy; it is not one of its terms.
    if (!wanted.has(term.taxonomy)) continue;
    let terms = byTaxonomy.get(term.taxonomy);
    if (!terms) byTaxonomy.set(term.taxonomy, (terms = new Map()));
    terms.set(term.id, term);
  }
  return byTaxonomy;
}

/** The terms kept across states of the store, by id (null: none has it): one changes only with a write to it. */
const keptTerms = new WeakMap<StoragePort, KeptFacts<number, TermRecord | null>>();

function forgetTerms(write: StoreWrite, terms: Map<number, TermRecord | null>): void {
  if (write.collection === TERMS_COLLECTION) terms.delete(write.id);
}

/** The terms kept for `storage` (null: none is kept), for a check that none was dropped (`KeptFacts.drops`). */
export function keptTermsOf(storage: StoragePort): KeptFacts<number, TermRecord | null> | null {
  return keptFactsOf(keptTerms, storage, forgetTerms);
}

/**
 * Whether `names` are the names of a record's terms `ids` of `taxonomy` as `termsOfRecords` tells them (null for
 * one it does not find), by the terms kept for the store's state `token` only: false when one is not kept.
 */
export function keptTermNamesAre(storage: StoragePort, token: string, taxonomy: string, ids: readonly number[], names: unknown): boolean {
  const known = keptTermsOf(storage)?.at(token);
  if (!known || !Array.isArray(names) || names.length !== ids.length) return false;
  for (let index = 0; index < ids.length; index += 1) {
    const term = known.get(ids[index]!);
    if (term === undefined || names[index] !== (term !== null && term.taxonomy === taxonomy ? term.name : null)) return false;
  }
  return true;
}

/** `getTermsOfAny`, in the same order (by id), from the kept terms and the store. */
async function keptOrReadTerms(storage: StoragePort, ids: number[]): Promise<TermRecord[]> {
  const kept = ids.length === 0 ? null : keptTermsOf(storage);
  if (!kept) return getTermsOfAny(storage, ids);
  const { facts: known, keep } = await kept.current();
  const found: TermRecord[] = [];
  const missing: number[] = [];
  for (const id of ids) {
    const term = known.get(id);
    if (term === undefined) missing.push(id);
    else if (term) found.push(term);
  }
  if (missing.length > 0) {
    const read = new Map((await getTermsOfAny(storage, missing)).map((term) => [term.id, term]));
    for (const id of missing) {
      const term = read.get(id) ?? null;
      keep(id, term);
      if (term) found.push(term);
    }
  }
  return found.sort((a, b) => a.id - b.id);
}

/** A record's term ids ordered by name, from the answer's loader or, without one, from the store. */
async function termIdsOf(options: PrepareOptions, taxonomy: TaxonomyName, ids: readonly number[]): Promise<number[]> {
  if (!options.termsOf) return sortTermIdsByName(options.storage, taxonomy, ids);
  const terms = await options.termsOf(taxonomy);
  return idsByName([...new Set(ids)].flatMap((id) => terms.get(id) ?? []));
}

/** The timing-safe comparison the reference uses for post passwords. */
export function passwordMatches(stored: string, given: string): boolean {
  const expected = Buffer.from(stored, 'utf8');
  const actual = Buffer.from(given, 'utf8');
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

/**
 * Whether protected content may be shown: editors of the post in the edit context, and anyone who sent the
 * right password.
 */
export function canSeeProtectedContent(post: PostRecord, options: Pick<PrepareOptions, 'context' | 'abilities' | 'password'>): boolean {
  if (post.password === '') return true;
  if (options.context === 'edit' && options.abilities.canEdit(post)) return true;
  return options.password !== undefined && options.password !== '' && passwordMatches(post.password, options.password);
}

/** Whether a field of the type's schema is asked for; fields the schema does not have never are. */
function wanted(options: PrepareOptions, field: string): boolean {
  const property = options.schema.properties[field];
  if (!property) return false;
  const contexts = property.context;
  return options.wantsField(field) && (contexts === undefined || contexts.includes(options.context));
}

/** A registered meta value as stored, or its default (`''`) when it is unset or not text. */
function metaValue(post: PostRecord, key: string): string {
  const value = post.meta?.[key];
  return typeof value === 'string' ? value : '';
}

/** The registered meta of the type's schema, less the keys answered at the top level. */
function metaOf(post: PostRecord, options: PrepareOptions): Record<string, unknown> {
  const keys = Object.keys(options.schema.properties.meta?.properties ?? {});
  const topLevel = options.definition.topLevelMeta ?? [];
  return Object.fromEntries(keys.filter((key) => !topLevel.includes(key)).map((key) => [key, metaValue(post, key)]));
}

/** Whether a text field of the schema has a rendered form (reusable blocks answer the raw text only). */
function rendersText(options: PrepareOptions, field: 'title' | 'content'): boolean {
  return options.schema.properties[field]?.properties?.rendered !== undefined;
}

export async function preparePost(post: PostRecord, options: PrepareOptions): Promise<Item> {
  const { definition } = options;
  const want = (field: string) => wanted(options, field);
  const data: Record<string, unknown> = {};
  const visible = canSeeProtectedContent(post, options);

  if (want('id')) data.id = post.id;
  if (want('date')) data.date = post.date;
  if (want('date_gmt')) data.date_gmt = post.date_gmt ?? localToGmt(post.date, options.site);
  if (want('guid')) data.guid = { rendered: post.guid, raw: post.guid };
  if (want('modified')) data.modified = post.modified;
  if (want('modified_gmt')) data.modified_gmt = post.modified_gmt ?? localToGmtByCurrentOffset(post.modified, options.site);
  if (want('password')) data.password = post.password;
  if (want('slug')) data.slug = post.slug;
  if (want('status')) data.status = post.status;
  if (want('type')) data.type = post.type;
  if (want('link')) data.link = await permalinkOf(post, options.links);
  if (want('title')) {
    data.title = rendersText(options, 'title')
      ? { raw: post.title, rendered: renderedTitle(post.title, post.status, post.password !== '') }
      : { raw: post.title };
  }
  if (want('content')) {
    const content: Record<string, unknown> = { raw: post.content };
    if (rendersText(options, 'content')) {
      // Rendered texts are mostly remembered: no promise turn is taken for one at hand.
      const rendered = visible ? renderedContentAsync(post.content) : '';
      content.rendered = rendered instanceof Promise ? await rendered : rendered;
    }
    content.protected = post.password !== '';
    content.block_version = blockVersion(post.content);
    data.content = content;
  }
  if (want('excerpt')) {
    const rendered = visible ? renderedExcerptAsync(post.excerpt, post.content, options.excerptLength) : '';
    data.excerpt = { raw: post.excerpt, rendered: rendered instanceof Promise ? await rendered : rendered, protected: post.password !== '' };
  }
  if (want('author')) data.author = post.author;
  if (want('featured_media')) data.featured_media = post.featured_media;
  if (definition.hierarchical && want('parent')) data.parent = post.parent;
  if (definition.supportsPageAttributes && want('menu_order')) data.menu_order = post.menu_order;
  if (want('comment_status')) data.comment_status = post.comment_status;
  if (want('ping_status')) data.ping_status = post.ping_status;
  if (definition.supportsSticky && want('sticky')) data.sticky = post.sticky === true;
  if (want('template')) data.template = post.template;
  if (definition.supportsFormats && want('format')) data.format = post.format || 'standard';
  if (want('meta')) data.meta = metaOf(post, options);
  for (const taxonomy of definition.taxonomies) {
    if (!want(taxonomy.restBase)) continue;
    const ids = (post[taxonomy.restBase] as number[] | undefined) ?? [];
    data[taxonomy.restBase] = ids.length > 0 ? await termIdsOf(options, taxonomy.taxonomy as TaxonomyName, ids) : [];
  }
  if (want('permalink_template') || want('generated_slug')) {
    const sample = await samplePermalink(post, options.links, definition.hierarchical);
    if (want('permalink_template')) data.permalink_template = sample.template;
    if (want('generated_slug')) data.generated_slug = sample.generatedSlug;
  }
  for (const key of definition.topLevelMeta ?? []) {
    if (options.wantsField(key)) data[key] = metaValue(post, key);
  }

  if (!options.wantsField('_links') && !options.wantsField('_embedded')) return { data };
  const links = await postLinks(post, { definition, schema: options.schema, storage: options.storage, url: options.url, historyOf: options.historyOf });
  if (options.context === 'edit') {
    const self = links.self![0]!.href;
    const relations = actionRelations(definition, options.abilities.user, options.capabilityRules, options.schema);
    for (const relation of relations) links[relation] = [{ href: self }];
  }
  return { data, links };
}
