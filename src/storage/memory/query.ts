import type { Condition, ListQuery, Scalar, SortKey } from '../../ports/storage.js';
import { checkQuery, type CheckedQuery } from '../query-check.js';
import { compileCondition } from './conditions.js';
import { compareScalars, readField, sortValue } from './values.js';

/** A list query checked and reduced to what the planner and executor need. */
export interface NormalizedQuery {
  conditions: Condition[];
  orderBy: SortKey[];
  offset: number;
  limit: number;
  withTotal: boolean;
}

/** The port's checks (shared with every store), with "no limit" as infinity for the executor. */
export function normalizeQuery(query: ListQuery = {}): NormalizedQuery {
  const checked = checkQuery(query);
  if (!Object.isFrozen(checked)) return normalizedOf(checked);
  // A frozen checked query stands for its query asked again (see `checkQuery`): normalised once, frozen likewise.
  let normalized = normalizedQueries.get(checked);
  if (normalized === undefined) normalizedQueries.set(checked, (normalized = Object.freeze(normalizedOf(checked))));
  return normalized;
}

const normalizedQueries = new WeakMap<CheckedQuery, NormalizedQuery>();

function normalizedOf({ conditions, orderBy, offset, limit, withTotal }: CheckedQuery): NormalizedQuery {
  return { conditions, orderBy, offset, limit: limit ?? Number.POSITIVE_INFINITY, withTotal };
}

/**
 * The single field an ordering reduces to, when it does: no keys means ascending id, a leading `id` key makes
 * the rest irrelevant, and a trailing `id` key in the same direction restates the built-in tie-break.
 */
export function singleFieldOrder(orderBy: readonly SortKey[]): { field: string; direction: 'asc' | 'desc' } | null {
  const [first, second] = orderBy;
  if (first === undefined) return { field: 'id', direction: 'asc' };
  if (!('field' in first)) return null;
  if (first.field === 'id' || orderBy.length === 1) return first;
  if (orderBy.length === 2 && second !== undefined && 'field' in second
    && second.field === 'id' && second.direction === first.direction) return first;
  return null;
}

type Decorated = { record: Record<string, unknown> & { id: number }; keys: (Scalar | number)[] };

/**
 * Sorts records by the query's keys, then by id in the direction of the last field key. With `keep`, only the
 * first `keep` records of that order are returned, picked with a bounded heap instead of a full sort.
 */
export function sortRecords<T extends Record<string, unknown> & { id: number }>(
  records: T[], orderBy: readonly SortKey[], keep = Number.POSITIVE_INFINITY,
): T[] {
  const extractors = orderBy.map(keyExtractor);
  const directions = orderBy.map((key) => ('field' in key && key.direction === 'desc' ? -1 : 1));
  const lastField = [...orderBy].reverse().find((key): key is Extract<SortKey, { field: string }> => 'field' in key);
  const idDirection = lastField?.direction === 'desc' ? -1 : 1;
  const compare = (a: Decorated, b: Decorated): number => {
    for (let index = 0; index < extractors.length; index++) {
      const order = compareScalars(a.keys[index]!, b.keys[index]!);
      if (order !== 0) return order * directions[index]!;
    }
    return (a.record.id - b.record.id) * idDirection;
  };
  const decorated: Decorated[] = records.map((record) => ({ record, keys: extractors.map((extract) => extract(record)) }));
  const sorted = keep * 4 < decorated.length ? firstInOrder(decorated, keep, compare) : decorated.sort(compare);
  return sorted.map((entry) => entry.record as T);
}

/** The `count` smallest items in order, keeping a max-heap of the best seen so far. */
function firstInOrder<T>(items: readonly T[], count: number, compare: (a: T, b: T) => number): T[] {
  if (count <= 0) return [];
  const heap: T[] = [];
  const swap = (i: number, j: number) => { [heap[i], heap[j]] = [heap[j]!, heap[i]!]; };
  for (const item of items) {
    if (heap.length < count) {
      heap.push(item);
      for (let child = heap.length - 1; child > 0;) {
        const parent = (child - 1) >> 1;
        if (compare(heap[child]!, heap[parent]!) <= 0) break;
        swap(child, parent);
        child = parent;
      }
    } else if (compare(item, heap[0]!) < 0) {
      heap[0] = item;
      for (let parent = 0; ;) {
        let largest = parent;
        for (const child of [2 * parent + 1, 2 * parent + 2]) {
          if (child < heap.length && compare(heap[child]!, heap[largest]!) > 0) largest = child;
        }
        if (largest === parent) break;
        swap(parent, largest);
        parent = largest;
      }
    }
  }
  return heap.sort(compare);
}

function keyExtractor(key: SortKey): (record: Record<string, unknown>) => Scalar | number {
  if ('field' in key) return (record) => sortValue(record, key.field);
  const positions = eqPositions(key.rank);
  if (positions) {
    const { field, byValue } = positions;
    return (record) => byValue.get(readField(record, field)) ?? key.rank.length;
  }
  const predicates = key.rank.map(compileCondition);
  return (record) => {
    const position = predicates.findIndex((predicate) => predicate(record));
    return position === -1 ? predicates.length : position;
  };
}

/** `rank` made only of `eq` conditions on one field (position in a list) becomes a map lookup. */
function eqPositions(rank: readonly Condition[]): { field: string; byValue: Map<unknown, number> } | null {
  const first = rank[0];
  if (first === undefined || first.op !== 'eq') return null;
  const byValue = new Map<unknown, number>();
  for (const [position, condition] of rank.entries()) {
    if (condition.op !== 'eq' || condition.field !== first.field) return null;
    if (!byValue.has(condition.value)) byValue.set(condition.value, position);
  }
  return { field: first.field, byValue };
}
