import type { Condition, SortKey } from '../../ports/storage.js';
import { MEMBER_INDEXED_FIELDS } from '../member-fields.js';

/**
 * Both SQL stores copy each record's collection, `type`, `status`, `date` and `id` into its rows of the members
 * table (one row per element of a term array), with an index on (field, value, collection, type, date, id,
 * status). A posts list of one term — one type, by date, with a `containsAny` of one element (or a
 * `containsAll`) on a term array — then walks that index in order and reads only the records of its page, and
 * its total counts index entries instead of records. Anything else takes the ordinary plan.
 */
export interface MemberList {
  /** The term array and the element whose members drive the list. */
  field: string;
  value: string | number;
  type: string;
  /** The wanted statuses, per top-level status condition (each `eq` or `in` of strings). */
  statuses: string[][];
  direction: 'asc' | 'desc';
  /** Whether the members rows answer every condition, so the total needs no record. */
  countable: boolean;
  /** The conditions the records must still be checked against (all but the driving one when its element says all). */
  rest: Condition[];
}

/** Longer status lists stay with the record conditions (one parameter per status). */
const MAX_STATUSES = 64;

/** The member-driven plan for a list, or null when the list does not have that shape. */
export function memberList(conditions: readonly Condition[], orderBy: readonly SortKey[]): MemberList | null {
  const direction = dateOrder(orderBy);
  if (!direction) return null;
  let type: string | null = null;
  let driver: { field: string; value: string | number; condition: Condition; exact: boolean } | null = null;
  const statuses: string[][] = [];
  let countable = true;
  for (const condition of conditions) {
    if (type === null && condition.op === 'eq' && condition.field === 'type' && typeof condition.value === 'string') {
      type = condition.value;
      continue;
    }
    if (condition.op === 'eq' && condition.field === 'status' && typeof condition.value === 'string') {
      statuses.push([condition.value]);
      continue;
    }
    if (condition.op === 'in' && condition.field === 'status' && condition.values.length <= MAX_STATUSES
      && condition.values.every((value): value is string => typeof value === 'string')) {
      statuses.push([...new Set(condition.values)]);
      continue;
    }
    if (driver === null && (condition.op === 'containsAny' || condition.op === 'containsAll')
      && MEMBER_INDEXED_FIELDS.includes(condition.field)) {
      const values = [...new Set(condition.values)];
      if (condition.op === 'containsAny' ? values.length === 1 : values.length > 0) {
        driver = { field: condition.field, value: values[0]!, condition, exact: values.length === 1 };
        if (!driver.exact) countable = false;
        continue;
      }
    }
    countable = false;
  }
  if (type === null || driver === null) return null;
  const rest = driver.exact ? conditions.filter((condition) => condition !== driver.condition) : [...conditions];
  return { field: driver.field, value: driver.value, type, statuses, direction, countable, rest };
}

/** The direction of an order by `date` alone (the `id` tie-break stated or not). */
function dateOrder(orderBy: readonly SortKey[]): 'asc' | 'desc' | null {
  const [first, second] = orderBy;
  if (first === undefined || !('field' in first) || first.field !== 'date') return null;
  if (orderBy.length === 1) return first.direction;
  const tieBreak = orderBy.length === 2 && second !== undefined && 'field' in second && second.field === 'id'
    && second.direction === first.direction;
  return tieBreak ? first.direction : null;
}
