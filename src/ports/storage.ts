/**
 * The storage port: named collections of JSON records with integer ids, a structured list query, and
 * transactions. Every store (memory, SQLite, PostgreSQL, or a third party's) implements this and must pass the
 * conformance suite `runStorageConformance` from `quire/testing` (src/testing).
 *
 * Value model
 * - Records hold JSON values only (string, finite number, boolean, null, arrays, plain objects). Stores reject
 *   anything else with an `invalid_record` error. A top-level `undefined` means "no such field".
 * - Fields are addressed by their top-level name; there are no paths into nested objects. Keep what you query
 *   at the top level.
 * - A missing field reads as `null`. An array condition treats a missing or null field as an empty array.
 * - Logic is two-valued: `null` is an ordinary value (`eq null` matches missing fields, `ne 'x'` matches them
 *   too), never SQL's "unknown".
 * - Order: `null` first, then booleans (false < true), numbers (numerically), strings (by UTF-16 code unit, so
 *   `YYYY-MM-DDTHH:MM:SS` dates sort by time). A field should hold one type plus `null`; ordering across other
 *   types, and ordering by array or object values, is up to the store.
 */

export type RecordId = number;

/** A stored record. `id` is a positive integer, unique within its collection. */
export interface StoredRecord {
  id: RecordId;
  [field: string]: unknown;
}

/** What `insert` accepts: a record whose `id` is optional (assigned when absent). */
export type NewRecord = { id?: RecordId; [field: string]: unknown };

export type Scalar = string | number | boolean | null;

/**
 * A condition on a record.
 *
 * - `eq`/`ne`/`in`/`notIn` use strict equality (`1` never equals `'1'`).
 * - `lt`/`lte`/`gt`/`gte` only match values of the operand's type; `null` and missing never match a range.
 * - `containsAny`/`containsAll`/`containsNone` read an array-valued field (strict equality per element). With an
 *   empty `values`: containsAny matches nothing, containsAll and containsNone match everything. Likewise an
 *   empty `in` matches nothing and an empty `notIn` everything.
 * - `textContains` (case-insensitive substring) and `textEquals` (case-insensitive whole value) read string
 *   fields; other values read as `''`. Case folding is `String.prototype.toLowerCase`. No wildcard characters:
 *   `%` and `_` are literal.
 * - `and` of nothing holds, `or` of nothing does not.
 */
export type Condition =
  | { field: string; op: 'eq' | 'ne' | 'lt' | 'lte' | 'gt' | 'gte'; value: Scalar }
  | { field: string; op: 'in' | 'notIn'; values: Scalar[] }
  | { field: string; op: 'containsAny' | 'containsAll' | 'containsNone'; values: (string | number)[] }
  | { field: string; op: 'textContains' | 'textEquals'; value: string }
  | { op: 'and' | 'or'; conditions: Condition[] }
  | { op: 'not'; condition: Condition };

/**
 * Text search, already split into terms by the caller. The reference's tokeniser (quoted phrases, stop-words,
 * dropped single letters, the ten-term fallback) is resource behaviour, so it stays out of the stores; a store
 * only matches terms.
 *
 * Same as: every term matches (`textContains`, or `textEquals` when `match` is `'equals'`) at least one of
 * `fields`, and no excluded term matches any of them.
 */
export interface TextSearch {
  fields: string[];
  terms: string[];
  excludedTerms?: string[];
  /** `'contains'` (default): substring. `'equals'`: the whole field — the reference's `search_semantics=exact`,
   *  which still splits the text into terms and asks each to equal a whole title, excerpt or content. */
  match?: 'contains' | 'equals';
}

/**
 * One sort key. `rank` orders by the position of the first condition a record satisfies (records satisfying
 * none come last); it expresses "order by position in a list" (`eq` conditions on one field, as for
 * `orderby=include`) and relevance ranks alike.
 */
export type SortKey = { field: string; direction: 'asc' | 'desc' } | { rank: Condition[] };

export interface ListQuery {
  /** All must hold. */
  where?: Condition[];
  search?: TextSearch;
  /** Applied in order; remaining ties are broken by `id`, in the direction of the last field key (ascending when
   *  there is none). Without `orderBy`: ascending `id`. */
  orderBy?: SortKey[];
  /** Non-negative integers; a missing `limit` means no limit, `limit: 0` returns no items (useful for counting). */
  offset?: number;
  limit?: number;
  /** When true, `total` is the number of matching records, ignoring `offset` and `limit`. */
  withTotal?: boolean;
  /**
   * When true, the caller only reads the records: a store may hand out the records it holds, deeply frozen,
   * instead of copies (the memory store does; a record is then shared by every reader and can change nothing).
   * Without it, records are copies the caller may change.
   */
  shared?: boolean;
}

/** One committed write (`writtenSince`): the record before and after it, null where there was none. */
export interface StoredWrite {
  collection: string;
  id: RecordId;
  before: StoredRecord | null;
  after: StoredRecord | null;
}

export interface ListResult {
  items: StoredRecord[];
  /** Present exactly when the query asked `withTotal`. */
  total?: number;
}

/**
 * The port. Records are copied in and out: mutating an argument or a result never changes stored state.
 * Collections exist implicitly; reading an unknown one yields nothing.
 */
export interface StoragePort {
  get(collection: string, id: RecordId): Promise<StoredRecord | null>;
  list(collection: string, query?: ListQuery): Promise<ListResult>;
  /**
   * Without `id`, assigns the next id of the collection: greater than every id it has held, so ids of removed
   * records are not reused. An explicit `id` that exists fails with `duplicate_id`; one that is not a positive
   * integer fails with `invalid_record`.
   */
  insert(collection: string, record: NewRecord): Promise<StoredRecord>;
  /** Shallow merge; a patch value of `undefined` removes the field. Changing `id` fails with `invalid_record`.
   *  Resolves to `null` when the record does not exist. */
  update(collection: string, id: RecordId, patch: Record<string, unknown>): Promise<StoredRecord | null>;
  remove(collection: string, id: RecordId): Promise<boolean>;
  /**
   * Runs `work` with a handle whose writes are all kept or, if `work` throws, all undone (the error is then
   * rethrown). Transactions do not interleave their writes. Reads outside the transaction see none of its
   * writes until it commits (then all of them), and none ever if it rolls back. Inside `work` use `tx` only;
   * `tx.transaction` nests like a savepoint (its failure undoes only its own writes; savepoints form a stack, so
   * run nested transactions of one handle one after another, not concurrently). A handle used after its
   * transaction ended fails with `transaction_closed`.
   */
  transaction<T>(work: (tx: StoragePort) => Promise<T>): Promise<T>;
  /**
   * A token for caches: it differs after every committed write made through any handle, connection or process
   * sharing the store, and stays the same while nothing is written (reads, and transactions that write nothing,
   * leave it alone). A store may also change it when nothing visible changed — after a rolled-back transaction
   * that wrote, for instance — which costs a cache a miss, never a wrong answer. Compare tokens for equality
   * only; tokens of different stores are never to be compared. Read the token *before* reading what it guards,
   * so a write landing in between can only make the cached answer newer than its token. Cheap enough to call on
   * every cacheable read. Optional for third-party stores; every store in quire has it (transaction handles
   * do not).
   */
  changeToken?(): Promise<string>;
  /**
   * The writes committed since the store's state `token` (a `changeToken` answer of this store), or null when the
   * store cannot tell (a token too old to remember, of another store, or writes by another process or connection
   * it does not see). It may name more writes than those between `token` and the state the caller read next
   * (every write up to now), never fewer; a record written several times may appear once, as it was before the
   * first and after the last. Caches use it to keep what such writes cannot have changed. The records are only to
   * be read. Optional: without it, or answering null, a cache forgets everything on each new state.
   */
  writtenSince?(token: string): StoredWrite[] | null;
  /**
   * Whether the store answers with the schema this code expects (every migration applied, none newer): one small
   * query, for health checks. Rejects when the store cannot be reached. Optional; quire's durable stores have it.
   */
  schemaCurrent?(): Promise<boolean>;
  close?(): Promise<void>;
}

/**
 * `store_unavailable`: the store cannot be reached (a lost connection, a restarting server) or could not take its
 * write lock within its set time; nothing was written, and the same call may succeed later. Stores over a network
 * raise it (PostgreSQL's), and SQLite's when its writing thread has stopped under a write; the memory store never does.
 */
export type StorageErrorCode = 'duplicate_id' | 'invalid_record' | 'invalid_query' | 'transaction_closed' | 'store_unavailable';

/** What stores throw for the failures the port defines: an `Error` named `StorageError` carrying a code. */
export interface StorageError extends Error {
  name: 'StorageError';
  code: StorageErrorCode;
}

export function isStorageError(error: unknown, code?: StorageErrorCode): error is StorageError {
  return error instanceof Error && typeof (error as { code?: unknown }).code === 'string'
    && (error as { name?: unknown }).name === 'StorageError'
    && (code === undefined || (error as { code?: unknown }).code === code);
}
