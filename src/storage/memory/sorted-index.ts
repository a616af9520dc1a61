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
 */
export class SortedIndex {
  readonly equalityFields: readonly string[];
  readonly orderField: string;
  private readonly partitions = new Map<string, IndexEntry[]>();

  constructor(equalityFields: readonly string[], orderField: string, rows: Iterable<Row>) {
    this.equalityFields = equalityFields;
    this.orderField = orderField;
    for (const row of rows) this.partitionFor(row).push(this.entryFor(row));
    for (const entries of this.partitions.values()) entries.sort(compareEntries);
  }

  static signature(equalityFields: readonly string[], orderField: string): string {
    return JSON.stringify([equalityFields, orderField]);
  }

  /** The partition holding records whose equality fields equal `values` (given in `equalityFields` order). */
  partition(values: readonly Scalar[]): readonly IndexEntry[] | undefined {
    return this.partitions.get(partitionKey(values));
  }

  add(row: Row): void {
    const entries = this.partitionFor(row);
    const entry = this.entryFor(row);
    entries.splice(lowerBound(entries, (candidate) => compareEntries(candidate, entry) >= 0), 0, entry);
  }

  delete(row: Row): void {
    const key = this.keyFor(row);
    const entries = this.partitions.get(key);
    if (!entries) return;
    const entry = this.entryFor(row);
    const position = lowerBound(entries, (candidate) => compareEntries(candidate, entry) >= 0);
    const found = entries[position];
    if (found && found.id === entry.id) entries.splice(position, 1);
    if (entries.length === 0) this.partitions.delete(key);
  }

  replace(before: Row, after: Row): void {
    const unchanged = this.keyFor(before) === this.keyFor(after)
      && compareScalars(sortValue(before, this.orderField), sortValue(after, this.orderField)) === 0;
    if (unchanged) return;
    this.delete(before);
    this.add(after);
  }

  private entryFor(row: Row): IndexEntry {
    return { value: sortValue(row, this.orderField), id: row.id };
  }

  private keyFor(row: Row): string {
    return partitionKey(this.equalityFields.map((field) => {
      const value = readField(row, field);
      return isScalar(value) ? value : NOT_A_SCALAR;
    }));
  }

  private partitionFor(row: Row): IndexEntry[] {
    const key = this.keyFor(row);
    let entries = this.partitions.get(key);
    if (!entries) {
      entries = [];
      this.partitions.set(key, entries);
    }
    return entries;
  }
}

/** Arrays and objects get a key no query value can produce, so equality conditions never select them. */
const NOT_A_SCALAR = {};

function partitionKey(values: readonly unknown[]): string {
  return JSON.stringify(values);
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
