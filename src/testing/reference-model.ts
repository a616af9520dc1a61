/**
 * A deliberately naive reading of the port's query semantics, written straight from the doc comments in
 * src/ports/storage.ts: filter every record, sort with one comparator, slice. The conformance suite checks stores
 * against it on randomised queries.
 */
import type { Condition, ListQuery, ListResult, Scalar, SortKey, StoredRecord } from '../ports/storage.js';

function read(record: StoredRecord, field: string): unknown {
  return Object.hasOwn(record, field) && record[field] !== undefined ? record[field] : null;
}

function asText(value: unknown): string {
  return typeof value === 'string' ? value.toLowerCase() : '';
}

function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

export function holds(condition: Condition, record: StoredRecord): boolean {
  switch (condition.op) {
    case 'and': return condition.conditions.every((inner) => holds(inner, record));
    case 'or': return condition.conditions.some((inner) => holds(inner, record));
    case 'not': return !holds(condition.condition, record);
    default: break;
  }
  const value = read(record, condition.field);
  switch (condition.op) {
    case 'eq': return value === condition.value;
    case 'ne': return value !== condition.value;
    case 'lt': case 'lte': case 'gt': case 'gte': {
      const bound = condition.value;
      if (bound === null || value === null || typeof value !== typeof bound) return false;
      const a = value as string | number | boolean;
      if (condition.op === 'lt') return a < bound;
      if (condition.op === 'lte') return a <= bound;
      if (condition.op === 'gt') return a > bound;
      return a >= bound;
    }
    case 'in': return condition.values.some((candidate) => candidate === value);
    case 'notIn': return !condition.values.some((candidate) => candidate === value);
    case 'containsAny': return condition.values.some((candidate) => asArray(value).includes(candidate));
    case 'containsAll': return condition.values.every((candidate) => asArray(value).includes(candidate));
    case 'containsNone': return !condition.values.some((candidate) => asArray(value).includes(candidate));
    case 'textContains': return asText(value).includes(condition.value.toLowerCase());
    case 'textEquals': return asText(value) === condition.value.toLowerCase();
    default: throw new Error(`unknown op in ${JSON.stringify(condition)}`);
  }
}

function searchHolds(search: NonNullable<ListQuery['search']>, record: StoredRecord): boolean {
  const matches = (term: string) => search.fields.some((field) => {
    const text = asText(read(record, field));
    return search.match === 'equals' ? text === term.toLowerCase() : text.includes(term.toLowerCase());
  });
  return search.terms.every(matches) && !(search.excludedTerms ?? []).some(matches);
}

function typeOrder(value: Scalar): number {
  if (value === null) return 0;
  if (typeof value === 'boolean') return 1;
  if (typeof value === 'number') return 2;
  return 3;
}

export function compareValues(a: unknown, b: unknown): number {
  const x = (a === null || typeof a === 'object' ? null : a) as Scalar;
  const y = (b === null || typeof b === 'object' ? null : b) as Scalar;
  if (typeOrder(x) !== typeOrder(y)) return typeOrder(x) - typeOrder(y);
  if (x === y || x === null || y === null) return 0;
  return x < y ? -1 : 1;
}

function rankOf(key: { rank: Condition[] }, record: StoredRecord): number {
  const position = key.rank.findIndex((condition) => holds(condition, record));
  return position === -1 ? key.rank.length : position;
}

export function compareRecords(orderBy: SortKey[], a: StoredRecord, b: StoredRecord): number {
  for (const key of orderBy) {
    const order = 'field' in key
      ? compareValues(read(a, key.field), read(b, key.field)) * (key.direction === 'desc' ? -1 : 1)
      : rankOf(key, a) - rankOf(key, b);
    if (order !== 0) return order;
  }
  const fieldKeys = orderBy.filter((key): key is { field: string; direction: 'asc' | 'desc' } => 'field' in key);
  const last = fieldKeys[fieldKeys.length - 1];
  return (a.id - b.id) * (last?.direction === 'desc' ? -1 : 1);
}

export function referenceList(records: Iterable<StoredRecord>, query: ListQuery = {}): ListResult {
  const matching = [...records]
    .filter((record) => (query.where ?? []).every((condition) => holds(condition, record)))
    .filter((record) => !query.search || searchHolds(query.search, record))
    .sort((a, b) => compareRecords(query.orderBy ?? [], a, b));
  const offset = query.offset ?? 0;
  const items = matching.slice(offset, query.limit === undefined ? undefined : offset + query.limit);
  return query.withTotal ? { items, total: matching.length } : { items };
}
