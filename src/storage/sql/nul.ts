import type { Condition, Scalar, SortKey } from '../../ports/storage.js';
import type { CheckedQuery } from '../query-check.js';

const NEVER: Condition = { op: 'or', conditions: [] };
const ALWAYS: Condition = { op: 'and', conditions: [] };

const holdsNul = (value: Scalar): boolean => typeof value === 'string' && value.includes('\0');

/**
 * One condition for a database whose text cannot hold a NUL (PostgreSQL), with the port's answer: no stored
 * text holds one, so a value with a NUL equals and contains nothing, and bounds the same texts as the part of
 * it before the NUL (a text below `ab\0c` is at most `ab`; one above is above `ab`).
 */
export function withoutNul(condition: Condition): Condition {
  switch (condition.op) {
    case 'eq':
      return holdsNul(condition.value) ? NEVER : condition;
    case 'ne':
      return holdsNul(condition.value) ? ALWAYS : condition;
    case 'lt':
    case 'lte':
    case 'gt':
    case 'gte': {
      const bound = condition.value;
      if (typeof bound !== 'string' || !bound.includes('\0')) return condition;
      const below = condition.op === 'lt' || condition.op === 'lte';
      return { field: condition.field, op: below ? 'lte' : 'gt', value: bound.slice(0, bound.indexOf('\0')) };
    }
    case 'in':
    case 'notIn':
    case 'containsAny':
    case 'containsNone':
      return condition.values.some(holdsNul) ? { ...condition, values: condition.values.filter((value) => !holdsNul(value)) } as Condition : condition;
    case 'containsAll':
      return condition.values.some(holdsNul) ? NEVER : condition;
    case 'textContains':
    case 'textEquals':
      return holdsNul(condition.value) ? NEVER : condition;
    case 'and':
    case 'or':
      return { op: condition.op, conditions: condition.conditions.map(withoutNul) };
    case 'not':
      return { op: 'not', condition: withoutNul(condition.condition) };
  }
}

/** A query with every condition (those of its order too) as `withoutNul` gives it. */
export function queryWithoutNul(query: CheckedQuery): CheckedQuery {
  const orderBy = query.orderBy.map((key): SortKey => ('rank' in key ? { rank: key.rank.map(withoutNul) } : key));
  return { ...query, conditions: query.conditions.map(withoutNul), orderBy };
}
