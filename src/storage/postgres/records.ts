import type { ListResult, RecordId, StoredRecord } from '../../ports/storage.js';
import { compileOrder, compileWhere } from '../sql/compile.js';
import { queryWithoutNul } from '../sql/nul.js';
import type { SqlDialect } from '../sql/dialect.js';
import { storageError } from '../errors.js';
import { copyAsJson } from '../json.js';
import type { CountedSelection } from '../sql/counts.js';
import { COUNTED_FIELDS, countedSelection, selectsNothing } from '../sql/counts.js';
import type { CheckedQuery } from '../query-check.js';
import type { EncodedPatch, EncodedRecord } from '../sql/records.js';
import { nextTurn } from '../../format/turn.js';
import { decodeRecord, foldedStrings } from '../sql/records.js';
import { orderKey, postgresDialectFor } from './dialect.js';
import type { MemberList } from '../sql/member-lists.js';
import { memberList } from '../sql/member-lists.js';
import { IdCounters } from './id-counters.js';
import { LongRecords, type Queryable, type Snapshot } from './long-records.js';


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
  readonly long: LongRecords;

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
    this.long = new LongRecords(schema, this.records);
  }

  async get(db: Queryable, collection: string, id: RecordId): Promise<StoredRecord | null> {
    const { rows } = await db.query<{ data: Record<string, unknown> | null }>(
      `SELECT ${this.long.shortData('r')} AS data FROM ${this.records} r WHERE collection = $1 AND id = $2`, [collection, id]);
    if (!rows[0]) return null;
    const data = rows[0].data ?? await this.long.read(db, collection, id);
    return data ? decodeRecord(id, data) : null;
  }

  /**
   * One statement answers the page and its total together (one round trip, one snapshot); only a page that
   * comes back empty needs a second statement for the total. A page holding long records reads them in slices
   * (long-records.ts): inside a transaction as it is, else again whole inside a snapshot that `snapshot` opens,
   * so that the page, its total and the long records are of one state.
   */
  async list(db: Queryable, collection: string, given: CheckedQuery, snapshot?: Snapshot): Promise<ListResult> {
    const query = queryWithoutNul(given);
    if (query.limit !== 0) {
      const { sql, params } = this.pageStatement(collection, query, query.withTotal);
      const { rows } = await db.query<{ id: string; data: Record<string, unknown> | null; total?: string }>(sql, params);
      if (rows.some((row) => row.data === null)) {
        if (snapshot) return snapshot((inSnapshot) => this.list(inSnapshot, collection, given));
        for (const row of rows) row.data ??= await this.long.read(db, collection, Number(row.id));
      }
      const items = rows.filter((row) => row.data !== null).map((row) => decodeRecord(Number(row.id), row.data!));
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
    return { sql: `SELECT r.id, ${this.long.shortData('r')} AS data${total} ${from} ORDER BY ${order} ${page}`, params: params.values };
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
    const json = await this.jsonArguments(db, record.fields, () => record.json);
    const known = ids.lastId(collection);
    let id: number;
    if (record.id === undefined) {
      if (known !== undefined) {
        await db.query(`INSERT INTO ${this.records} (collection, id, data, folded) VALUES ($1, $2, ${json.sql(3)}, ${json.sql(4)})`,
          [collection, known + 1, json.data, json.folded]);
        ids.set(collection, known + 1, false);
        id = known + 1;
      } else {
        const { rows } = await db.query<{ id: string }>(
          `WITH next AS (
             INSERT INTO ${this.collections} AS c (name, last_id) VALUES ($1, 1)
             ON CONFLICT (name) DO UPDATE SET last_id = c.last_id + 1
             RETURNING last_id)
           INSERT INTO ${this.records} (collection, id, data, folded)
           SELECT $1, last_id, ${json.sql(2)}, ${json.sql(3)} FROM next
           RETURNING id`,
          [collection, json.data, json.folded]);
        id = Number(rows[0]!.id);
        ids.set(collection, id, true);
      }
    } else {
      const inserted = known !== undefined
        ? await this.insertWithId(db, collection, record.id, json)
        : await this.insertWithIdCounting(db, collection, record.id, json, ids);
      if (json.staged) await this.long.unstage(db);
      if (!inserted) throw storageError('duplicate_id', `A record with id ${record.id} already exists in "${collection}".`);
      if (known !== undefined && record.id > known) ids.set(collection, record.id, false);
      return decodeRecord(record.id, copyAsJson(record.fields) as Record<string, unknown>);
    }
    if (json.staged) await this.long.unstage(db);
    return decodeRecord(id, copyAsJson(record.fields) as Record<string, unknown>);
  }

  /**
   * How a write sends fields and their folded strings: as two parameters of JSON text, or, when long, staged in
   * pieces (long-records.ts), the parameters then naming the slots.
   */
  private async jsonArguments(db: Queryable, fields: Record<string, unknown>, json: () => string): Promise<JsonArguments> {
    if (!this.long.isLong(fields)) {
      return { data: json(), folded: JSON.stringify(foldedStrings(fields)), staged: false, sql: (param) => `$${param}::jsonb` };
    }
    // The checks of the record ran in this turn already.
    await nextTurn();
    await this.long.stage(db, 'data', fields);
    const folded = foldedStrings(fields);
    await nextTurn();
    await this.long.stage(db, 'folded', folded);
    return { data: 'data', folded: 'folded', staged: true, sql: (param) => this.long.stagedJson(`$${param}`) };
  }

  private async insertWithId(db: Queryable, collection: string, id: RecordId, json: JsonArguments): Promise<boolean> {
    const { rowCount } = await db.query(
      `INSERT INTO ${this.records} (collection, id, data, folded) VALUES ($1, $2, ${json.sql(3)}, ${json.sql(4)})
       ON CONFLICT (collection, id) DO NOTHING`,
      [collection, id, json.data, json.folded]);
    return rowCount === 1;
  }

  private async insertWithIdCounting(db: Queryable, collection: string, id: RecordId, json: JsonArguments, ids: IdCounters): Promise<boolean> {
    const { rows } = await db.query<{ inserted: string; last_id: string | null }>(
      `WITH inserted AS (
         INSERT INTO ${this.records} (collection, id, data, folded) VALUES ($1, $2, ${json.sql(3)}, ${json.sql(4)})
         ON CONFLICT (collection, id) DO NOTHING
         RETURNING id),
       counted AS (
         INSERT INTO ${this.collections} AS c (name, last_id) SELECT $1, id FROM inserted
         ON CONFLICT (name) DO UPDATE SET last_id = greatest(c.last_id, excluded.last_id)
         RETURNING last_id)
       SELECT (SELECT count(*) FROM inserted) AS inserted, (SELECT last_id FROM counted) AS last_id`,
      [collection, id, json.data, json.folded]);
    if (rows[0]!.last_id !== null) ids.set(collection, Number(rows[0]!.last_id), true);
    return Number(rows[0]!.inserted) === 1;
  }

  /** Writes back the counters that inserts advanced after the first one (see `insert`). */
  async storeIds(db: Queryable, ids: IdCounters): Promise<void> {
    for (const [collection, lastId] of ids.unstored()) {
      await db.query(`UPDATE ${this.collections} SET last_id = $2 WHERE name = $1`, [collection, lastId]);
    }
  }

  /**
   * Updates a record; it as it was and is, or null when there is none. A short patch of a short record is one
   * statement; a long patch or a long record has the record as it was read first (locked), then updated.
   */
  async update(db: Queryable, collection: string, id: RecordId, patch: EncodedPatch): Promise<{ before: StoredRecord; after: StoredRecord } | null> {
    if (!this.long.isLong(patch.set)) {
      // The record as it was, locked first, so that no other writer's version comes between it and the update.
      const { rows } = await db.query<{ data: Record<string, unknown> | null; before: Record<string, unknown> }>(
        `WITH old AS (SELECT data, data_length FROM ${this.records} WHERE collection = $1 AND id = $2 FOR UPDATE)
         UPDATE ${this.records} r
            SET data = (r.data || $3::jsonb) - $4::text[], folded = (r.folded || $5::jsonb) - $6::text[]
           FROM old
          WHERE r.collection = $1 AND r.id = $2 AND ${this.long.isShort('old')}
          RETURNING ${this.long.shortData('r')} AS data, old.data AS before`,
        [collection, id, JSON.stringify(patch.set), patch.removed, JSON.stringify(foldedStrings(patch.set)), foldedRemoved(patch)]);
      if (rows[0]) return { before: decodeRecord(id, rows[0].before), after: await this.written(db, collection, id, rows[0].data) };
    }
    const before = await this.locked(db, collection, id);
    if (!before) return null;
    const json = await this.jsonArguments(db, patch.set, () => JSON.stringify(patch.set));
    const { rows } = await db.query<{ data: Record<string, unknown> | null }>(
      `UPDATE ${this.records} r SET data = (r.data || ${json.sql(3)}) - $4::text[], folded = (r.folded || ${json.sql(5)}) - $6::text[]
        WHERE r.collection = $1 AND r.id = $2
        RETURNING ${this.long.shortData('r')} AS data`,
      [collection, id, json.data, patch.removed, json.folded, foldedRemoved(patch)]);
    if (json.staged) await this.long.unstage(db);
    return { before: decodeRecord(id, before), after: await this.written(db, collection, id, rows[0]!.data) };
  }

  /** A record as a write left it: `data` when the statement answered it (short), else read in slices. */
  private async written(db: Queryable, collection: string, id: RecordId, data: Record<string, unknown> | null): Promise<StoredRecord> {
    return decodeRecord(id, data ?? (await this.long.read(db, collection, id))!);
  }

  /** A record's fields, its row locked for the writing transaction; null when there is none. */
  private async locked(db: Queryable, collection: string, id: RecordId): Promise<Record<string, unknown> | null> {
    const { rows } = await db.query<{ data: Record<string, unknown> | null }>(
      `SELECT ${this.long.shortData('r')} AS data FROM ${this.records} r WHERE collection = $1 AND id = $2 FOR UPDATE`, [collection, id]);
    if (!rows[0]) return null;
    return rows[0].data ?? await this.long.read(db, collection, id);
  }

  /** Removes a record; what it was, or null when there was none. A long record is read (locked) first. */
  async remove(db: Queryable, collection: string, id: RecordId): Promise<StoredRecord | null> {
    const { rows } = await db.query<{ data: Record<string, unknown> }>(
      `DELETE FROM ${this.records} r WHERE collection = $1 AND id = $2 AND ${this.long.isShort('r')} RETURNING data`, [collection, id]);
    if (rows[0]) return decodeRecord(id, rows[0].data);
    const before = await this.locked(db, collection, id);
    if (!before) return null;
    await db.query(`DELETE FROM ${this.records} WHERE collection = $1 AND id = $2`, [collection, id]);
    return decodeRecord(id, before);
  }

  /**
   * A statement telling, inside a writing transaction, the generation its commit makes (`generation`), and
   * whether this transaction raised it (`ours`): the trigger does so on the transaction's first written row.
   */
  ownGenerationSql(): string {
    return `SELECT generation::text AS generation, xid = txid_current() AS ours FROM ${this.changes}`;
  }
}

/** A write's JSON arguments: text, or the slots it was staged in (`sql` gives the jsonb of parameter `$n`). */
interface JsonArguments { data: string; folded: string; staged: boolean; sql: (param: number) => string }

/** The folded members a patch removes: those of the fields it removes, or sets to something other than a string. */
function foldedRemoved(patch: EncodedPatch): string[] {
  const removed = [...patch.removed];
  for (const [field, value] of Object.entries(patch.set)) {
    if (typeof value !== 'string') removed.push(field);
  }
  return removed;
}

