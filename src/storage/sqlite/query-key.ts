import type { Condition, SortKey } from '../../ports/storage.js';
import type { CheckedQuery } from '../query-check.js';

/**
 * A list query as a key: everything that decides which ids it lists and its total (not `shared`, which only
 * decides how the records are handed out). Each part ends where it says — a string gives its length, a number
 * ends with `;`, an operator with `(` — so no two queries share one, and 1 differs from '1'. Null for a value of
 * another kind (not kept). Far cheaper than building the query's SQL, which a kept list then needs none of.
 */
export function queryKey(collection: string, query: CheckedQuery): string | null {
  if (!Object.isFrozen(query)) return spelledKey(collection, query);
  // A frozen query stands for its query asked again (see `checkQuery`): its key is spelt once, the same string.
  const known = keptKeys.get(query);
  if (known !== undefined && known.collection === collection) return known.key;
  const key = spelledKey(collection, query);
  keptKeys.set(query, { collection, key });
  return key;
}

const keptKeys = new WeakMap<CheckedQuery, { readonly collection: string; readonly key: string | null }>();

function spelledKey(collection: string, query: CheckedQuery): string | null {
  let key = `${query.offset};${query.limit ?? ''};${query.withTotal ? 't' : 'f'}${text(collection)}`;
  for (const condition of query.conditions) {
    const part = conditionKey(condition);
    if (part === null) return null;
    key += part;
  }
  key += '|';
  for (const sortKey of query.orderBy) {
    const part = sortKeyPart(sortKey);
    if (part === null) return null;
    key += part;
  }
  return key;
}

function conditionKey(condition: Condition): string | null {
  switch (condition.op) {
    case 'and':
    case 'or':
      return listOf(condition.op, condition.conditions);
    case 'not': {
      const inner = conditionKey(condition.condition);
      return inner === null ? null : `not(${inner})`;
    }
    case 'in':
    case 'notIn':
    case 'containsAny':
    case 'containsAll':
    case 'containsNone': {
      let key = `${condition.op}(${text(condition.field)}`;
      for (const value of condition.values) {
        const part = scalar(value);
        if (part === null) return null;
        key += part;
      }
      return `${key})`;
    }
    default: {
      const part = scalar(condition.value);
      return part === null ? null : `${condition.op}(${text(condition.field)}${part})`;
    }
  }
}

function sortKeyPart(sortKey: SortKey): string | null {
  if ('rank' in sortKey) return listOf('rank', sortKey.rank);
  return `${sortKey.direction}(${text(sortKey.field)})`;
}

function listOf(op: string, conditions: readonly Condition[]): string | null {
  let key = `${op}(`;
  for (const condition of conditions) {
    const part = conditionKey(condition);
    if (part === null) return null;
    key += part;
  }
  return `${key})`;
}

function text(value: string): string {
  return `s${value.length}:${value}`;
}

function scalar(value: unknown): string | null {
  switch (typeof value) {
    case 'string': return text(value);
    case 'number': return `n${value};`;
    case 'boolean': return value ? 't' : 'f';
    default: return value === null ? 'z' : null;
  }
}
