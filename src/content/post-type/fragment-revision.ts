/**
 * The revision of a post-type record as its view fragment shows it (`KeyedItem.revision`): the stored record
 * whole (its digest), its revision history as its links show it (count, newest), and the names its term ids are
 * ordered by. Records whose fragment draws on more of other records (a parent's slug or type, the featured
 * media's type, a category or author in the permalink) name none, and their fragments live for one state of the
 * store.
 */
import * as crypto from 'node:crypto';
import { isLargeJson, jsonDigestInTurns } from '../../core/large-json.js';
import type { StoragePort } from '../../ports/storage.js';
import { keptFactsOf, type KeptFacts, type StoreWrite } from '../../core/kept-facts.js';
import type { TaxonomyName } from '../taxonomy/index.js';
import type { PostTypeDefinition } from './definition.js';
import { revisionSummary } from './links.js';
import type { LinkEnvironment } from './permalink.js';
import { keptTermNamesAre, keptTermsOf, type PrepareOptions } from './prepare.js';
import { POSTS_COLLECTION, postsIn, type PostRecord } from './record.js';

export interface RevisionSources {
  storage: StoragePort;
  definition: PostTypeDefinition;
  links: LinkEnvironment;
  /** The answer's term loader, the one its records are prepared with. */
  termsOf: NonNullable<PrepareOptions['termsOf']>;
  /** The answer's revision histories (`revisionHistories`). */
  historyOf: (id: number) => Promise<Summary>;
  /**
   * Where the records' revisions told without waiting are noted, for the state `token` they were told for, when
   * the answer's records are told together too (`listRevisionNow`): null until the first is; undefined, none is.
   */
  told?: { token: string; revisions: Map<object, SharedRevision> } | null;
}

type Summary = Awaited<ReturnType<typeof revisionSummary>>;

/**
 * Most revisions read at once for an answer's records, on average per record and in all: every revision read is a
 * whole record out of the store, content and all, for a count and an id.
 */
const BATCH_REVISIONS_PER_RECORD = 2;
const BATCH_REVISIONS = 200;
/** Most batches tried before the records left are read each on its own. */
const BATCH_TRIES = 3;
/** Most records remembered, per store, as having had too many revisions to batch. */
const CROWDED_REMEMBERED = 1_000;

/**
 * The records, per store, whose revisions last filled a batch: the next answer reads their histories on their own
 * at once, sparing the batch they would fill again. Only which query to make is remembered, never what it read.
 */
const crowdedOf = new WeakMap<StoragePort, Set<number>>();

/**
 * A loader of the revision histories of an answer's records, as `revisionSummary` tells them, read on first use:
 * the revisions of all records in one query (newest first, as it orders them) when there are few enough. When
 * there are more, the records whose revisions came first (the ones with many recent revisions, most likely) are
 * read each on its own and the others tried again together, a few times at most, then each on its own; such
 * records are read on their own from the start the next time (`crowdedOf`).
 */
export function revisionHistories(storage: StoragePort, records: readonly Pick<PostRecord, 'id'>[]): (id: number) => Promise<Summary> {
  let loaded: Promise<Map<number, Summary>> | null = null;
  return async (id) => (await (loaded ??= keptOrRead(storage, [...new Set(records.map((record) => record.id))]))).get(id) ?? revisionSummary(storage, id);
}

/** The histories kept across states of the store: a post's changes only with a write to one of its revisions. */
const keptHistories = new WeakMap<StoragePort, KeptFacts<number, Summary>>();

function forgetHistories(write: StoreWrite, histories: Map<number, Summary>): void {
  if (write.collection !== POSTS_COLLECTION) return;
  if (write.before?.type === 'revision') histories.delete(write.before.parent as number);
  if (write.after?.type === 'revision') histories.delete(write.after.parent as number);
}

/** The histories kept for `storage` (null: none is kept), for a check that none was dropped (`KeptFacts.drops`). */
export function keptHistoriesOf(storage: StoragePort): KeptFacts<number, Summary> | null {
  return keptFactsOf(keptHistories, storage, forgetHistories);
}

/**
 * A record's history as `revisionSummary` tells it: kept, or read without keeping it. For answers outside lists
 * (a write's): a history kept is dropped with the next write to one of its revisions, and every drop makes each
 * list's revision be worked out record by record again, so a list keeps only its own records' histories.
 */
export async function keptRevisionSummary(storage: StoragePort, id: number): Promise<Summary> {
  const kept = keptHistoriesOf(storage);
  if (kept === null) return revisionSummary(storage, id);
  const { facts, note } = await kept.current();
  const known = facts.get(id);
  if (known) return known;
  // Noted, not kept: the first list read in this very state takes it over (the write's record is likely listed).
  const summary = await revisionSummary(storage, id);
  note(id, summary);
  return summary;
}

/** The histories kept for the store's state `token`, without reading any (null: none is kept). */
function keptHistoriesAt(storage: StoragePort, token: string): ReadonlyMap<number, Summary> | null {
  return keptHistoriesOf(storage)?.at(token) ?? null;
}

/** The histories of `ids`: those kept, and the others read (`summariesOf`) and kept. */
async function keptOrRead(storage: StoragePort, ids: number[]): Promise<Map<number, Summary>> {
  const kept = keptHistoriesOf(storage);
  if (!kept) return summariesOf(storage, ids);
  const { facts: known, keep, noted } = await kept.current();
  const summaries = new Map<number, Summary>();
  const missing: number[] = [];
  for (const id of ids) {
    let summary = known.get(id);
    if (summary === undefined && (summary = noted(id)) !== undefined) keep(id, summary);
    if (summary) summaries.set(id, summary);
    else missing.push(id);
  }
  if (missing.length === 0) return summaries;
  for (const [id, summary] of await summariesOf(storage, missing)) {
    summaries.set(id, summary);
    keep(id, summary);
  }
  return summaries;
}

async function summariesOf(storage: StoragePort, ids: number[]): Promise<Map<number, Summary>> {
  const summaries = new Map<number, Summary>();
  let remembered = crowdedOf.get(storage);
  if (!remembered) crowdedOf.set(storage, (remembered = new Set()));
  let left = ids;
  if (ids.length > 1) {
    for (const id of ids) {
      if (!remembered.has(id)) continue;
      const summary = await revisionSummary(storage, id);
      summaries.set(id, summary);
      if (summary.count <= BATCH_REVISIONS_PER_RECORD) remembered.delete(id);
    }
    if (summaries.size > 0) left = ids.filter((id) => !summaries.has(id));
  }
  for (let tries = 0; tries < BATCH_TRIES && left.length > 1; tries += 1) {
    const { items, total } = await postsIn(storage).list({
      where: [{ field: 'parent', op: 'in', values: left }, { field: 'type', op: 'eq', value: 'revision' }],
      orderBy: [{ field: 'date', direction: 'desc' }],
      limit: Math.min(BATCH_REVISIONS, left.length * BATCH_REVISIONS_PER_RECORD),
      withTotal: true,
      // Only the parent and id of each are read.
      shared: true,
    });
    if ((total ?? Infinity) <= items.length) {
      for (const id of left) summaries.set(id, { count: 0, latestId: null });
      for (const revision of items) {
        const summary = summaries.get(revision.parent)!;
        if (summary.latestId === null) summary.latestId = revision.id;
        summary.count += 1;
      }
      return summaries;
    }
    const crowded = new Set(items.map((revision) => revision.parent));
    if (remembered.size + crowded.size > CROWDED_REMEMBERED) remembered.clear();
    for (const parent of crowded) {
      summaries.set(parent, await revisionSummary(storage, parent));
      remembered.add(parent);
    }
    left = left.filter((id) => !crowded.has(id));
  }
  for (const id of left) summaries.set(id, await revisionSummary(storage, id));
  return summaries;
}

/** Whether a record's fragment draws on more of other records than its revision can name. */
function drawsOnOthers(record: PostRecord, { definition, links }: RevisionSources): boolean {
  return (definition.hierarchical && record.parent > 0) || record.featured_media > 0
    || links.permalinkStructure.includes('%category%') || links.permalinkStructure.includes('%author%');
}

/**
 * The revision `fragmentRevision` gives, told without waiting when the facts it draws on are kept for the
 * store's state `token` and the record's last revision was worked out from the same (the first read after a
 * write to another record); undefined when only `fragmentRevision` can tell.
 */
export function fragmentRevisionNow(record: PostRecord, sources: RevisionSources, token: string): string | null | undefined {
  const last = lastRevisionNow(record, sources, token);
  if (!last) return last;
  if (sources.told !== undefined) {
    let { told } = sources;
    if (told === null || told.token !== token) sources.told = told = { token, revisions: new Map() };
    told.revisions.set(record, last);
  }
  return last.revision;
}

/** `fragmentRevisionNow`, as the record's last revision whole (`sharedRevisions`). */
function lastRevisionNow(record: PostRecord, sources: RevisionSources, token: string): SharedRevision | null | undefined {
  if (drawsOnOthers(record, sources)) return null;
  const last = sharedRevisions.get(record);
  if (!last) return undefined;
  // Compared part by part with what the last revision was worked out from (`drawnOn` below), building nothing.
  const { drawnOn } = last;
  const { definition, storage } = sources;
  const history = keptHistoriesAt(storage, token)?.get(record.id);
  if (!history || drawnOn[0] !== definition || drawnOn[1] !== history.count || drawnOn[2] !== history.latestId) return undefined;
  let index = 3;
  for (const taxonomy of definition.taxonomies) {
    const ids = (record[taxonomy.restBase] as number[] | undefined) ?? [];
    if (ids.length === 0) continue;
    if (drawnOn[index] !== taxonomy.taxonomy || !keptTermNamesAre(storage, token, taxonomy.taxonomy, ids, drawnOn[index + 1])) return undefined;
    index += 2;
  }
  return index === drawnOn.length ? last : undefined;
}

/**
 * The revision of a list's records together (`HandlerResult.keyedItemsRevisionNow`): the numbers of their last
 * revisions (`SharedRevision.serial`), in order; each stands for one record and what its revision was worked out
 * from. Kept per list (`list`: its plan) with what it was told from, so that after a write that changed none of it
 * (the same records, as the store shares them until written, and no kept history or term dropped since) it is told
 * again without a look at each record's. With `work`, when not kept, it is worked out from each record's
 * (`fragmentRevisionNow`, or as told already for this answer: `RevisionSources.told`) and kept.
 */
export function listRevisionNow(list: object, records: readonly PostRecord[], sources: RevisionSources, token: string, work: boolean): string | undefined {
  const { storage } = sources;
  const histories = keptHistoriesOf(storage);
  const terms = keptTermsOf(storage);
  if (histories === null || terms === null) return undefined;
  histories.at(token);
  terms.at(token);
  const permalinks = sources.links.permalinkStructure;
  const last = listRevisions.get(list);
  if (last !== undefined && last.histories === histories.drops && last.terms === terms.drops && last.permalinks === permalinks
    && last.definition === sources.definition && sameRevisions(last.revisions, records)) return last.revision;
  if (!work) return undefined;
  const told = sources.told?.token === token ? sources.told.revisions : undefined;
  const revisions: SharedRevision[] = [];
  let revision = '';
  for (const record of records) {
    const shared = told?.get(record) ?? lastRevisionNow(record, sources, token);
    if (!shared) return undefined;
    revisions.push(shared);
    revision += `${shared.serial},`;
  }
  listRevisions.set(list, { revisions, histories: histories.drops, terms: terms.drops, permalinks, definition: sources.definition, revision });
  return revision;
}

/**
 * What each list's revision was last told from (`listRevisionNow`): its records' last revisions (each the record's
 * own, worked out from that very record: records are not held, so a list kept for long keeps no old version of a
 * record alive), and the drops of the kept facts, by count.
 */
const listRevisions = new WeakMap<object, {
  revisions: readonly SharedRevision[]; histories: number; terms: number; permalinks: string; definition: PostTypeDefinition; revision: string;
}>();

/** Whether `records` are those the revisions were worked out from, one by one in order. */
function sameRevisions(revisions: readonly SharedRevision[], records: readonly PostRecord[]): boolean {
  if (revisions.length !== records.length) return false;
  for (let index = 0; index < records.length; index += 1) if (sharedRevisions.get(records[index]!) !== revisions[index]) return false;
  return true;
}

export async function fragmentRevision(record: PostRecord, sources: RevisionSources): Promise<string | null> {
  const { definition } = sources;
  if (drawsOnOthers(record, sources)) return null;
  const history = await sources.historyOf(record.id);
  const drawnOn: unknown[] = [definition, history.count, history.latestId];
  for (const taxonomy of definition.taxonomies) {
    const ids = (record[taxonomy.restBase] as number[] | undefined) ?? [];
    if (ids.length === 0) continue;
    const terms = await sources.termsOf(taxonomy.taxonomy as TaxonomyName);
    drawnOn.push(taxonomy.taxonomy, ids.map((id) => terms.get(id)?.name ?? null));
  }
  const last = sharedRevisions.get(record);
  if (last && sameParts(last.drawnOn, drawnOn)) return last.revision;
  const recordKey = sharedRecordDigests.get(record) ?? recordDigest(record);
  const parts: unknown[] = [typeof recordKey === 'string' ? recordKey : await recordKey, ...drawnOn.slice(1)];
  let revision: string;
  if (isLargeJson(parts)) {
    revision = await jsonDigestInTurns(parts, 'sha256');
  } else {
    const text = JSON.stringify(parts);
    // A short revision is its own digest (it keys a kept fragment, so a longer one is hashed to bound the key).
    revision = text.length <= SHORT_REVISION_CHARS ? text : digest(text);
  }
  if (Object.isFrozen(record)) sharedRevisions.set(record, { drawnOn, revision, serial: ++lastRevisionSerial });
  return revision;
}

/**
 * The last revision of a shared record (see `sharedRecordDigests`) and what besides the record it was worked out
 * from: the next answers after writes to other records find the same history and term names, and the revision.
 */
const sharedRevisions = new WeakMap<object, SharedRevision>();

/**
 * Made anew for every record whose revision is worked out: the same one (and its number, never given twice) stands
 * for the same record and what its revision was worked out from.
 */
export interface SharedRevision {
  readonly drawnOn: readonly unknown[];
  readonly revision: string;
  readonly serial: number;
}

let lastRevisionSerial = 0;

/** Whether two lists of `drawnOn` hold the same values (term names compared one by one). */
function sameParts(a: readonly unknown[], b: readonly unknown[]): boolean {
  if (a.length !== b.length) return false;
  for (let index = 0; index < a.length; index += 1) {
    const left = a[index];
    const right = b[index];
    if (left === right) continue;
    if (!Array.isArray(left) || !Array.isArray(right) || left.length !== right.length) return false;
    for (let item = 0; item < left.length; item += 1) if (left[item] !== right[item]) return false;
  }
  return true;
}

const SHORT_REVISION_CHARS = 200;

/**
 * The digest of a stored record whole. A store that shares its records (`ListQuery.shared`) hands out the same
 * frozen object until the record is written again, so its digest is worked out once, not on every answer after
 * a write to another record.
 */
const sharedRecordDigests = new WeakMap<object, string>();

/** The digest of a record whole: at once, or (a record of several megabytes) hashed in pieces with turns between them. */
function recordDigest(record: PostRecord): string | Promise<string> {
  if (isLargeJson(record)) return jsonDigestInTurns(record, 'sha256').then((computed) => sharedDigest(record, computed));
  return sharedDigest(record, digest(JSON.stringify(record)));
}

function sharedDigest(record: PostRecord, computed: string): string {
  if (Object.isFrozen(record)) sharedRecordDigests.set(record, computed);
  return computed;
}

/** SHA-256 in one call where Node has it (20.12 and later: several times faster on short texts). */
function digest(text: string): string {
  return typeof crypto.hash === 'function' ? crypto.hash('sha256', text, 'base64') : crypto.createHash('sha256').update(text).digest('base64');
}
