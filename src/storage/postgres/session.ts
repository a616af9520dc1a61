import type pg from 'pg';
import type { StoredWrite } from '../../ports/storage.js';
import { copyAsJson } from '../json.js';
import { MEMBER_INDEXED_FIELDS } from '../member-fields.js';
import { COUNTED_FIELDS } from '../sql/counts.js';
import type { RecordSession } from '../sql/session.js';
import { IdCounters } from './id-counters.js';
import type { Queryable, Snapshot } from './long-records.js';
import type { PostgresRecords } from './records.js';

/** What a transaction committed: its writes, and the generation its commit made (null when it cannot tell). */
export interface PostgresCommit {
  readonly generation: number | null;
  readonly written: readonly StoredWrite[];
}

/** A session over a pool (reads) or a transaction's client; nested transactions become savepoints. */
export interface PostgresSession extends RecordSession {
  /**
   * Completes the transaction's writes and commits (the counts merge, when due, and the reading of the
   * generation the commit makes go with the COMMIT).
   */
  commit(): Promise<PostgresCommit>;
}

/**
 * `snapshot`, for a session over the pool: runs reads of several statements inside one read-only snapshot (a page
 * holding long records, read in slices).
 */
export function postgresSession(db: Queryable, records: PostgresRecords, snapshot?: Snapshot): PostgresSession {
  let savepoints = 0;
  let ids = new IdCounters();
  /** Whether a write may have changed the counts, which `commit` then merges. */
  let counted = false;
  /** The rows written, in order (a savepoint rolled back takes its own off again). */
  const written: StoredWrite[] = [];
  return {
    get: (collection, id) => records.get(db, collection, id),
    list: (collection, query) => records.list(db, collection, query, snapshot),
    insert: async (collection, record) => {
      counted = true;
      const stored = await records.insert(db, collection, record, ids);
      // The log keeps its own copy: the caller may change the record it is handed (long texts are shared, not copied).
      written.push({ collection, id: stored.id, before: null, after: copyAsJson(stored) as StoredWrite['after'] });
      return stored;
    },
    update: async (collection, id, patch) => {
      counted ||= [...COUNTED_FIELDS, ...MEMBER_INDEXED_FIELDS].some((field) => Object.hasOwn(patch.set, field) || patch.removed.includes(field));
      const changed = await records.update(db, collection, id, patch);
      if (!changed) return null;
      written.push({ collection, id, before: changed.before, after: copyAsJson(changed.after) as StoredWrite['after'] });
      return changed.after;
    },
    remove: async (collection, id) => {
      counted = true;
      const removed = await records.remove(db, collection, id);
      if (removed) written.push({ collection, id, before: removed, after: null });
      return removed !== null;
    },
    async savepoint(work) {
      const name = `quire_savepoint_${++savepoints}`;
      const idsBefore = ids.copy();
      const writtenBefore = written.length;
      await db.query(`SAVEPOINT ${name}`);
      try {
        const result = await work();
        await db.query(`RELEASE SAVEPOINT ${name}`);
        return result;
      } catch (error) {
        await db.query(`ROLLBACK TO SAVEPOINT ${name}`);
        await db.query(`RELEASE SAVEPOINT ${name}`);
        ids = idsBefore;
        written.length = writtenBefore;
        throw error;
      }
    },
    async commit() {
      await records.storeIds(db, ids);
      const merge = counted ? `${records.mergeCountsSql()}; ` : '';
      if (written.length === 0) {
        await db.query(`${merge}COMMIT`);
        return { generation: null, written };
      }
      const answers = await db.query(`${merge}${records.ownGenerationSql()}; COMMIT`) as unknown;
      const own = (Array.isArray(answers) ? answers as pg.QueryResult[] : [answers as pg.QueryResult])
        .find((answer) => answer.fields?.some((field) => field.name === 'ours'))?.rows[0] as { generation: string; ours: boolean } | undefined;
      return { generation: own?.ours ? Number(own.generation) : null, written };
    },
  };
}
