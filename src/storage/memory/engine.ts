import type { ListQuery, NewRecord, RecordId, StoredRecord, StoredWrite } from '../../ports/storage.js';
import { Collection } from './collection.js';
import { storageError } from '../errors.js';
import type { ListOutcome } from './list.js';
import { listRows } from './list.js';
import { normalizeQuery } from './query.js';
import { isPlainObject, setMember } from '../json.js';
import { copyJsonIn } from './values.js';

type UndoStep =
  | { kind: 'row'; name: string; collection: Collection; id: number; before: StoredRecord | undefined }
  | { kind: 'highestId'; name: string; collection: Collection; before: number };

/** Undo logs up to this long are checked for repeated steps by looking back rather than by key. */
const FEW_STEPS = 16;

/** Whether a step before `at` is about the same row (or id counter) as the one at `at`. */
function stepBefore(log: readonly UndoStep[], at: number): boolean {
  const step = log[at]!;
  for (let before = 0; before < at; before++) {
    const other = log[before]!;
    if (other.kind !== step.kind || other.name !== step.name) continue;
    if (step.kind === 'highestId' || (other.kind === 'row' && other.id === step.id)) return true;
  }
  return false;
}

/**
 * The data and the synchronous operations on it. Every write notes how to undo itself while an undo log is
 * open; `rollBackTo` replays those notes backwards, which restores rows, indexes and id counters alike.
 */
export class MemoryEngine {
  private readonly collections = new Map<string, Collection>();
  private undoLog: UndoStep[] | null = null;
  /** Counts the changes this engine's data went through (one per write, and one per `publish` into it). */
  changes = 0;

  constructor(private readonly options: { maxIndexesPerCollection: number; useIndexes: boolean }) {}

  get(name: string, id: RecordId): StoredRecord | undefined {
    return this.collections.get(name)?.get(id);
  }

  list(name: string, query: ListQuery | undefined): ListOutcome {
    const normalized = normalizeQuery(query);
    const collection = this.collections.get(name);
    if (!collection) {
      return {
        rows: [],
        ...(normalized.withTotal ? { total: 0 } : {}),
        plan: { strategy: 'scan', ordered: false, examined: 0 },
      };
    }
    return listRows(collection, normalized, this.options.useIndexes);
  }

  insert(name: string, record: NewRecord): StoredRecord {
    if (!isPlainObject(record)) throw storageError('invalid_record', 'A record must be a plain object.');
    const fields = copyJsonIn(record, 'record') as Record<string, unknown>;
    const collection = this.collection(name);
    const explicitId = fields.id;
    let id: number;
    if (explicitId === undefined) {
      id = collection.highestId + 1;
    } else {
      if (typeof explicitId !== 'number' || !Number.isSafeInteger(explicitId) || explicitId < 1) {
        throw storageError('invalid_record', `The id of a record must be a positive integer, not ${JSON.stringify(explicitId)}.`);
      }
      if (collection.get(explicitId)) {
        throw storageError('duplicate_id', `A record with id ${explicitId} already exists in "${name}".`);
      }
      id = explicitId;
    }
    if (id > collection.highestId) {
      this.note({ kind: 'highestId', name, collection, before: collection.highestId });
      collection.highestId = id;
    }
    const row = Object.freeze({ ...fields, id }) as StoredRecord;
    this.note({ kind: 'row', name, collection, id, before: undefined });
    collection.put(row);
    this.changes++;
    return row;
  }

  update(name: string, id: RecordId, patch: Record<string, unknown>): StoredRecord | null {
    if (!isPlainObject(patch)) throw storageError('invalid_record', 'A patch must be a plain object.');
    if (patch.id !== undefined && patch.id !== id) {
      throw storageError('invalid_record', `A patch cannot change a record's id (${id} to ${JSON.stringify(patch.id)}).`);
    }
    const collection = this.collections.get(name);
    const before = collection?.get(id);
    if (!collection || !before) return null;
    const after: Record<string, unknown> = { ...before };
    for (const [field, value] of Object.entries(patch)) {
      if (field === 'id') continue;
      if (value === undefined) delete after[field];
      else setMember(after, field, copyJsonIn(value, `patch.${field}`));
    }
    this.note({ kind: 'row', name, collection, id, before });
    Object.freeze(after);
    collection.put(after as StoredRecord);
    this.changes++;
    return after as StoredRecord;
  }

  remove(name: string, id: RecordId): boolean {
    const collection = this.collections.get(name);
    const before = collection?.get(id);
    if (!collection || !before) return false;
    this.note({ kind: 'row', name, collection, id, before });
    collection.delete(id);
    this.changes++;
    return true;
  }

  /** Starts recording undo steps; returns the mark to roll back to. */
  beginUndo(): number {
    this.undoLog ??= [];
    return this.undoLog.length;
  }

  /** Stops recording (the outermost transaction committed). */
  endUndo(): void {
    this.undoLog = null;
  }

  /**
   * Gives `target` the rows and id counters that the writes recorded since `beginUndo` left in this engine.
   * Rows are never changed in place, so both engines share them. Returns the records written, as they were before
   * the first write and are after the last (null when nothing was written).
   */
  publishTo(target: MemoryEngine): StoredWrite[] | null {
    const log = this.undoLog;
    if (!log || log.length === 0) return null;
    // A write's few steps are told apart by looking back; an import's many by key.
    const done = log.length > FEW_STEPS ? new Set<string>() : null;
    const writes: StoredWrite[] = [];
    for (let at = 0; at < log.length; at++) {
      const step = log[at]!;
      if (done === null) {
        if (stepBefore(log, at)) continue;
      } else {
        const key = `${step.kind}\u0000${step.name}\u0000${step.kind === 'row' ? step.id : ''}`;
        if (done.has(key)) continue;
        done.add(key);
      }
      const into = target.collection(step.name);
      if (step.kind === 'highestId') {
        into.highestId = step.collection.highestId;
        continue;
      }
      const row = step.collection.get(step.id);
      if (row) into.put(row);
      else into.delete(step.id);
      writes.push({ collection: step.name, id: step.id, before: step.before ?? null, after: row ?? null });
    }
    target.changes++;
    return writes;
  }

  rollBackTo(mark: number): void {
    const log = this.undoLog;
    if (!log) return;
    if (log.length > mark) this.changes++;
    while (log.length > mark) {
      const step = log.pop()!;
      if (step.kind === 'highestId') {
        step.collection.highestId = step.before;
      } else if (step.before) {
        step.collection.put(step.before);
      } else {
        step.collection.delete(step.id);
      }
    }
  }

  private note(step: UndoStep): void {
    this.undoLog?.push(step);
  }

  private collection(name: string): Collection {
    let collection = this.collections.get(name);
    if (!collection) {
      collection = new Collection(this.options.maxIndexesPerCollection);
      this.collections.set(name, collection);
    }
    return collection;
  }
}
