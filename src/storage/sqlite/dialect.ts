import type { Scalar } from '../../ports/storage.js';
import type { Params, RangeOp, SqlDialect, TextLeaf } from '../sql/dialect.js';
import { INDEXED_FIELDS, MEMBER_INDEXED_FIELDS, TEXT_INDEXED_FIELDS } from '../sql/fields.js';

/**
 * SQLite reads a field as one "sort value" whose storage class keeps the JSON type apart, so plain `=`, `<`,
 * `IN` and `ORDER BY` on it follow the port's strict rules and can use an index:
 *
 *   missing or null → NULL        numbers → INTEGER/REAL      strings → TEXT
 *   false → x'00', true → x'01'   arrays and objects → x'02'
 *
 * SQLite orders NULL < numbers < TEXT < BLOB, and never equates values of different classes when neither side
 * has a column affinity (the generated columns are declared without a type for that reason). Booleans, arrays
 * and objects sort after numbers and strings, which only matters for a field mixing types: the port leaves that
 * order to the store.
 */
export function sortValueSql(data: string, path: string): string {
  return `CASE json_type(${data}, ${path}) WHEN 'true' THEN x'01' WHEN 'false' THEN x'00' `
    + `WHEN 'array' THEN x'02' WHEN 'object' THEN x'02' ELSE json_extract(${data}, ${path}) END`;
}

/** The JSON path of a top-level field, quoted so any name works. */
export function fieldPath(field: string): string {
  return `$."${field.replace(/[\\"]/g, (character) => `\\${character}`)}"`;
}

/** `quire_fold(value)`: the value lower-cased as JavaScript does, or `''` for non-strings (registered per connection). */
export const FOLD_FUNCTION = 'quire_fold';

/** The FTS5 table holding the folded text of `TEXT_INDEXED_FIELDS`, one row per record (its `key`). */
export const TEXT_TABLE = 'quire_text';
/** The elements of the records' term arrays (`MEMBER_INDEXED_FIELDS`), one row each (schema.ts, migration 5). */
export const MEMBERS_TABLE = 'quire_members';

/** Record counts per collection, type and status (schema.ts). */
export const COUNTS_TABLE = 'quire_counts';

/** A counts key: the generated column's value when it is a string, else `x''` (which equals no string). */
export function countKeySql(column: string): string {
  return `(CASE WHEN typeof(${column}) = 'text' THEN ${column} ELSE x'' END)`;
}

const TRUE_BLOB = Buffer.from([1]);
const FALSE_BLOB = Buffer.from([0]);
/**
 * Lists longer than this travel as one JSON array read with `json_each` rather than one parameter per value
 * (SQLite allows at most 32,766 parameters in a statement).
 */
const MAX_LISTED_PARAMETERS = 64;

/** The smallest trigram FTS5 can look up. */
const MIN_TRIGRAM_NEEDLE = 3;

function bindable(value: string | number | boolean): string | number | Buffer {
  if (typeof value === 'boolean') return value ? TRUE_BLOB : FALSE_BLOB;
  return value;
}

function pathParam(field: string, params: Params): string {
  return params.add(fieldPath(field));
}

/** The field's sort value: its generated column when it has one. */
function valueOf(field: string, params: Params): string {
  const indexed = INDEXED_FIELDS.get(field);
  return indexed ? `r.${indexed.column}` : sortValueSql('r.data', pathParam(field, params));
}

/** An element of `json_each` (aliased `item`) strictly equal to one of `values`. */
function itemMatches(values: (string | number)[], params: Params): string {
  const strings = values.filter((value) => typeof value === 'string');
  const numbers = values.filter((value) => typeof value === 'number');
  const tests: string[] = [];
  if (strings.length > 0) tests.push(`(item.type = 'text' AND item.value IN (${strings.map((value) => params.add(value)).join(', ')}))`);
  if (numbers.length > 0) tests.push(`(item.type IN ('integer', 'real') AND item.value IN (${numbers.map((value) => params.add(value)).join(', ')}))`);
  return tests.join(' OR ');
}

/**
 * The record holds one of `values` in its (indexed) term array `field`: the members table answers. The `+`
 * keeps the planner from starting at the members and sorting what they lead to (220 ms for a large category at
 * 100,000 posts): it walks the list's own index, checking each key against the members read once (22 ms).
 */
function holdingAny(field: string, values: (string | number)[], params: Params): string {
  const listed = values.length > MAX_LISTED_PARAMETERS
    ? `SELECT value FROM json_each(${params.add(JSON.stringify(values))})`
    : values.map((value) => params.add(value)).join(', ');
  return `+r.key IN (SELECT key FROM ${MEMBERS_TABLE} WHERE field = ${params.add(field)} AND value IN (${listed}))`;
}

export const sqliteDialect: SqlDialect = {
  trueSql: 'TRUE',
  falseSql: 'FALSE',

  definitely: (expression) => `coalesce(${expression}, FALSE)`,

  equals(field, value, params) {
    const target = valueOf(field, params);
    return value === null ? `${target} IS NULL` : `${target} = ${params.add(bindable(value))}`;
  },

  isIn(field, values, params) {
    const target = valueOf(field, params);
    const present = values.filter((value): value is Exclude<Scalar, null> => value !== null);
    const tests: string[] = [];
    if (present.length > MAX_LISTED_PARAMETERS) {
      // `json_each` yields strings as TEXT and numbers as INTEGER or REAL, which compare as the sort values do.
      const plain = present.filter((value) => typeof value !== 'boolean');
      const flags = present.filter((value) => typeof value === 'boolean');
      if (plain.length > 0) tests.push(`${target} IN (SELECT value FROM json_each(${params.add(JSON.stringify(plain))}))`);
      if (flags.length > 0) tests.push(`${target} IN (${flags.map((value) => params.add(bindable(value))).join(', ')})`);
    } else if (present.length > 0) {
      tests.push(`${target} IN (${present.map((value) => params.add(bindable(value))).join(', ')})`);
    }
    if (present.length < values.length) tests.push(`${target} IS NULL`);
    return tests.length === 1 ? tests[0]! : `(${tests.join(' OR ')})`;
  },

  idIn(ids, params) {
    if (ids.length > MAX_LISTED_PARAMETERS) return `r.id IN (SELECT value FROM json_each(${params.add(JSON.stringify(ids))}))`;
    return `r.id IN (${ids.map((id) => params.add(id)).join(', ')})`;
  },

  range(field, op: RangeOp, bound, params) {
    const target = valueOf(field, params);
    const comparison = `${target} ${{ lt: '<', lte: '<=', gt: '>', gte: '>=' }[op]} ${params.add(bindable(bound))}`;
    const below = op === 'lt' || op === 'lte';
    // The other side of the range stops at the edge of the bound's storage class.
    let edge: string | null;
    if (typeof bound === 'string') edge = below ? `${target} >= ''` : `${target} < x''`;
    else if (typeof bound === 'number') edge = below ? null : `${target} < ''`;
    else edge = below ? `${target} >= x'00'` : `${target} <= x'01'`;
    return edge ? `(${comparison} AND ${edge})` : comparison;
  },

  containsAny(field, values, params) {
    if (MEMBER_INDEXED_FIELDS.includes(field)) return holdingAny(field, values, params);
    const path = pathParam(field, params);
    return `(json_type(r.data, ${path}) = 'array' AND EXISTS (SELECT 1 FROM json_each(r.data, ${path}) AS item WHERE ${itemMatches(values, params)}))`;
  },

  containsAll(field, values, params) {
    if (MEMBER_INDEXED_FIELDS.includes(field)) return `(${values.map((value) => holdingAny(field, [value], params)).join(' AND ')})`;
    const path = pathParam(field, params);
    const each = values.map((value) => `EXISTS (SELECT 1 FROM json_each(r.data, ${path}) AS item WHERE ${itemMatches([value], params)})`);
    return `(json_type(r.data, ${path}) = 'array' AND ${each.join(' AND ')})`;
  },

  textContains(field, needle, params) {
    return `instr(${FOLD_FUNCTION}(${valueOf(field, params)}), ${params.add(needle)}) > 0`;
  },

  textEquals(field, folded, params) {
    return `${FOLD_FUNCTION}(${valueOf(field, params)}) = ${params.add(folded)}`;
  },

  orderTerms(field, direction, params) {
    return [`${valueOf(field, params)} ${direction === 'asc' ? 'ASC' : 'DESC'}`];
  },

  textPrefilter(leaves: TextLeaf[], params) {
    // An FTS5 query string cannot hold a NUL: such needles are left to the exact test alone.
    const eligible = leaves.every((leaf) => TEXT_INDEXED_FIELDS.includes(leaf.field) && [...leaf.needle].length >= MIN_TRIGRAM_NEEDLE
      && !leaf.needle.includes('\0'));
    if (!eligible) return null;
    // A trigram phrase matches exactly the rows whose folded text contains the folded needle; equality implies that.
    const match = leaves.map((leaf) => `${leaf.field} : "${leaf.needle.replace(/"/g, '""')}"`).join(' OR ');
    return `r.key IN (SELECT rowid FROM ${TEXT_TABLE} WHERE ${TEXT_TABLE} MATCH ${params.add(match)})`;
  },
};
