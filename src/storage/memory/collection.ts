import type { StoredRecord } from '../../ports/storage.js';
import { MEMBER_INDEXED_FIELDS } from '../member-fields.js';
import { MemberIndex } from './member-index.js';
import { SortedIndex } from './sorted-index.js';

/**
 * One collection's records, its id counter and its lazily built indexes. Rows are never mutated in place: a
 * write replaces the row object, so an old row can serve as an undo image without copying.
 */
export class Collection {
  private readonly rows = new Map<number, StoredRecord>();
  private readonly indexes = new Map<string, SortedIndex>();
  private readonly memberIndexes = new Map<string, MemberIndex>();
  /** The signature of the most recently used index (last in `indexes`), which needs no move on use... */
  private newest: string | null = null;
  /** ...and that index, found again without a signature when the next list asks for the same fields. */
  private lastUsed: SortedIndex | null = null;
  /** Every id up to this one has been handed out or taken explicitly. */
  highestId = 0;

  constructor(private readonly maxIndexes: number) {}

  get size(): number {
    return this.rows.size;
  }

  get(id: number): StoredRecord | undefined {
    return this.rows.get(id);
  }

  all(): IterableIterator<StoredRecord> {
    return this.rows.values();
  }

  put(row: StoredRecord): void {
    const before = this.rows.get(row.id);
    this.rows.set(row.id, row);
    for (const index of this.indexes.values()) {
      if (before) index.replace(before, row);
      else index.add(row);
    }
    for (const index of this.memberIndexes.values()) {
      if (before) index.delete(before);
      index.add(row);
    }
  }

  delete(id: number): void {
    const before = this.rows.get(id);
    if (!before) return;
    this.rows.delete(id);
    for (const index of this.indexes.values()) index.delete(before);
    for (const index of this.memberIndexes.values()) index.delete(before);
  }

  /** The element index of `field`, built on first use, when the field is one of `MEMBER_INDEXED_FIELDS`. */
  members(field: string): MemberIndex | undefined {
    if (!MEMBER_INDEXED_FIELDS.includes(field)) return undefined;
    let index = this.memberIndexes.get(field);
    if (!index) this.memberIndexes.set(field, index = new MemberIndex(field, this.rows.values()));
    return index;
  }

  /** The index on (`equalityFields`, the elements of `memberField`, `orderField`), built on first use; the least
   *  recently used one goes when the collection already holds `maxIndexes`. */
  index(equalityFields: readonly string[], orderField: string, memberField: string | null = null): SortedIndex {
    const last = this.lastUsed;
    if (last !== null && last.orderField === orderField && last.memberField === memberField && sameFields(last.equalityFields, equalityFields)) {
      return last;
    }
    const signature = SortedIndex.signature(equalityFields, orderField, memberField);
    const existing = this.indexes.get(signature);
    if (existing) {
      if (signature !== this.newest) {
        this.indexes.delete(signature);
        this.indexes.set(signature, existing);
        this.newest = signature;
      }
      this.lastUsed = existing;
      return existing;
    }
    if (this.indexes.size >= this.maxIndexes) {
      const leastRecent = this.indexes.keys().next().value;
      if (leastRecent !== undefined) this.indexes.delete(leastRecent);
    }
    const created = new SortedIndex(equalityFields, orderField, this.rows.values(), memberField);
    this.indexes.set(signature, created);
    this.newest = signature;
    this.lastUsed = created;
    return created;
  }

  get indexCount(): number {
    return this.indexes.size;
  }
}

function sameFields(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let at = 0; at < a.length; at++) if (a[at] !== b[at]) return false;
  return true;
}
