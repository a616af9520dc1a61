import type { Condition } from '../../ports/storage.js';

/**
 * Both SQL stores keep a running count of each collection's records per (`type`, `status`), maintained by
 * triggers on the records table in the same transaction as the write, so it is exact. A list whose conditions
 * all select string values of those two fields (the posts lists: one type, one or several statuses) takes its
 * total from there instead of counting matching rows; any other list counts rows.
 */
export const COUNTED_FIELDS = ['type', 'status'] as const;

/** The values a counted list selects per field; `null` means any value (no condition on the field). */
export interface CountedSelection {
  type: string[] | null;
  status: string[] | null;
}

/** The selection when every condition is an `eq`/`in` of strings on a counted field, or null. */
export function countedSelection(conditions: readonly Condition[]): CountedSelection | null {
  const selection: CountedSelection = { type: null, status: null };
  for (const condition of conditions) {
    if (!('field' in condition) || (condition.field !== 'type' && condition.field !== 'status')) return null;
    let values: unknown[];
    if (condition.op === 'eq') values = [condition.value];
    else if (condition.op === 'in') values = condition.values;
    else return null;
    if (!values.every((value): value is string => typeof value === 'string')) return null;
    const wanted = [...new Set(values as string[])];
    const current = selection[condition.field];
    selection[condition.field] = current === null ? wanted : current.filter((value) => wanted.includes(value));
  }
  return selection;
}

/** Whether the selection can match nothing at all (an empty list on some field). */
export function selectsNothing(selection: CountedSelection): boolean {
  return selection.type?.length === 0 || selection.status?.length === 0;
}
