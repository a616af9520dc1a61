import type { Condition } from '../../ports/storage.js';
import { TEXT_INDEXED_FIELDS } from '../sql/fields.js';
import { foldText } from '../sql/records.js';
import { TEXT_TABLE } from './dialect.js';
import type { StatementCache } from './statements.js';

/** How many changes may wait before they are written anyway, to bound the memory they hold. */
const MAX_WAITING = 1000;

interface TextChange {
  key: number;
  /** Whether the record may have a row to replace. */
  replacing: boolean;
  /** The folded texts of `TEXT_INDEXED_FIELDS`, or null when the record has none (or is gone). */
  texts: (string | null)[] | null;
}

/**
 * The writes to the FTS5 text index (`quire_text`), held back until the transaction commits. FTS5 writes the
 * text it holds in memory out as a new segment whenever a savepoint or a statement that may need undoing starts,
 * so writing each record's text at once made every write of a long transaction produce a segment and merge it
 * — the 50,000th insert of an import cost a hundred times the first. Held back, a transaction's texts go in
 * together, as one segment.
 *
 * While changes wait, the index lags behind the records: a list that would narrow a text condition with it
 * writes them first (see `beforeRead`).
 */
export class TextIndex {
  private waiting: TextChange[] = [];
  /** True while the store's own transaction runs: changes then wait for its commit. */
  holding = false;

  constructor(private readonly statements: StatementCache) {}

  /** Notes the texts a record now has (`fields`), or that it is gone (`null`). */
  change(key: number, fields: Record<string, unknown> | null, replacing: boolean): void {
    const texts = fields && TEXT_INDEXED_FIELDS.map((field) => {
      const value = Object.hasOwn(fields, field) ? fields[field] : undefined;
      return typeof value === 'string' ? foldText(value) : null;
    });
    this.waiting.push({ key, replacing, texts: texts?.some((text) => text !== null) ? texts : null });
    if (!this.holding || this.waiting.length >= MAX_WAITING) this.write();
  }

  /** Writes the waiting changes (inside the transaction that made them). */
  write(): void {
    const changes = this.waiting;
    this.waiting = [];
    const remove = this.statements.get(`DELETE FROM ${TEXT_TABLE} WHERE rowid = ?`);
    const insert = this.statements.get(
      `INSERT INTO ${TEXT_TABLE} (rowid, ${TEXT_INDEXED_FIELDS.join(', ')}) VALUES (?, ${TEXT_INDEXED_FIELDS.map(() => '?').join(', ')})`);
    for (const { key, replacing, texts } of changes) {
      if (replacing) remove.run(key);
      if (texts) insert.run(key, ...texts);
    }
  }

  /** Forgets the waiting changes: their transaction (or savepoint, which starts with none) rolled back. */
  discard(): void {
    this.waiting = [];
  }

  /** Before a list: writes the waiting changes if the list has text conditions the index could narrow. */
  beforeRead(conditions: readonly Condition[]): void {
    if (this.waiting.length > 0 && conditions.some(readsText)) this.write();
  }
}

/** Whether a condition (or one inside it) is a text condition the index narrows. */
export function readsText(condition: Condition): boolean {
  switch (condition.op) {
    case 'textContains':
    case 'textEquals':
      return TEXT_INDEXED_FIELDS.includes(condition.field);
    case 'or':
      return condition.conditions.some(readsText);
    default:
      return false;
  }
}
