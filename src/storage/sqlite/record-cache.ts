import type { StoredRecord, StoredWrite } from '../../ports/storage.js';
import { copyJsonOut, freezeJson } from '../json.js';
import { KeptLists, type ListedIds } from '../kept-lists.js';
import type { CheckedQuery } from '../query-check.js';
import { queryKey } from './query-key.js';

export type { ListedIds };

/** How many decoded records the cache holds (the least recently used go first)... */
const CAPACITY = 2_000;
/** ...and how much stored JSON text they may come from in all, so a few very large records cannot fill memory. */
const CAPACITY_CHARS = 8 * 1024 * 1024;

/** How many list results (a page's ids, a total) the cache holds for the current state... */
const RESULT_CAPACITY = 1_000;
/** ...each of a query whose key (`queryKey`) is at most this many characters, with at most this many ids. */
const RESULT_MAX_KEY = 4_096;
const RESULT_MAX_IDS = 1_000;

/** Most records written by the store itself held until asked for (past it, all are let go: they are read again)... */
const WRITTEN_CAPACITY = 64;
/** ...and most members of one taken as it was written (`sizeOf`). */
const WRITTEN_MAX_MEMBERS = 20_000;

/** How many pages of records handed out shared the cache holds (`page`), each of at most this many records. */
const PAGE_CAPACITY = 64;
const PAGE_MAX_ITEMS = 100;

interface Page {
  readonly collection: string;
  readonly items: readonly StoredRecord[];
  readonly listed: ListedIds;
  /** The query's key, for its kept result. */
  readonly key: string;
  state: string;
}

interface Entry {
  readonly collection: string;
  readonly record: StoredRecord;
  /** Length of the JSON text the record was decoded from. */
  readonly size: number;
  /** The neighbours in order of use: moving an entry to the end changes a few links, no set. */
  older: Entry | null;
  newer: Entry | null;
}

/**
 * Decoded records of one connection, valid while the database is unchanged: reading a record's JSON out of
 * SQLite and decoding it costs several times what copying a decoded one does, and lists read the same records
 * again and again. Every entry belongs to one state of the data, told by `PRAGMA data_version` (commits by
 * other connections) and `total_changes()` (this connection's writes, inside transactions too); the store
 * calls `forget` when it rolls changes back. When the state moves, the whole cache is dropped, but where the
 * store tells its own writes since: then only the records written go, and each comes back as the write left it
 * (never read back) when next asked for. Records are
 * handed out as copies, as the port requires, or as they are kept (frozen) to a list asked `shared`. The results of
 * list queries (a page's ids, a total) are kept the same way: in one state of the data the same query answers the
 * same; where the store tells its writes, those they cannot change are carried to the next state (kept-lists.ts).
 */
/**
 * What the store tells of the writes between states: `noted` notes a state just read, to be asked about later (and
 * answers the state to keep, which it may read again), `since` names the writes since an earlier state up to the
 * state just noted at least, or null when it cannot tell.
 */
export interface StateWrites {
  noted(state: string): string;
  since(state: string): readonly StoredWrite[] | null;
}

export class RecordCache {
  /** The entries by collection and id, found without making a key... */
  private readonly byCollection = new Map<string, Map<number, Entry>>();
  /** ...and in order of use, a list from the least recent (`oldest`) to the most recent. */
  private oldest: Entry | null = null;
  private newest: Entry | null = null;
  private count = 0;
  /** List results by query (`queryKey`). */
  private readonly results = new KeptLists(RESULT_CAPACITY);
  /**
   * The records of pages handed out shared, by query (frozen, so it stands for the same query for good) and as
   * they were handed out, with the list result they were read from and the state they were last found in. In a
   * later state a page holds while that result is still the one kept (carried across the writes since) and its
   * records are still the entries (none written since): it is then what reading its ids from the entries gives.
   */
  private readonly pages = new Map<CheckedQuery, Page>();
  /**
   * The queries handed out once since the pages were dropped: a page is kept the second time, so a list read once
   * pays nothing for it.
   */
  private readonly handedOnce = new Set<CheckedQuery>();
  /**
   * Records as the store's own commits since the current state's last check wrote them (frozen: own-commits.ts),
   * by collection and id: each is what reading its row in the current state gives, and becomes an entry when first
   * asked for, so a read after a write does not read back what it wrote.
   */
  private readonly written = new Map<string, Map<number, StoredRecord>>();
  /** How many records were noted in `written` since it was last emptied (some may have gone since). */
  private writtenNoted = 0;
  private chars = 0;
  private state = '';

  constructor(private readonly currentState: () => string, private readonly writes: StateWrites | null = null) {}

  /**
   * Drops everything unless the data is still in the state the entries were read in; where the store tells what
   * was written since, only the records written, and the results the writes may have changed.
   */
  check(): void {
    let state = this.currentState();
    if (state === this.state) return;
    if (this.writes) {
      state = this.writes.noted(state);
      const written = this.state === '' ? null : this.writes.since(this.state);
      if (written !== null) {
        this.results.carry(written);
        for (const { collection, id, after } of written) {
          const entry = this.byCollection.get(collection)?.get(id);
          if (entry !== undefined) this.remove(entry);
          this.noteWritten(collection, id, after);
        }
        this.state = state;
        return;
      }
    }
    this.clear();
    this.state = state;
  }

  /** The state of the data the entries belong to (after `check`). */
  get checked(): string {
    return this.state;
  }

  /** The state of the data now, for a read that waited to tell whether the data moved meanwhile. */
  now(): string {
    return this.currentState();
  }

  /**
   * A copy of the cached record, or the record itself (frozen) for a reader that only reads (`shared`), or
   * undefined (call `check` first).
   */
  get(collection: string, id: number, shared = false): StoredRecord | undefined {
    const entry = this.byCollection.get(collection)?.get(id) ?? this.fromWritten(collection, id);
    if (entry === undefined) return undefined;
    if (entry !== this.newest) {
      this.unlink(entry);
      this.append(entry);
    }
    return shared ? entry.record : copyJsonOut(entry.record);
  }

  /**
   * Keeps a record just read (in the state last checked) from `size` characters of JSON; the caller keeps
   * `record` for itself. A record larger than a quarter of the budget is not kept.
   */
  set(collection: string, record: StoredRecord, size: number): void {
    this.written.get(collection)?.delete(record.id);
    this.add(collection, freezeJson(copyJsonOut(record)), size);
  }

  /** Keeps a frozen record, the cache's own. */
  private add(collection: string, record: StoredRecord, size: number): Entry | undefined {
    const existing = this.byCollection.get(collection)?.get(record.id);
    if (existing !== undefined) this.remove(existing);
    if (size > CAPACITY_CHARS / 4) return undefined;
    const entry: Entry = { collection, record, size, older: null, newer: null };
    let entries = this.byCollection.get(collection);
    if (entries === undefined) this.byCollection.set(collection, entries = new Map());
    entries.set(record.id, entry);
    this.append(entry);
    this.count++;
    this.chars += size;
    while (this.count > CAPACITY || this.chars > CAPACITY_CHARS) this.remove(this.oldest!);
    return entry;
  }

  /** Notes what a write of the store's own left in a row, in the state just checked (a frozen record, or none). */
  private noteWritten(collection: string, id: number, after: StoredRecord | null): void {
    let records = this.written.get(collection);
    if (after === null || !Object.isFrozen(after)) {
      records?.delete(id);
      return;
    }
    if (++this.writtenNoted > WRITTEN_CAPACITY) {
      this.written.clear();
      this.writtenNoted = 1;
      records = undefined;
    }
    if (records === undefined) this.written.set(collection, records = new Map());
    records.set(id, after);
  }

  /** The entry of a record as the store's own write left it, made now; undefined where none is known or it is too large. */
  private fromWritten(collection: string, id: number): Entry | undefined {
    const records = this.written.get(collection);
    const record = records?.get(id);
    if (record === undefined) return undefined;
    records!.delete(id);
    const size = sizeOf(record);
    return size === null ? undefined : this.add(collection, record, size);
  }

  /**
   * What `query` lists in the current state (call `check` first), computed once. The result is shared, so callers
   * must not change it. Long queries (long id lists) and long results are not kept, so the cache stays small
   * whatever lists are asked for.
   */
  listed(collection: string, query: CheckedQuery, compute: () => ListedIds): ListedIds {
    const key = queryKey(collection, query);
    if (key === null) return compute();
    const kept = this.results.get(key);
    if (kept !== undefined) return kept;
    const value = compute();
    if (key.length > RESULT_MAX_KEY || value.ids.length > RESULT_MAX_IDS) return value;
    this.results.set(key, collection, query, value);
    return value;
  }

  /** The kept result of a list query, if any (call `check` first). */
  kept(collection: string, query: CheckedQuery): ListedIds | undefined {
    const key = queryKey(collection, query);
    return key === null ? undefined : this.results.get(key);
  }

  /**
   * The records and total of a page of `query` handed out shared (see `keepPage`) while no entry and not the state
   * have changed since (call `check` first); the array is the caller's.
   */
  page(collection: string, query: CheckedQuery): { items: StoredRecord[]; total: number | undefined } | undefined {
    const page = this.pages.get(query);
    if (page === undefined || page.collection !== collection) return undefined;
    if (page.state !== this.state) {
      if (this.results.get(page.key) !== page.listed || !this.holds(collection, page.items)) {
        this.pages.delete(query);
        return undefined;
      }
      page.state = this.state;
    }
    return { items: page.items.slice(), total: page.listed.total };
  }

  /** Whether `items` are the records the entries hold, each the very one. */
  private holds(collection: string, items: readonly StoredRecord[]): boolean {
    const entries = this.byCollection.get(collection);
    if (entries === undefined) return items.length === 0;
    for (const item of items) if (entries.get(item.id)?.record !== item) return false;
    return true;
  }

  /**
   * Keeps the records of a page of a frozen `query` asked `shared`, as handed out from the entries (`get`) now,
   * read from `listed` (what `listed` answered).
   */
  keepPage(collection: string, query: CheckedQuery, items: readonly StoredRecord[], listed: ListedIds): void {
    if (!query.shared || !Object.isFrozen(query) || items.length > PAGE_MAX_ITEMS) return;
    if (!this.handedOnce.has(query)) {
      if (this.handedOnce.size >= PAGE_CAPACITY) this.handedOnce.clear();
      this.handedOnce.add(query);
      return;
    }
    const key = queryKey(collection, query);
    if (key === null || this.results.get(key) !== listed) return;
    this.pages.delete(query);
    this.pages.set(query, { collection, items: items.slice(), listed, key, state: this.state });
    if (this.pages.size > PAGE_CAPACITY) this.pages.delete(this.pages.keys().next().value!);
  }

  /** Keeps a list query's result read elsewhere in the current state (see `listed`). */
  keep(collection: string, query: CheckedQuery, value: ListedIds): void {
    this.listed(collection, query, () => value);
  }

  forget(): void {
    this.clear();
    this.state = '';
  }

  private remove(entry: Entry): void {
    const entries = this.byCollection.get(entry.collection);
    entries?.delete(entry.record.id);
    if (entries?.size === 0) this.byCollection.delete(entry.collection);
    this.unlink(entry);
    this.count--;
    this.chars -= entry.size;
  }

  private append(entry: Entry): void {
    entry.older = this.newest;
    entry.newer = null;
    if (this.newest === null) this.oldest = entry;
    else this.newest.newer = entry;
    this.newest = entry;
  }

  private unlink(entry: Entry): void {
    if (entry.older === null) this.oldest = entry.newer;
    else entry.older.newer = entry.newer;
    if (entry.newer === null) this.newest = entry.older;
    else entry.newer.older = entry.older;
    entry.older = null;
    entry.newer = null;
  }

  private clear(): void {
    this.written.clear();
    this.writtenNoted = 0;
    this.pages.clear();
    this.handedOnce.clear();
    this.byCollection.clear();
    this.oldest = null;
    this.newest = null;
    this.count = 0;
    this.results.clear();
    this.chars = 0;
  }
}

/**
 * About the length of a record's JSON text, as the cache counts it (its strings, and a few characters a member),
 * or null past `WRITTEN_MAX_MEMBERS` members or a quarter of the budget: sized without writing the text.
 */
function sizeOf(record: StoredRecord): number | null {
  const pending: unknown[] = [record];
  let chars = 0;
  for (let members = 0; pending.length > 0; members++) {
    if (members > WRITTEN_MAX_MEMBERS || chars > CAPACITY_CHARS / 4) return null;
    const value = pending.pop();
    if (typeof value === 'string') chars += value.length + 2;
    else if (value !== null && typeof value === 'object') for (const member of Object.values(value)) pending.push(member);
    chars += 4;
  }
  return chars;
}
