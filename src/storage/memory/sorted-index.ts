import type { Scalar } from '../../ports/storage.js';
import { compareScalars, isScalar, readField, sortValue } from './values.js';

type Row = Record<string, unknown> & { id: number };

/** One record's place in an index: its order value, then its id (which makes entries unique). */
export interface IndexEntry {
  value: Scalar;
  id: number;
}

/** A contiguous run `[start, end)` of one partition. */
export interface IndexSlice {
  entries: readonly IndexEntry[];
  start: number;
  end: number;
}

export function compareEntries(a: IndexEntry, b: IndexEntry): number {
  return compareScalars(a.value, b.value) || a.id - b.id;
}

/**
 * Records grouped by the values of `equalityFields` (one partition per combination), each partition sorted by
 * (`orderField` value, id). Reading a partition forwards gives ascending order with ascending id tie-break,
 * backwards gives descending with descending id: exactly the port's ordering.
 *
 * With a `memberField` (an array field), the partitions are also split by element: a record sits in one
 * partition per distinct string or number element of that array (its equality values followed by the element),
 * so the records holding one term, of one type and status, are a single run in date order.
 */
export class SortedIndex {
  readonly equalityFields: readonly string[];
  readonly orderField: string;
  readonly memberField: string | null;
  private readonly partitions = new Map<string, IndexEntry[]>();
  /**
   * Moves whenever a partition is made or dropped (its entries change in place), so the partition found last
   * is found again for the same values without making their key: lists ask for the same one again and again.
   */
  private layout = 0;
  private lastFound: { values: readonly Scalar[]; entries: IndexEntry[]; layout: number } | null = null;

  constructor(equalityFields: readonly string[], orderField: string, rows: Iterable<Row>, memberField: string | null = null) {
    this.equalityFields = [...equalityFields];
    this.orderField = orderField;
    this.memberField = memberField;
    for (const row of rows) {
      const entry = this.entryFor(row);
      for (const key of this.keysFor(row)) this.partitionAt(key).push(entry);
    }
    for (const entries of this.partitions.values()) entries.sort(compareEntries);
  }

  static signature(equalityFields: readonly string[], orderField: string, memberField: string | null = null): string {
    let signature = memberField === null ? `${textKey(orderField)}-` : `${textKey(orderField)}${textKey(memberField)}`;
    for (let index = 0; index < equalityFields.length; index++) signature += textKey(equalityFields[index]!);
    return signature;
  }

  /**
   * The partition holding records whose equality fields equal `values` (given in `equalityFields` order,
   * followed by the element when the index has a member field).
   */
  partition(values: readonly Scalar[]): readonly IndexEntry[] | undefined {
    const last = this.lastFound;
    if (last !== null && last.layout === this.layout && sameValues(last.values, values)) return last.entries;
    const entries = this.partitions.get(partitionKey(values));
    this.lastFound = entries === undefined ? null : { values: [...values], entries, layout: this.layout };
    return entries;
  }

  add(row: Row): void {
    const entry = this.entryFor(row);
    for (const key of this.keysFor(row)) {
      const entries = this.partitionAt(key);
      entries.splice(lowerBound(entries, (candidate) => compareEntries(candidate, entry) >= 0), 0, entry);
    }
  }

  delete(row: Row): void {
    const entry = this.entryFor(row);
    for (const key of this.keysFor(row)) {
      const entries = this.partitions.get(key);
      if (!entries) continue;
      const position = lowerBound(entries, (candidate) => compareEntries(candidate, entry) >= 0);
      const found = entries[position];
      if (found && found.id === entry.id) entries.splice(position, 1);
      if (entries.length === 0) {
        this.partitions.delete(key);
        this.layout++;
      }
    }
  }

  /**
   * Moves a rewritten record where its new values put it. Most writes leave the indexed fields as they were: that
   * is told from the values themselves, without making a partition key.
   */
  replace(before: Row, after: Row): void {
    if (this.samePlace(before, after)) return;
    const keysBefore = this.keysFor(before);
    const keysAfter = this.keysFor(after);
    const unchanged = keysBefore.length === keysAfter.length && keysBefore.every((key, at) => key === keysAfter[at])
      && compareScalars(sortValue(before, this.orderField), sortValue(after, this.orderField)) === 0;
    if (unchanged) return;
    this.delete(before);
    this.add(after);
  }

  /** Whether both rows have the same (`===`) equality, order and member values, so the same entries. */
  private samePlace(before: Row, after: Row): boolean {
    const fields = this.equalityFields;
    for (let at = 0; at < fields.length; at++) if (readField(before, fields[at]!) !== readField(after, fields[at]!)) return false;
    if (readField(before, this.orderField) !== readField(after, this.orderField)) return false;
    return this.memberField === null || sameElements(readField(before, this.memberField), readField(after, this.memberField));
  }

  private entryFor(row: Row): IndexEntry {
    return { value: sortValue(row, this.orderField), id: row.id };
  }

  private keysFor(row: Row): string[] {
    const values = this.equalityFields.map((field) => {
      const value = readField(row, field);
      return isScalar(value) ? value : NOT_A_SCALAR;
    });
    if (this.memberField === null) return [partitionKey(values)];
    const elements = readField(row, this.memberField);
    if (!Array.isArray(elements)) return [];
    const distinct = new Set(elements.filter((element) => typeof element === 'string' || typeof element === 'number'));
    return [...distinct].map((element) => partitionKey([...values, element]));
  }

  private partitionAt(key: string): IndexEntry[] {
    let entries = this.partitions.get(key);
    if (!entries) {
      entries = [];
      this.partitions.set(key, entries);
      this.layout++;
    }
    return entries;
  }
}

/** Two values of an array field with the same elements (`===`) in the same order, or the same value. */
export function sameElements(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
  for (let index = 0; index < a.length; index++) if (a[index] !== b[index]) return false;
  return true;
}

/** The same values in the same order, so the same partition key (`===` tells 1 from '1'). */
function sameValues(a: readonly Scalar[], b: readonly Scalar[]): boolean {
  if (a.length !== b.length) return false;
  for (let index = 0; index < a.length; index++) if (a[index] !== b[index]) return false;
  return true;
}

/** Arrays and objects get a key no query value can produce, so equality conditions never select them. */
const NOT_A_SCALAR = {};

/**
 * The partition of a list of values. Each value's part ends where it says (a string gives its length), so no two
 * lists share a key; 1 and '1', true and 'true' differ. Lists look up a partition on every call, so this is kept
 * cheaper than `JSON.stringify`.
 */
function partitionKey(values: readonly unknown[]): string {
  let key = '';
  for (let index = 0; index < values.length; index++) key += valueKey(values[index]);
  return key;
}

function valueKey(value: unknown): string {
  switch (typeof value) {
    case 'string': return `s${textKey(value)}`;
    case 'number': return `n${value};`;
    case 'boolean': return value ? 't' : 'f';
    default: return value === null ? 'z' : 'x';
  }
}

function textKey(text: string): string {
  return `${text.length}:${text}`;
}

/** The first position whose entry satisfies `isAtOrAfter` (which must be false, then true, along the array). */
export function lowerBound(entries: readonly IndexEntry[], isAtOrAfter: (entry: IndexEntry) => boolean): number {
  let low = 0;
  let high = entries.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (isAtOrAfter(entries[middle]!)) high = middle;
    else low = middle + 1;
  }
  return low;
}
