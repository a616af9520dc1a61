/**
 * List results a store keeps for one state of its data (a page's ids, a total), carried to the next state across
 * the writes it knows cannot have changed them. Exactly what running the query again would give, or dropped:
 *
 * - an update of a record that leaves every field the query reads (its conditions, search and order) as it was
 *   changes neither whether the record is selected nor where it sorts, wherever it stands;
 * - a record that fails one of the query's `eq` or `in` conditions before the write and after it (an insert or
 *   removal of one of another type or status) was not selected and is not now.
 *
 * Anything else drops the result: a store keeps only what these two rules prove.
 */
import type { Condition, Scalar, SortKey, StoredWrite } from '../ports/storage.js';
import type { CheckedQuery } from './query-check.js';

/** What a list query selects: its page's ids and, when asked, the total. */
export interface ListedIds {
  readonly ids: readonly number[];
  readonly total?: number;
}

/** What decides whether a write can change a query's result, copied from the query when its result is kept. */
interface Reads {
  readonly collection: string;
  /** Every field the conditions and the order read. */
  readonly fields: readonly string[];
  /** `eq` and `in` conditions every selected record meets (at the top level, or inside a top-level `and`). */
  readonly required: readonly { readonly field: string; readonly values: readonly (string | number)[] }[];
}

/** A kept result, with the number of the carried writes it has been checked against. */
interface Kept {
  readonly listed: ListedIds;
  readonly reads: Reads;
  checked: number;
}

/** Most writes carried over at once; past it, every result is dropped. */
const MOST_WRITES = 64;

/**
 * Writes are carried lazily: a result is checked against the writes carried since it last was when it is next
 * asked for, so a write costs what the lists read after it cost, not what every kept result does. Past MOST_WRITES
 * writes waiting, the older half is let go, with the results not asked for since.
 */
export class KeptLists {
  /** By the query's key (the store's own: equal keys select the same), oldest first. */
  readonly #results = new Map<string, Kept>();
  /** The writes carried that some result has not been checked against, the first of them number `#first`. */
  #writes: StoredWrite[] = [];
  #first = 0;

  constructor(private readonly capacity: number) {}

  /** How many results are kept, each checked against the writes carried first (for tests). */
  get size(): number {
    for (const [key, kept] of this.#results) if (!this.#checked(kept)) this.#results.delete(key);
    return this.#results.size;
  }

  get(key: string): ListedIds | undefined {
    const kept = this.#results.get(key);
    if (kept === undefined) return undefined;
    if (!this.#checked(kept)) {
      this.#results.delete(key);
      return undefined;
    }
    return kept.listed;
  }

  /** Keeps what `query` on `collection` lists in the current state, under `key`. */
  set(key: string, collection: string, query: CheckedQuery, listed: ListedIds): void {
    this.#results.set(key, { listed, reads: readsOf(collection, query), checked: this.#first + this.#writes.length });
    if (this.#results.size > this.capacity) this.#results.delete(this.#results.keys().next().value!);
  }

  /** Moves the results to the state after `writes` (every write since they were read): keeps those they cannot change. */
  carry(writes: readonly StoredWrite[]): void {
    if (writes.length === 0 || this.#results.size === 0) return;
    if (writes.length > MOST_WRITES) {
      this.clear();
      return;
    }
    if (this.#writes.length + writes.length > MOST_WRITES) this.#letOlderGo();
    for (const write of writes) this.#writes.push(write);
  }

  clear(): void {
    this.#results.clear();
    this.#first += this.#writes.length;
    this.#writes = [];
  }

  /** Whether `kept` is still what its query lists, after the writes carried since it was last checked. */
  #checked(kept: Kept): boolean {
    const end = this.#first + this.#writes.length;
    for (let number = kept.checked; number < end; number++) {
      if (!leavesAsItWas(kept.reads, this.#writes[number - this.#first]!)) return false;
    }
    kept.checked = end;
    return true;
  }

  /** Lets the older half of the writes waiting go, dropping the results not checked against them. */
  #letOlderGo(): void {
    const kept = Math.floor(this.#writes.length / 2);
    const first = this.#first + this.#writes.length - kept;
    for (const [key, result] of this.#results) if (result.checked < first) this.#results.delete(key);
    this.#writes = this.#writes.slice(this.#writes.length - kept);
    this.#first = first;
  }
}

/**
 * Whether `query` on `collection` can select none of the records `writes` wrote, before or after them (the second
 * rule above): it then lists the same records, each as it was.
 */
export function selectsNoneOf(collection: string, query: CheckedQuery, writes: readonly StoredWrite[]): boolean {
  const reads = readsOf(collection, query);
  return writes.every(({ collection: written, before, after }) => written !== collection
    || ((before === null || failsRequired(reads, before)) && (after === null || failsRequired(reads, after))));
}

/** Whether `write` leaves what a query reading `reads` selects as it was. */
function leavesAsItWas(reads: Reads, write: StoredWrite): boolean {
  if (write.collection !== reads.collection) return true;
  const { before, after } = write;
  // An update that changed none of the fields read (added, removed or changed: a field missing is undefined).
  if (before !== null && after !== null && reads.fields.every((field) => sameJson(fieldOf(before, field), fieldOf(after, field)))) return true;
  return (before === null || failsRequired(reads, before)) && (after === null || failsRequired(reads, after));
}

function readsOf(collection: string, query: CheckedQuery): Reads {
  const fields = new Set<string>();
  const required: { field: string; values: (string | number)[] }[] = [];
  for (const condition of query.conditions) {
    addFields(condition, fields);
    addRequired(condition, required);
  }
  for (const sortKey of query.orderBy) addSortFields(sortKey, fields);
  return { collection, fields: [...fields], required };
}

function addFields(condition: Condition, into: Set<string>): void {
  if ('field' in condition) into.add(condition.field);
  else if (condition.op === 'not') addFields(condition.condition, into);
  else for (const inner of condition.conditions) addFields(inner, into);
}

function addSortFields(sortKey: SortKey, into: Set<string>): void {
  if ('rank' in sortKey) for (const condition of sortKey.rank) addFields(condition, into);
  else into.add(sortKey.field);
}

/** The conditions of one field's values that a record must meet, copied (their values all strings, or all numbers). */
function addRequired(condition: Condition, into: { field: string; values: (string | number)[] }[]): void {
  if (condition.op === 'and') {
    for (const inner of condition.conditions) addRequired(inner, into);
    return;
  }
  let values: readonly Scalar[];
  if (condition.op === 'eq') values = [condition.value];
  else if (condition.op === 'in') values = condition.values;
  else return;
  const kind = typeof values[0];
  if (values.every((value) => typeof value === kind && comparable(value))) into.push({ field: condition.field, values: [...values] as (string | number)[] });
}

/**
 * Whether `record` fails one of the required conditions, told only where every store compares alike: the field
 * missing, null, or a value of the condition's kind none of its values equals.
 */
function failsRequired(reads: Reads, record: Readonly<Record<string, unknown>>): boolean {
  for (const { field, values } of reads.required) {
    const value = fieldOf(record, field);
    if (value === undefined || value === null) return true;
    if (values.length === 0) return true;
    if (typeof value !== typeof values[0] || !comparable(value)) continue;
    if (!values.includes(value as string | number)) return true;
  }
  return false;
}

/** A number, or a string every store compares exactly: without NUL or surrogates (a lone one may be replaced). */
function comparable(value: unknown): boolean {
  if (typeof value === 'number') return Number.isFinite(value);
  return typeof value === 'string' && !UNSURE_CHARACTERS.test(value);
}

const UNSURE_CHARACTERS = /[\u0000\uD800-\uDFFF]/;

function fieldOf(record: Readonly<Record<string, unknown>>, field: string): unknown {
  return Object.hasOwn(record, field) ? record[field] : undefined;
}

/** Whether two JSON values (or undefined, a missing field) are the same. */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let index = 0; index < a.length; index += 1) if (!sameJson(a[index], b[index])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  for (const key of keys) {
    if (!Object.hasOwn(b, key) || !sameJson((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key])) return false;
  }
  return true;
}
