import type BetterSqlite3 from 'better-sqlite3';
import type { ListResult, RecordId, StoredRecord, StoredWrite } from '../../ports/storage.js';
import { compileOrder, compileWhere } from '../sql/compile.js';
import { storageError } from '../errors.js';
import { copyAsJson } from '../json.js';
import type { CountedSelection } from '../sql/counts.js';
import { COUNTED_FIELDS, countedSelection, selectsNothing } from '../sql/counts.js';
import { TEXT_INDEXED_FIELDS } from '../sql/fields.js';
import type { CheckedQuery } from '../query-check.js';
import type { EncodedPatch, EncodedRecord } from '../sql/records.js';
import { applyPatch, decodeRecord } from '../sql/records.js';
import type { RecordSession } from '../sql/session.js';
import { COUNTS_TABLE, MEMBERS_TABLE, sqliteDialect } from './dialect.js';
import type { MemberList } from '../sql/member-lists.js';
import { memberList } from '../sql/member-lists.js';
import { type ListedIds, RecordCache, type StateWrites } from './record-cache.js';
import { LongText } from './connections.js';
import { NamedParams, StatementCache } from './statements.js';
import { decodeText, type LargeRows } from './large-rows.js';
import { readsText, TextIndex } from './text-index.js';

/** How many times a read starts again when the data moved while its large rows were read elsewhere. */
const LARGE_READ_TRIES = 3;

/**
 * The record operations on one connection. Each runs synchronously; a write that takes several statements
 * runs them in a transaction of its own, or a savepoint when a transaction is already open.
 */
export class SqliteRecords {
  private readonly statements: StatementCache;
  /** The statements reading one record and several, without and with large rows left to `large`. */
  private readonly selectOne: readonly [string, string];
  private readonly selectSome: readonly [string, string];
  readonly text: TextIndex;
  readonly insert: (collection: string, record: EncodedRecord) => StoredRecord;
  readonly update: (collection: string, id: RecordId, patch: EncodedPatch) => StoredRecord | null;
  readonly remove: (collection: string, id: RecordId) => boolean;

  readonly cache: RecordCache;
  /** False once `recordsOf` read a record the cache did not hold, since `list` set it. */
  private allKept = false;
  /** The writes made since the store last took them (`writtenSince`); null while no one notes them. */
  written: StoredWrite[] | null = null;

  /** `readState`: the `PRAGMA data_version` of a read-only connection, where the store reads it its own way. */
  /** `large`: where rows over its size are read, leaving this connection's thread (see `LargeRows`). */
  constructor(
    private readonly db: BetterSqlite3.Database, writes: StateWrites | null = null, readState?: () => string,
    private readonly large: LargeRows | null = null,
  ) {
    this.statements = new StatementCache(db);
    const data = ['json(data)', large ? `CASE WHEN length(data) > ${large.minBytes} THEN NULL ELSE json(data) END` : 'json(data)'];
    this.selectOne = [`SELECT ${data[0]} AS data FROM quire_records WHERE collection = ? AND id = ?`, `SELECT ${data[1]} AS data FROM quire_records WHERE collection = ? AND id = ?`];
    const some = 'FROM quire_records WHERE collection = ? AND id IN (SELECT value FROM json_each(?))';
    this.selectSome = [`SELECT id, ${data[0]} AS data ${some}`, `SELECT id, ${data[1]} AS data ${some}`];
    const dataVersion = db.prepare('PRAGMA data_version').pluck();
    const totalChanges = db.prepare('SELECT total_changes()').pluck();
    // A read-only connection makes no changes of its own: commits by others are all its state can miss.
    this.cache = new RecordCache(db.readonly
      ? readState ?? (() => String(dataVersion.get() as number))
      : () => `${dataVersion.get() as number}.${totalChanges.get() as number}`, writes);
    this.text = new TextIndex(this.statements);
    this.insert = atomically(db, (collection, record) => this.insertNow(collection, record));
    this.update = atomically(db, (collection, id, patch) => this.updateNow(collection, id, patch));
    this.remove = atomically(db, (collection, id) => this.removeNow(collection, id));
  }

  get(collection: string, id: RecordId, tries = 0): StoredRecord | null | Promise<StoredRecord | null> {
    this.cache.check();
    const cached = this.cache.get(collection, id);
    if (cached) return cached;
    const row = this.statements.get(this.selectOne[this.leavesLarge(tries)])
      .get(collection, id) as { data: string | null } | undefined;
    if (!row) return null;
    if (row.data === null) {
      return this.readLarge(collection, [id]).then((read) => (read ? read.get(id) ?? null : this.get(collection, id, tries + 1)));
    }
    const record = decodeText(id, row.data);
    this.cache.set(collection, record, row.data.length);
    return record;
  }

  /** 1 where large rows are left to `large` on this try (their JSON read as NULL), else 0. */
  private leavesLarge(tries: number): 0 | 1 {
    return this.large && tries < LARGE_READ_TRIES ? 1 : 0;
  }

  /**
   * Large rows read elsewhere, or null when the data moved meanwhile (the read starts again): the rows read there
   * belong to the state this thread's statements saw only while no commit has landed since.
   */
  private async readLarge(collection: string, ids: readonly number[]): Promise<Map<number, StoredRecord> | null> {
    const state = this.cache.checked;
    const rows = await this.large!.read(collection, ids);
    if (this.cache.now() !== state) return null;
    const read = new Map<number, StoredRecord>();
    for (const { id, record, size } of rows) {
      if (this.cache.checked === state) this.cache.set(collection, record, size);
      read.set(id, record);
    }
    return read;
  }

  list(collection: string, query: CheckedQuery, tries = 0): ListResult | Promise<ListResult> {
    this.text.beforeRead(query.conditions);
    // Once for the whole list: its statements run at once, so the state cannot move between them.
    this.cache.check();
    const page = query.shared ? this.cache.page(collection, query) : undefined;
    if (page !== undefined) return query.withTotal ? { items: page.items, total: page.total! } : { items: page.items };
    let listed: ListedIds | undefined;
    // The text index's answer for a long, repetitive text is megabytes of positions to match: such lists' ids are
    // selected elsewhere, then kept as any list's are.
    if (this.leavesLarge(tries) === 1 && query.conditions.some(readsText)) {
      listed = this.cache.kept(collection, query);
      if (listed === undefined) return this.listElsewhere(collection, query, tries);
    }
    const lastTry = this.leavesLarge(tries) === 0 && this.large !== null;
    const limit = this.large?.foldLimit.chars ?? 0;
    if (lastTry) this.large!.foldLimit.chars = Infinity;
    try {
      listed ??= this.cache.listed(collection, query, () => this.select(collection, query));
    } catch (error) {
      if (!(error instanceof LongText)) throw error;
      return this.listElsewhere(collection, query, tries);
    } finally {
      if (lastTry) this.large!.foldLimit.chars = limit;
    }
    this.allKept = true;
    const result = this.listOf(collection, query, listed, tries);
    // Handed out at once, in the state just checked, every record as the cache keeps it.
    if (query.shared && this.allKept && !(result instanceof Promise)) this.cache.keepPage(collection, query, result.items, listed);
    return result;
  }

  /** The ids of a list's page and, when asked, its total, read by SQL (on the writing thread, for `LargeRows`). */
  selectIds(collection: string, query: CheckedQuery): ListedIds {
    this.cache.check();
    return this.cache.listed(collection, query, () => this.select(collection, query));
  }

  /** A list's records, once its ids are known. */
  private listOf(collection: string, query: CheckedQuery, listed: ListedIds, tries: number): ListResult | Promise<ListResult> {
    const items = listed.ids.length === 0 ? [] : this.recordsOf(collection, listed.ids, query.shared, tries);
    if (!Array.isArray(items)) {
      return items.then((read) => (read ? listResult(read, query, listed) : this.list(collection, query, tries + 1)));
    }
    return listResult(items, query, listed);
  }

  /**
   * A list with text conditions (or which met a text too long to fold here): its ids selected by `large`, and
   * used only while the data has not moved since (see `readLarge`).
   */
  private async listElsewhere(collection: string, query: CheckedQuery, tries: number): Promise<ListResult> {
    const state = this.cache.checked;
    const listed = await this.large!.select(collection, query);
    if (this.cache.now() !== state) return this.list(collection, query, tries + 1);
    if (this.cache.checked === state) this.cache.keep(collection, query, listed);
    return this.listOf(collection, query, listed, tries);
  }

  /** The ids of a list's page and, when asked, its total, read by SQL. */
  private select(collection: string, query: CheckedQuery): ListedIds {
    const byMembers = memberList(query.conditions, query.orderBy);
    if (byMembers) return this.selectByMembers(collection, query, byMembers);
    const params = new NamedParams();
    const from = this.recordFrom(collection, query, params);
    let ids: number[] = [];
    if (query.limit !== 0) {
      const page = `ORDER BY ${compileOrder(sqliteDialect, query.orderBy, params)} LIMIT ${params.add(query.limit ?? -1)} OFFSET ${params.add(query.offset)}`;
      ids = this.ids(`SELECT r.id ${from} ${page}`, params);
    }
    if (!query.withTotal) return { ids };
    const counted = countedSelection(query.conditions);
    if (counted) return { ids, total: this.countedTotal(collection, counted) };
    return { ids, total: this.total(`SELECT count(*) AS total ${from}`, params) };
  }

  /**
   * A list of one term's records (sql/member-lists.ts): the members index gives the order and, when it answers
   * every condition, the total; the records joined to it are checked against the other conditions.
   */
  private selectByMembers(collection: string, query: CheckedQuery, plan: MemberList): ListedIds {
    const params = new NamedParams();
    const from = this.memberFrom(collection, plan, params);
    let ids: number[] = [];
    if (query.limit !== 0) {
      const page = `ORDER BY ${memberOrder(plan)} LIMIT ${params.add(query.limit ?? -1)} OFFSET ${params.add(query.offset)}`;
      ids = this.ids(`SELECT r.id ${from} ${page}`, params);
    }
    if (!query.withTotal) return { ids };
    if (plan.countable) {
      const counting = new NamedParams();
      const sql = `SELECT count(*) AS total FROM ${MEMBERS_TABLE} m WHERE ${membersWhere(collection, plan, counting)}`;
      return { ids, total: this.total(sql, counting) };
    }
    return { ids, total: this.total(`SELECT count(*) AS total ${from}`, params) };
  }

  private recordFrom(collection: string, query: CheckedQuery, params: NamedParams): string {
    return `FROM quire_records r WHERE r.collection = ${params.add(collection)} AND ${compileWhere(sqliteDialect, query.conditions, params)}`;
  }

  /** CROSS JOIN keeps the members table outermost, so its index gives the order. */
  private memberFrom(collection: string, plan: MemberList, params: NamedParams): string {
    return `FROM ${MEMBERS_TABLE} m CROSS JOIN quire_records r ON r.key = m.key WHERE ${membersWhere(collection, plan, params)} `
      + `AND r.collection = ${params.add(collection)} AND ${compileWhere(sqliteDialect, plan.rest, params)}`;
  }

  private ids(sql: string, params: NamedParams): number[] {
    return this.statements.get(sql).pluck().all(params.values) as number[];
  }

  /**
   * The records of a page: each from the cache or, for those it lacks, read in one more statement (and large
   * rows elsewhere: then a promise, of null when the data moved meanwhile).
   */
  private recordsOf(collection: string, ids: readonly number[], shared: boolean, tries: number): StoredRecord[] | Promise<StoredRecord[] | null> {
    const items: (StoredRecord | undefined)[] = [];
    let missing: number[] | null = null;
    for (let index = 0; index < ids.length; index++) {
      const record = this.cache.get(collection, ids[index]!, shared);
      if (record === undefined) (missing ??= []).push(ids[index]!);
      items.push(record);
    }
    if (missing === null) return items as StoredRecord[];
    this.allKept = false;
    const rows = this.statements.get(this.selectSome[this.leavesLarge(tries)])
      .all(collection, JSON.stringify(missing)) as { id: number; data: string | null }[];
    const read = new Map<number, StoredRecord>();
    let large: number[] | null = null;
    for (const row of rows) {
      if (row.data === null) {
        (large ??= []).push(row.id);
        continue;
      }
      const record = decodeText(row.id, row.data);
      this.cache.set(collection, record, row.data.length);
      read.set(row.id, record);
    }
    const fill = () => {
      for (let index = 0; index < ids.length; index++) items[index] ??= read.get(ids[index]!)!;
      return items as StoredRecord[];
    };
    if (large === null) return fill();
    return this.readLarge(collection, large).then((elsewhere) => {
      if (!elsewhere) return null;
      for (const [id, record] of elsewhere) read.set(id, record);
      return fill();
    });
  }

  /** A total read from the counts table (see sql/counts.ts). */
  private countedTotal(collection: string, selection: CountedSelection): number {
    if (selectsNothing(selection)) return 0;
    const params = new NamedParams();
    let sql = `SELECT coalesce(sum(records), 0) AS total FROM ${COUNTS_TABLE} WHERE collection = ${params.add(collection)}`;
    for (const field of COUNTED_FIELDS) {
      const values = selection[field];
      if (values) sql += ` AND ${field} IN (SELECT value FROM json_each(${params.add(JSON.stringify(values))}))`;
    }
    return this.total(sql, params);
  }

  private total(sql: string, params: NamedParams): number {
    return (this.statements.get(sql).get(params.values) as { total: number }).total;
  }

  /** Runs a raw `EXPLAIN QUERY PLAN` for a list's page (for tests and tuning). */
  explain(collection: string, query: CheckedQuery): string[] {
    const byMembers = memberList(query.conditions, query.orderBy);
    const params = new NamedParams();
    const from = byMembers ? this.memberFrom(collection, byMembers, params) : this.recordFrom(collection, query, params);
    const order = byMembers ? memberOrder(byMembers) : compileOrder(sqliteDialect, query.orderBy, params);
    const sql = `SELECT r.id, json(r.data) AS data ${from} ORDER BY ${order} LIMIT ${params.add(query.limit ?? -1)} OFFSET ${params.add(query.offset)}`;
    const rows = this.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(params.values) as { detail: string }[];
    return rows.map((row) => row.detail);
  }

  private insertNow(collection: string, record: EncodedRecord): StoredRecord {
    let id: number;
    let key: number;
    if (record.id === undefined) {
      ({ last_id: id } = this.statements.get(
        'INSERT INTO quire_collections (name, last_id) VALUES (?, 1) ON CONFLICT (name) DO UPDATE SET last_id = last_id + 1 RETURNING last_id',
      ).get(collection) as { last_id: number });
      ({ key } = this.statements.get('INSERT INTO quire_records (collection, id, data) VALUES (?, ?, jsonb(?)) RETURNING key')
        .get(collection, id, record.json) as { key: number });
    } else {
      id = record.id;
      const inserted = this.statements.get(
        'INSERT INTO quire_records (collection, id, data) VALUES (?, ?, jsonb(?)) ON CONFLICT (collection, id) DO NOTHING RETURNING key',
      ).get(collection, id, record.json) as { key: number } | undefined;
      if (!inserted) throw storageError('duplicate_id', `A record with id ${id} already exists in "${collection}".`);
      key = inserted.key;
      this.statements.get(
        'INSERT INTO quire_collections (name, last_id) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET last_id = max(last_id, excluded.last_id)',
      ).run(collection, id);
    }
    this.text.change(key, record.fields, false);
    const stored = decodeRecord(id, copyAsJson(record.fields) as Record<string, unknown>);
    this.written?.push({ collection, id, before: null, after: stored });
    return stored;
  }

  private updateNow(collection: string, id: RecordId, patch: EncodedPatch): StoredRecord | null {
    const row = this.statements.get('SELECT key, json(data) AS data FROM quire_records WHERE collection = ? AND id = ?')
      .get(collection, id) as { key: number; data: string } | undefined;
    if (!row) return null;
    // The stored fields as they were, read once: `fields` shares their members until it is dropped below, and
    // they are then the write's record of what was there before.
    const previous = JSON.parse(row.data) as Record<string, unknown>;
    const fields = applyPatch(previous, patch);
    this.statements.get('UPDATE quire_records SET data = jsonb(?) WHERE key = ?').run(JSON.stringify(fields), row.key);
    const touchesText = TEXT_INDEXED_FIELDS.some((field) => Object.hasOwn(patch.set, field) || patch.removed.includes(field));
    if (touchesText) this.text.change(row.key, fields, true);
    const stored = decodeRecord(id, copyAsJson(fields) as Record<string, unknown>);
    this.written?.push({ collection, id, before: decodeRecord(id, previous), after: stored });
    return stored;
  }

  private removeNow(collection: string, id: RecordId): boolean {
    const row = this.statements.get('DELETE FROM quire_records WHERE collection = ? AND id = ? RETURNING key, json(data) AS data')
      .get(collection, id) as { key: number; data: string } | undefined;
    if (!row) return false;
    this.text.change(row.key, null, true);
    this.written?.push({ collection, id, before: decodeRecord(id, JSON.parse(row.data)), after: null });
    return true;
  }
}

function atomically<A extends unknown[], R>(db: BetterSqlite3.Database, operation: (...args: A) => R): (...args: A) => R {
  const transaction = db.transaction(operation);
  return (...args) => transaction.immediate(...args);
}

/**
 * The port-facing session over a connection; nested transactions become savepoints. `onRollback` hears of
 * every savepoint rolled back.
 */
export function sqliteSession(db: BetterSqlite3.Database, records: SqliteRecords, onRollback: () => void): RecordSession {
  let savepoints = 0;
  return {
    get: async (collection, id) => records.get(collection, id),
    list: async (collection, query) => records.list(collection, query),
    insert: async (collection, record) => records.insert(collection, record),
    update: async (collection, id, patch) => records.update(collection, id, patch),
    remove: async (collection, id) => records.remove(collection, id),
    async savepoint(work) {
      const name = `quire_savepoint_${++savepoints}`;
      // The savepoint starts with no text changes waiting, so rolling back to it forgets all that wait then.
      records.text.write();
      db.exec(`SAVEPOINT ${name}`);
      const writtenBefore = records.written?.length ?? 0;
      try {
        const result = await work();
        db.exec(`RELEASE ${name}`);
        return result;
      } catch (error) {
        db.exec(`ROLLBACK TO ${name}`);
        db.exec(`RELEASE ${name}`);
        if (records.written) records.written.length = writtenBefore;
        records.text.discard();
        onRollback();
        throw error;
      }
    },
  };
}

function listResult(items: StoredRecord[], query: CheckedQuery, listed: ListedIds): ListResult {
  return query.withTotal ? { items, total: listed.total! } : { items };
}

/** The members index's own order, which is the records' order by date then id. */
function memberOrder(plan: MemberList): string {
  const direction = plan.direction === 'asc' ? 'ASC' : 'DESC';
  return `m.date ${direction}, m.id ${direction}`;
}

/** The members rows of a term list: its element, collection, type and statuses. */
function membersWhere(collection: string, plan: MemberList, params: NamedParams): string {
  let where = `m.field = ${params.add(plan.field)} AND m.value = ${params.add(plan.value)} `
    + `AND m.collection = ${params.add(collection)} AND m.type = ${params.add(plan.type)}`;
  for (const statuses of plan.statuses) {
    where += statuses.length === 0 ? ' AND FALSE' : ` AND m.status IN (${statuses.map((status) => params.add(status)).join(', ')})`;
  }
  return where;
}
