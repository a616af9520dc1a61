import type pg from 'pg';
import type { ListResult, RecordId, StoredRecord, StoredWrite } from '../../ports/storage.js';
import { compileOrder, compileWhere } from '../sql/compile.js';
import { queryWithoutNul } from '../sql/nul.js';
import type { SqlDialect } from '../sql/dialect.js';
import { storageError } from '../errors.js';
import { copyAsJson } from '../json.js';
import type { CountedSelection } from '../sql/counts.js';
import { COUNTED_FIELDS, countedSelection, selectsNothing } from '../sql/counts.js';
import type { CheckedQuery } from '../query-check.js';
import type { EncodedPatch, EncodedRecord } from '../sql/records.js';
import { decodeRecord, foldedStrings, foldText } from '../sql/records.js';
import type { RecordSession } from '../sql/session.js';
import { orderKey, postgresDialectFor } from './dialect.js';
import type { MemberList } from '../sql/member-lists.js';
import { memberList } from '../sql/member-lists.js';
import { MEMBER_INDEXED_FIELDS } from '../member-fields.js';
import { IdCounters } from './id-counters.js';

/** A pool (for reads outside transactions) or one checked-out client (inside a transaction). */
export type Queryable = Pick<pg.Pool | pg.PoolClient, 'query'>;

/** Positional parameters (`$1`, `$2`...). */
export class PositionalParams {
  readonly values: unknown[] = [];

  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

/** The record statements, for one schema. */
export class PostgresRecords {
  private readonly records: string;
  private readonly members: string;
  private readonly memberCounts: string;
  private readonly memberCountChanges: string;
  private readonly collections: string;
  private readonly counts: string;
  private readonly countChanges: string;
  private readonly changes: string;
  private readonly dialect: SqlDialect;

  constructor(schema: string) {
    this.dialect = postgresDialectFor(schema);
    this.records = `${schema}.quire_records`;
    this.members = `${schema}.quire_members`;
    this.memberCounts = `${schema}.quire_member_counts`;
    this.memberCountChanges = `${schema}.quire_member_count_changes`;
    this.collections = `${schema}.quire_collections`;
    this.counts = `${schema}.quire_counts`;
    this.countChanges = `${schema}.quire_count_changes`;
    this.changes = `${schema}.quire_changes`;
  }

  async get(db: Queryable, collection: string, id: RecordId): Promise<StoredRecord | null> {
    const { rows } = await db.query<{ data: Record<string, unknown> }>(
      `SELECT data FROM ${this.records} WHERE collection = $1 AND id = $2`, [collection, id]);
    return rows[0] ? decodeRecord(id, rows[0].data) : null;
  }

  /**
   * One statement answers the page and its total together (one round trip, one snapshot); only a page that
   * comes back empty needs a second statement for the total.
   */
  async list(db: Queryable, collection: string, given: CheckedQuery): Promise<ListResult> {
    const query = queryWithoutNul(given);
    if (query.limit !== 0) {
      const { sql, params } = this.pageStatement(collection, query, query.withTotal);
      const { rows } = await db.query<{ id: string; data: Record<string, unknown>; total?: string }>(sql, params);
      const items = rows.map((row) => decodeRecord(Number(row.id), row.data));
      if (!query.withTotal) return { items };
      if (rows.length > 0) return { items, total: Number(rows[0]!.total) };
    } else if (!query.withTotal) {
      return { items: [] };
    }
    const params = new PositionalParams();
    const { rows } = await db.query<{ total: string }>(`SELECT ${this.totalSql(collection, query, params)} AS total`, params.values);
    return { items: [], total: Number(rows[0]!.total) };
  }

  pageStatement(collection: string, given: CheckedQuery, withTotal = false): { sql: string; params: unknown[] } {
    const query = queryWithoutNul(given);
    const params = new PositionalParams();
    const total = withTotal ? `, ${this.totalSql(collection, query, params)} AS total` : '';
    const byMembers = memberList(query.conditions, query.orderBy);
    const from = byMembers ? this.memberFrom(collection, byMembers, params) : this.from(collection, query, params);
    const order = byMembers ? this.memberOrder(byMembers, params) : compileOrder(this.dialect, query.orderBy, params);
    const page = `LIMIT ${params.add(query.limit)}::bigint OFFSET ${params.add(query.offset)}::bigint`;
    return { sql: `SELECT r.id, r.data${total} ${from} ORDER BY ${order} ${page}`, params: params.values };
  }

  /**
   * The total as a scalar subquery: from the counts table when the conditions allow (sql/counts.ts), from the
   * members index for a term list it answers (sql/member-lists.ts), else counted.
   */
  private totalSql(collection: string, query: CheckedQuery, params: PositionalParams): string {
    const counted = countedSelection(query.conditions);
    if (counted) return this.countedTotalSql(collection, counted, params);
    const byMembers = memberList(query.conditions, query.orderBy);
    if (byMembers?.countable) return this.memberCountSql(collection, byMembers, params);
    const from = byMembers ? this.memberFrom(collection, byMembers, params) : this.from(collection, query, params);
    return `(SELECT count(*) ${from})`;
  }

  /** A term list's total from the term counts, plus the changes not merged into them yet (schema.ts, migration 6). */
  private memberCountSql(collection: string, plan: MemberList, params: PositionalParams): string {
    let where = `field = ${params.add(plan.field)}::text AND value = ${params.add(JSON.stringify(plan.value))}::jsonb `
      + `AND collection = ${params.add(collection)} AND type = ${params.add(orderKey(plan.type))}::text`;
    for (const statuses of plan.statuses) where += ` AND status = ANY(${params.add(statuses.map(orderKey))}::text[])`;
    return `(SELECT coalesce(sum(n), 0)::bigint FROM (SELECT records AS n FROM ${this.memberCounts} WHERE ${where} `
      + `UNION ALL SELECT change FROM ${this.memberCountChanges} WHERE ${where}) AS counted)`;
  }

  /** A term list's members rows: its element, collection, type and statuses (typed columns hold order keys). */
  private membersWhere(collection: string, plan: MemberList, params: PositionalParams): string {
    let where = `m.field = ${params.add(plan.field)}::text AND m.value = ${params.add(JSON.stringify(plan.value))}::jsonb `
      + `AND m.collection = ${params.add(collection)} AND m.type = ${params.add(orderKey(plan.type))}::text`;
    for (const statuses of plan.statuses) where += ` AND m.status = ANY(${params.add(statuses.map(orderKey))}::text[])`;
    return where;
  }

  private memberFrom(collection: string, plan: MemberList, params: PositionalParams): string {
    return `FROM ${this.members} m JOIN ${this.records} r ON r.collection = m.collection AND r.id = m.id `
      + `WHERE ${this.membersWhere(collection, plan, params)} AND ${compileWhere(this.dialect, plan.rest, params)}`;
  }

  /**
   * The records' order by date through the members index: its date column (the records' typed column) leads;
   * the terms that order dates of other types, which only records without a string date need, come before the id.
   */
  private memberOrder(plan: MemberList, params: PositionalParams): string {
    const direction = plan.direction === 'asc' ? 'ASC' : 'DESC';
    const [, ...others] = this.dialect.orderTerms('date', plan.direction, params);
    return [`m.date ${direction} NULLS ${plan.direction === 'asc' ? 'FIRST' : 'LAST'}`, ...others, `m.id ${direction}`].join(', ');
  }

  /** The counted rows of a key, plus the changes not merged into them yet (schema.ts). */
  private countedTotalSql(collection: string, selection: CountedSelection, params: PositionalParams): string {
    if (selectsNothing(selection)) return '0::bigint';
    let where = `collection = ${params.add(collection)}`;
    for (const field of COUNTED_FIELDS) {
      const values = selection[field];
      // The generated columns hold strings in their order-key form (dialect.ts).
      if (values) where += ` AND ${field} = ANY(${params.add(values.map(orderKey))}::text[])`;
    }
    return `(SELECT coalesce(sum(n), 0)::bigint FROM (SELECT records AS n FROM ${this.counts} WHERE ${where} `
      + `UNION ALL SELECT change FROM ${this.countChanges} WHERE ${where}) AS counted)`;
  }

  private from(collection: string, query: CheckedQuery, params: PositionalParams): string {
    return `FROM ${this.records} r WHERE r.collection = ${params.add(collection)} AND ${compileWhere(this.dialect, query.conditions, params)}`;
  }

  /** The change token: the generation the trigger on the records table raises in every writing transaction. */
  async generation(db: Queryable): Promise<string> {
    const { rows } = await db.query<{ generation: string }>(`SELECT generation FROM ${this.changes}`);
    return rows[0]!.generation;
  }

  /**
   * The statement that moves the `+1`/`-1` rows the trigger appended (by this transaction, or by writers that do
   * not merge) into `quire_counts`: one update per key, or a new row for a new key. It takes no parameters, so
   * it can travel with the COMMIT. Every merge runs under the schema's write lock, so two never race.
   */
  mergeCountsSql(): string {
    const sameKey = (a: string, b: string) =>
      `${a}.collection = ${b}.collection AND ${a}.type IS NOT DISTINCT FROM ${b}.type AND ${a}.status IS NOT DISTINCT FROM ${b}.status`;
    return `WITH moved AS (DELETE FROM ${this.countChanges} RETURNING collection, type, status, change),
       sums AS (SELECT collection, type, status, sum(change) AS change FROM moved GROUP BY collection, type, status),
       updated AS (
         UPDATE ${this.counts} c SET records = c.records + s.change FROM sums s WHERE ${sameKey('c', 's')}
         RETURNING c.collection, c.type, c.status)
       INSERT INTO ${this.counts} (collection, type, status, records)
       SELECT s.collection, s.type, s.status, s.change FROM sums s WHERE NOT EXISTS (SELECT 1 FROM updated u WHERE ${sameKey('u', 's')});
     ${this.mergeMemberCountsSql()}`;
  }

  /** The same merge for the term counts (schema.ts, migration 6). */
  private mergeMemberCountsSql(): string {
    const sameKey = (a: string, b: string) => `${a}.field = ${b}.field AND ${a}.value = ${b}.value AND ${a}.collection = ${b}.collection `
      + `AND ${a}.type IS NOT DISTINCT FROM ${b}.type AND ${a}.status IS NOT DISTINCT FROM ${b}.status`;
    return `WITH moved AS (DELETE FROM ${this.memberCountChanges} RETURNING field, value, collection, type, status, change),
       sums AS (SELECT field, value, collection, type, status, sum(change) AS change FROM moved GROUP BY field, value, collection, type, status),
       updated AS (
         UPDATE ${this.memberCounts} c SET records = c.records + s.change FROM sums s WHERE ${sameKey('c', 's')}
         RETURNING c.field, c.value, c.collection, c.type, c.status)
       INSERT INTO ${this.memberCounts} (field, value, collection, type, status, records)
       SELECT s.field, s.value, s.collection, s.type, s.status, s.change FROM sums s WHERE NOT EXISTS (SELECT 1 FROM updated u WHERE ${sameKey('u', 's')})`;
  }

  /**
   * Inserts a record. `ids` holds the collection's id counter as this transaction last left it, if known:
   * the first insert into a collection bumps the counter row in the same statement and learns its value; later
   * ones only insert, and `storeIds` writes the counter back once (updating one row over and over inside a
   * transaction would leave a long chain of row versions to walk).
   */
  async insert(db: Queryable, collection: string, record: EncodedRecord, ids: IdCounters): Promise<StoredRecord> {
    const folded = JSON.stringify(foldedStrings(record.fields));
    const known = ids.lastId(collection);
    if (record.id === undefined) {
      if (known !== undefined) {
        await db.query(`INSERT INTO ${this.records} (collection, id, data, folded) VALUES ($1, $2, $3::jsonb, $4::jsonb)`,
          [collection, known + 1, record.json, folded]);
        ids.set(collection, known + 1, false);
        return decodeRecord(known + 1, copyAsJson(record.fields) as Record<string, unknown>);
      }
      const { rows } = await db.query<{ id: string }>(
        `WITH next AS (
           INSERT INTO ${this.collections} AS c (name, last_id) VALUES ($1, 1)
           ON CONFLICT (name) DO UPDATE SET last_id = c.last_id + 1
           RETURNING last_id)
         INSERT INTO ${this.records} (collection, id, data, folded)
         SELECT $1, last_id, $2::jsonb, $3::jsonb FROM next
         RETURNING id`,
        [collection, record.json, folded]);
      const id = Number(rows[0]!.id);
      ids.set(collection, id, true);
      return decodeRecord(id, copyAsJson(record.fields) as Record<string, unknown>);
    }
    const inserted = known !== undefined
      ? await this.insertWithId(db, collection, record, folded)
      : await this.insertWithIdCounting(db, collection, record, folded, ids);
    if (!inserted) throw storageError('duplicate_id', `A record with id ${record.id} already exists in "${collection}".`);
    if (known !== undefined && record.id > known) ids.set(collection, record.id, false);
    return decodeRecord(record.id, copyAsJson(record.fields) as Record<string, unknown>);
  }

  private async insertWithId(db: Queryable, collection: string, record: EncodedRecord, folded: string): Promise<boolean> {
    const { rowCount } = await db.query(
      `INSERT INTO ${this.records} (collection, id, data, folded) VALUES ($1, $2, $3::jsonb, $4::jsonb)
       ON CONFLICT (collection, id) DO NOTHING`,
      [collection, record.id, record.json, folded]);
    return rowCount === 1;
  }

  private async insertWithIdCounting(
    db: Queryable, collection: string, record: EncodedRecord, folded: string, ids: IdCounters,
  ): Promise<boolean> {
    const { rows } = await db.query<{ inserted: string; last_id: string | null }>(
      `WITH inserted AS (
         INSERT INTO ${this.records} (collection, id, data, folded) VALUES ($1, $2, $3::jsonb, $4::jsonb)
         ON CONFLICT (collection, id) DO NOTHING
         RETURNING id),
       counted AS (
         INSERT INTO ${this.collections} AS c (name, last_id) SELECT $1, id FROM inserted
         ON CONFLICT (name) DO UPDATE SET last_id = greatest(c.last_id, excluded.last_id)
         RETURNING last_id)
       SELECT (SELECT count(*) FROM inserted) AS inserted, (SELECT last_id FROM counted) AS last_id`,
      [collection, record.id, record.json, folded]);
    if (rows[0]!.last_id !== null) ids.set(collection, Number(rows[0]!.last_id), true);
    return Number(rows[0]!.inserted) === 1;
  }

  /** Writes back the counters that inserts advanced after the first one (see `insert`). */
  async storeIds(db: Queryable, ids: IdCounters): Promise<void> {
    for (const [collection, lastId] of ids.unstored()) {
      await db.query(`UPDATE ${this.collections} SET last_id = $2 WHERE name = $1`, [collection, lastId]);
    }
  }

  /** Updates a record; it as it was and is, or null when there is none. */
  async update(db: Queryable, collection: string, id: RecordId, patch: EncodedPatch): Promise<{ before: StoredRecord; after: StoredRecord } | null> {
    const foldedSet: Record<string, string> = {};
    const foldedRemoved = [...patch.removed];
    for (const [field, value] of Object.entries(patch.set)) {
      if (typeof value === 'string') Object.defineProperty(foldedSet, field, { value: foldText(value), enumerable: true });
      else foldedRemoved.push(field);
    }
    // The record as it was, locked first, so that no other writer's version comes between it and the update.
    const { rows } = await db.query<{ data: Record<string, unknown>; before: Record<string, unknown> }>(
      `WITH old AS (SELECT data FROM ${this.records} WHERE collection = $1 AND id = $2 FOR UPDATE)
       UPDATE ${this.records} r
          SET data = (r.data || $3::jsonb) - $4::text[], folded = (r.folded || $5::jsonb) - $6::text[]
         FROM old
        WHERE r.collection = $1 AND r.id = $2
        RETURNING r.data, old.data AS before`,
      [collection, id, JSON.stringify(patch.set), patch.removed, JSON.stringify(foldedSet), foldedRemoved]);
    return rows[0] ? { before: decodeRecord(id, rows[0].before), after: decodeRecord(id, rows[0].data) } : null;
  }

  /** Removes a record; what it was, or null when there was none. */
  async remove(db: Queryable, collection: string, id: RecordId): Promise<StoredRecord | null> {
    const { rows } = await db.query<{ data: Record<string, unknown> }>(
      `DELETE FROM ${this.records} WHERE collection = $1 AND id = $2 RETURNING data`, [collection, id]);
    return rows[0] ? decodeRecord(id, rows[0].data) : null;
  }

  /**
   * A statement telling, inside a writing transaction, the generation its commit makes (`generation`), and
   * whether this transaction raised it (`ours`): the trigger does so on the transaction's first written row.
   */
  ownGenerationSql(): string {
    return `SELECT generation::text AS generation, xid = txid_current() AS ours FROM ${this.changes}`;
  }
}

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

export function postgresSession(db: Queryable, records: PostgresRecords): PostgresSession {
  let savepoints = 0;
  let ids = new IdCounters();
  /** Whether a write may have changed the counts, which `commit` then merges. */
  let counted = false;
  /** The rows written, in order (a savepoint rolled back takes its own off again). */
  const written: StoredWrite[] = [];
  return {
    get: (collection, id) => records.get(db, collection, id),
    list: (collection, query) => records.list(db, collection, query),
    insert: async (collection, record) => {
      counted = true;
      const stored = await records.insert(db, collection, record, ids);
      // The log keeps its own copy: the caller may change the record it is handed.
      written.push({ collection, id: stored.id, before: null, after: structuredClone(stored) });
      return stored;
    },
    update: async (collection, id, patch) => {
      counted ||= [...COUNTED_FIELDS, ...MEMBER_INDEXED_FIELDS].some((field) => Object.hasOwn(patch.set, field) || patch.removed.includes(field));
      const changed = await records.update(db, collection, id, patch);
      if (!changed) return null;
      written.push({ collection, id, before: changed.before, after: structuredClone(changed.after) });
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
