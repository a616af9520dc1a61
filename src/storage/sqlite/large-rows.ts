import type BetterSqlite3 from 'better-sqlite3';
import type { StoredRecord } from '../../ports/storage.js';
import type { CheckedQuery } from '../query-check.js';
import { decodeRecord } from '../sql/records.js';
import type { ListedIds } from './record-cache.js';

/**
 * Where a connection's large rows are read (writer-worker.ts: on the store's writing thread): their JSON text and
 * decoding cost milliseconds a megabyte, which the main thread must not spend in one call.
 */
export interface LargeRows {
  /** Rows whose binary JSON is longer than this many bytes are read there. */
  readonly minBytes: number;
  read(collection: string, ids: readonly number[]): Promise<{ id: number; record: StoredRecord; size: number }[]>;
  /**
   * The longest text this connection's fold function takes (`registerFold`): a list whose text conditions meet a
   * longer one has its ids selected there instead, through `select`.
   */
  readonly foldLimit: { chars: number };
  select(collection: string, query: CheckedQuery): Promise<ListedIds>;
}

/**
 * A record from its stored JSON text, `id` first: spliced into the text so one `JSON.parse` builds it (which
 * keeps a `__proto__` key an ordinary member). Text naming an `id` member anywhere takes the slower road that
 * leaves a stored `id` out.
 */
export function decodeText(id: number, text: string): StoredRecord {
  if (text.includes('"id"')) return decodeRecord(id, JSON.parse(text));
  return JSON.parse(text === '{}' ? `{"id":${id}}` : `{"id":${id},${text.slice(1)}`) as StoredRecord;
}

/** Records read whole, however large (`LargeRows`: where the time does not matter, or as a last resort). */
export function readRows(db: BetterSqlite3.Database, collection: string, ids: readonly number[]): { id: number; record: StoredRecord; size: number }[] {
  const rows = db.prepare('SELECT id, json(data) AS data FROM quire_records WHERE collection = ? AND id IN (SELECT value FROM json_each(?))')
    .all(collection, JSON.stringify(ids)) as { id: number; data: string }[];
  return rows.map((row) => ({ id: row.id, record: decodeText(row.id, row.data), size: row.data.length }));
}
