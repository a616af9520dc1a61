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
  /** The signature of the most recently used index (last in `indexes`), which needs no move on use. */
  private newest: string | null = null;
  /**
   * The indexes used last, most recent first, found again without a signature: a write's own lists (slug,
   * revisions) come between two reads of a page, and the page's index is still among them.
   */
  private readonly recent: SortedIndex[] = [];
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
      if (before) index.replace(before, row);
      else index.add(row);
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
    const recent = this.recent;
    for (let at = 0; at < recent.length; at++) {
      const index = recent[at]!;
      if (index.orderField !== orderField || index.memberField !== memberField || !sameFields(index.equalityFields, equalityFields)) continue;
      if (at > 0) {
        recent.copyWithin(1, 0, at);
        recent[0] = index;
      }
      return index;
    }
    const found = this.#indexBySignature(equalityFields, orderField, memberField);
    if (recent.length >= RECENT_INDEXES) recent.pop();
    recent.unshift(found);
    return found;
  }

  #indexBySignature(equalityFields: readonly string[], orderField: string, memberField: string | null): SortedIndex {
    const signature = SortedIndex.signature(equalityFields, orderField, memberField);
    const existing = this.indexes.get(signature);
    if (existing) {
      if (signature !== this.newest) {
        this.indexes.delete(signature);
        this.indexes.set(signature, existing);
        this.newest = signature;
      }
      return existing;
    }
    if (this.indexes.size >= this.maxIndexes) this.#dropLeastRecent();
    const created = new SortedIndex(equalityFields, orderField, this.rows.values(), memberField);
    this.indexes.set(signature, created);
    this.newest = signature;
    return created;
  }

  /**
   * Drops the least recently used index: the first in `indexes` that is not among the `recent` ones (used since
   * without moving there), or the first when every one is.
   */
  #dropLeastRecent(): void {
    let dropped: string | undefined;
    for (const [signature, index] of this.indexes) {
      dropped ??= signature;
      if (!this.recent.includes(index)) {
        dropped = signature;
        break;
      }
    }
    if (dropped === undefined) return;
    const at = this.recent.indexOf(this.indexes.get(dropped)!);
    if (at !== -1) this.recent.splice(at, 1);
    this.indexes.delete(dropped);
  }

  get indexCount(): number {
    return this.indexes.size;
  }
}

/** Indexes found again without a signature (`recent`). */
const RECENT_INDEXES = 6;

function sameFields(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let at = 0; at < a.length; at++) if (a[at] !== b[at]) return false;
  return true;
}
