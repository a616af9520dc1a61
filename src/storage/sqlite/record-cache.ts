import type { StoredRecord } from '../../ports/storage.js';
import { copyJsonOut } from '../json.js';

/** How many decoded records the cache holds (the least recently used go first). */
const CAPACITY = 2_000;

/**
 * Decoded records of one connection, valid while the database is unchanged: reading a record's JSON out of
 * SQLite and decoding it costs several times what copying a decoded one does, and lists read the same records
 * again and again. Every entry belongs to one state of the data, told by `PRAGMA data_version` (commits by
 * other connections) and `total_changes()` (this connection's writes, inside transactions too); the store
 * calls `forget` when it rolls changes back. When the state moves, the whole cache is dropped. Records are
 * handed out as copies, as the port requires.
 */
export class RecordCache {
  private readonly entries = new Map<string, StoredRecord>();
  private state = '';

  constructor(private readonly currentState: () => string) {}

  /** Drops everything unless the data is still in the state the entries were read in. */
  check(): void {
    const state = this.currentState();
    if (state === this.state) return;
    this.entries.clear();
    this.state = state;
  }

  /** A copy of the cached record, or undefined (call `check` first). */
  get(collection: string, id: number): StoredRecord | undefined {
    const key = keyOf(collection, id);
    const record = this.entries.get(key);
    if (record === undefined) return undefined;
    this.entries.delete(key);
    this.entries.set(key, record);
    return copyJsonOut(record) as StoredRecord;
  }

  /** Keeps a record just read (in the state last checked); the caller keeps `record` for itself. */
  set(collection: string, record: StoredRecord): void {
    const key = keyOf(collection, record.id);
    this.entries.delete(key);
    this.entries.set(key, copyJsonOut(record) as StoredRecord);
    if (this.entries.size > CAPACITY) this.entries.delete(this.entries.keys().next().value!);
  }

  forget(): void {
    this.entries.clear();
    this.state = '';
  }
}

function keyOf(collection: string, id: number): string {
  return `${id}\u0000${collection}`;
}
