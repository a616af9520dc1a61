import { sameElements } from './sorted-index.js';
import { readField } from './values.js';

type Row = Record<string, unknown> & { id: number };

/**
 * The ids of the records whose array `field` holds each string or number element, for the array conditions.
 * Elements compare as the conditions do (`Set` equality: 1 and '1' differ).
 */
export class MemberIndex {
  private readonly holders = new Map<unknown, Set<number>>();

  constructor(readonly field: string, rows: Iterable<Row>) {
    for (const row of rows) this.add(row);
  }

  /** The ids of the records holding `element` (an empty set when none does). */
  holding(element: unknown): ReadonlySet<number> {
    return this.holders.get(element) ?? NONE;
  }

  /** Follows a rewritten record; nothing to do while its elements are the same. */
  replace(before: Row, after: Row): void {
    if (sameElements(readField(before, this.field), readField(after, this.field))) return;
    this.delete(before);
    this.add(after);
  }

  add(row: Row): void {
    for (const element of this.elementsOf(row)) {
      let ids = this.holders.get(element);
      if (!ids) this.holders.set(element, ids = new Set());
      ids.add(row.id);
    }
  }

  delete(row: Row): void {
    for (const element of this.elementsOf(row)) {
      const ids = this.holders.get(element);
      ids?.delete(row.id);
      if (ids?.size === 0) this.holders.delete(element);
    }
  }

  private elementsOf(row: Row): unknown[] {
    const value = readField(row, this.field);
    return Array.isArray(value) ? value.filter((element) => typeof element === 'string' || typeof element === 'number') : [];
  }
}

const NONE: ReadonlySet<number> = new Set();
