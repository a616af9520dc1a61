import type { Scalar } from '../../ports/storage.js';
import type { Params, RangeOp, SqlDialect } from '../sql/dialect.js';
import type { ColumnType, IndexedField } from '../sql/fields.js';
import { columnTypeOf, INDEXED_FIELDS, MEMBER_INDEXED_FIELDS, TEXT_INDEXED_FIELDS } from '../sql/fields.js';

/**
 * PostgreSQL reads a field as `data -> 'field'` (jsonb), whose equality and containment (`@>`) are already
 * strict about types and can use the GIN index on `data`. Orders and ranges need the port's own rules (strings
 * by code point, null first), so they read typed values out of the JSON; the indexed fields have typed
 * generated columns (`f_<field>`) holding the value when it has the expected type, used whenever the operand
 * has that type. Text conditions read `folded`, the record's string fields lower-cased by the store itself,
 * so case folding is JavaScript's exactly.
 *
 * Strings compare with the "C" collation (by code point), after a transformation that makes that order the
 * port's (by UTF-16 code unit): code point order puts U+E000..U+FFFF before the characters above U+FFFF, UTF-16
 * after them, so each of those is preceded by U+10FFFF, which sorts after every other character. The
 * transformation keeps distinct strings distinct, so equality on transformed values stays exact. (A string that
 * itself holds the noncharacter U+10FFFF may sort out of place.)
 */

const SQL_TYPES: Record<ColumnType, string> = { string: 'text', number: 'float8', boolean: 'boolean' };
const JSON_TYPES: Record<ColumnType, string> = { string: 'string', number: 'number', boolean: 'boolean' };

/** The typed value of a jsonb expression, or NULL when it holds another type. Strings get their order key. */
export function typedValueSql(json: string, type: ColumnType): string {
  const text = `(${json} #>> '{}')`;
  const value = type === 'string' ? orderKeySql(text) : `${text}::${SQL_TYPES[type]}`;
  return `(CASE WHEN jsonb_typeof(${json}) = '${JSON_TYPES[type]}' THEN ${value} END)`;
}

/** A string's order key in SQL (see above). */
function orderKeySql(text: string): string {
  return `regexp_replace(${text}, U&'[\\E000-\\FFFF]', U&'\\+10FFFF' || '\\&', 'g')`;
}

/** A string's order key, computed here for parameters. */
export function orderKey(value: string): string {
  return value.replace(/[\uE000-\uFFFF]/g, '\u{10FFFF}$&');
}

/** A value as compared with a typed column or value: strings by their order key. */
function typedParam(value: string | number | boolean): string | number | boolean {
  return typeof value === 'string' ? orderKey(value) : value;
}

export function sqlType(type: ColumnType): string {
  return SQL_TYPES[type];
}

/** A string literal for SQL text (field names of the schema only; values always travel as parameters). */
export function literal(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}

function json(field: string, params: Params): string {
  return `(r.data -> ${params.add(field)}::text)`;
}

function folded(field: string, params: Params): string {
  // Indexed text fields are spelled out so the planner matches their trigram indexes.
  const name = TEXT_INDEXED_FIELDS.includes(field) ? literal(field) : `${params.add(field)}::text`;
  return `(r.folded ->> ${name})`;
}

/** The typed column for a field when the operand's type is the column's. */
function columnFor(field: string, value: unknown): IndexedField | null {
  const indexed = INDEXED_FIELDS.get(field);
  return indexed && indexed.type === columnTypeOf(value) ? indexed : null;
}

function containment(field: string, value: unknown, params: Params): string {
  return `r.data @> ${params.add(JSON.stringify({ [field]: value }))}::jsonb`;
}

function isMissingOrNull(field: string, params: Params): string {
  return `coalesce(${json(field, params)}, 'null'::jsonb) = 'null'::jsonb`;
}

function likePattern(needle: string): string {
  return `%${needle.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}

const OPERATORS: Record<RangeOp, string> = { lt: '<', lte: '<=', gt: '>', gte: '>=' };

export const postgresDialect: SqlDialect = {
  trueSql: 'TRUE',
  falseSql: 'FALSE',

  definitely: (expression) => `coalesce(${expression}, FALSE)`,

  equals(field, value, params) {
    if (value === null) {
      const indexed = INDEXED_FIELDS.get(field);
      return indexed ? `(r.${indexed.column} IS NULL AND ${isMissingOrNull(field, params)})` : isMissingOrNull(field, params);
    }
    const column = columnFor(field, value);
    if (column) return `r.${column.column} = ${params.add(typedParam(value))}::${sqlType(column.type)}`;
    return containment(field, value, params);
  },

  isIn(field, values, params) {
    const tests: string[] = [];
    const rest: Exclude<Scalar, null>[] = [];
    const indexed = INDEXED_FIELDS.get(field);
    const typed = indexed ? values.filter((value) => columnTypeOf(value) === indexed.type) : [];
    if (indexed && typed.length > 0) tests.push(`r.${indexed.column} = ANY(${params.add(typed.map((value) => typedParam(value!)))}::${sqlType(indexed.type)}[])`);
    const inColumn = new Set(typed);
    for (const value of values) {
      if (value !== null && !inColumn.has(value)) rest.push(value);
    }
    if (rest.length > 0) tests.push(`${json(field, params)} = ANY(${params.add(rest.map((value) => JSON.stringify(value)))}::jsonb[])`);
    if (values.includes(null)) tests.push(postgresDialect.equals(field, null, params));
    return tests.length === 1 ? tests[0]! : `(${tests.join(' OR ')})`;
  },

  idIn(ids, params) {
    return `r.id = ANY(${params.add(ids)}::bigint[])`;
  },

  range(field, op, bound, params) {
    const type = columnTypeOf(bound)!;
    const column = columnFor(field, bound);
    const target = column ? `r.${column.column}` : typedValueSql(json(field, params), type);
    const collated = type === 'string' ? `${target} COLLATE "C"` : target;
    return `${collated} ${OPERATORS[op]} ${params.add(typedParam(bound))}::${sqlType(type)}`;
  },

  containsAny(field, values, params) {
    const tests = values.map((value) => containment(field, [value], params));
    return tests.length === 1 ? tests[0]! : `(${tests.join(' OR ')})`;
  },

  containsAll(field, values, params) {
    return containment(field, values, params);
  },

  textContains(field, needle, params) {
    return `${folded(field, params)} LIKE ${params.add(likePattern(needle))}`;
  },

  textEquals(field, value, params) {
    if (value === '') return `coalesce(${folded(field, params)}, '') = ''`;
    return `${folded(field, params)} = ${params.add(value)}`;
  },

  orderTerms(field, direction, params) {
    const sqlDirection = direction === 'asc' ? 'ASC' : 'DESC';
    const value = json(field, params);
    const terms = [
      `(CASE jsonb_typeof(${value}) WHEN 'boolean' THEN 1 WHEN 'number' THEN 2 WHEN 'string' THEN 3 ELSE 0 END)`,
      `(CASE jsonb_typeof(${value}) WHEN 'number' THEN (${value} #>> '{}')::float8 `
        + `WHEN 'boolean' THEN (CASE WHEN ${value} = 'true'::jsonb THEN 1 ELSE 0 END) END)`,
      `${typedValueSql(value, 'string')} COLLATE "C"`,
    ];
    const indexed = INDEXED_FIELDS.get(field);
    if (!indexed) return terms.map((term) => `${term} ${sqlDirection}`);
    // The typed column first, so an index on it gives the order. The rest only orders values of other types,
    // for which the column is NULL: records whose column holds a value never need their JSON read for it.
    const column = `r.${indexed.column}`;
    return [
      `${column} ${sqlDirection} NULLS ${direction === 'asc' ? 'FIRST' : 'LAST'}`,
      ...terms.map((term) => `(CASE WHEN ${column} IS NULL THEN ${term} END) ${sqlDirection}`),
    ];
  },
};

/**
 * The dialect for the tables of one schema: conditions on the term arrays (`MEMBER_INDEXED_FIELDS`) read the
 * schema's members table, so a category's total is counted from two indexes instead of every record's document.
 */
export function postgresDialectFor(schema: string): SqlDialect {
  const holding = (field: string, values: (string | number)[], params: Params) =>
    `(r.collection, r.id) IN (SELECT m.collection, m.id FROM ${schema}.quire_members m `
    + `WHERE m.field = ${params.add(field)}::text AND m.value = ANY(${params.add(values.map((value) => JSON.stringify(value)))}::jsonb[]))`;
  return {
    ...postgresDialect,
    containsAny(field, values, params) {
      return MEMBER_INDEXED_FIELDS.includes(field) ? holding(field, values, params) : postgresDialect.containsAny(field, values, params);
    },
    containsAll(field, values, params) {
      if (!MEMBER_INDEXED_FIELDS.includes(field)) return postgresDialect.containsAll(field, values, params);
      return `(${values.map((value) => holding(field, [value], params)).join(' AND ')})`;
    },
  };
}
