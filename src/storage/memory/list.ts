import type { Condition, StoredRecord } from '../../ports/storage.js';
import type { Collection } from './collection.js';
import { compileConditions } from './conditions.js';
import type { NormalizedQuery } from './query.js';
import { sortRecords } from './query.js';
import { indexChoiceOf, type RangeCondition } from './index-choice.js';
import type { IndexEntry, IndexSlice } from './sorted-index.js';
import { compareEntries, lowerBound } from './sorted-index.js';
import { compareScalars, typeRank } from './values.js';

/**
 * How a list was answered.
 * - `ids`: the query pins `id` (`eq`/`in` at the top level); only those records are read.
 * - `index`: top-level `eq`/`in` conditions, and a `containsAny`/`containsAll` on a term array (`memberField`),
 *   select partitions of an index. With `ordered`, the index is also in
 *   the requested order (a single order field, see `singleFieldOrder`), so reading stops after offset + limit
 *   matches; top-level ranges on the order field become bounds found by binary search. Without `ordered`, the
 *   selected partitions are filtered and sorted.
 * - `scan`: everything else — no usable equality condition and an order of several keys or a `rank` key, or
 *   indexes switched off. Every record is filtered, then sorted.
 * Conditions an index does not answer (ranges on other fields, `ne`, `notIn`, array and text conditions, `or`,
 * `not`, search) are checked record by record on whatever the strategy reads; with `withTotal` that means
 * reading every candidate.
 */
export interface QueryPlan {
  strategy: 'ids' | 'index' | 'scan';
  index?: { equalityFields: string[]; orderField: string; memberField?: string };
  ordered: boolean;
  /** Records whose data the list looked at. */
  examined: number;
}

export interface ListOutcome {
  rows: StoredRecord[];
  total?: number;
  plan: QueryPlan;
}

const everyId = (): boolean => true;

export function listRows(collection: Collection, query: NormalizedQuery, useIndexes: boolean): ListOutcome {
  const pinnedIds = pinnedIdList(query.conditions);
  if (pinnedIds) {
    const rows = pinnedIds.map((id) => collection.get(id)).filter((row) => row !== undefined);
    return finishUnordered(rows, query, compileConditions(query.conditions), { strategy: 'ids', ordered: false, examined: rows.length });
  }
  if (!useIndexes) return scan(collection, query);

  const choice = indexChoiceOf(query);
  if (choice === null) return scan(collection, query);
  const { order, equality, member, orderField, ranges, residual } = choice;
  const index = collection.index(equality.fields, orderField, member?.field ?? null);
  const slices: IndexSlice[] = [];
  for (const values of choice.partitions) {
    const entries = index.partition(values);
    if (entries) slices.push(boundedSlice(entries, ranges));
  }
  const usedIndex: NonNullable<QueryPlan['index']> = { equalityFields: equality.fields, orderField };
  if (member) usedIndex.memberField = member.field;
  const plan: QueryPlan = { strategy: 'index', index: usedIndex, ordered: order !== null, examined: 0 };
  // A record holding several of the wanted elements sits in several of the slices.
  const overlapping = member !== null && member.elements.length > 1;

  const byId = memberTests(collection, residual);
  const rest = byId.answered.size === 0 ? residual : residual.filter((condition) => !byId.answered.has(condition));
  if (!order) {
    const rows: StoredRecord[] = [];
    const seen = new Set<number>();
    for (const slice of slices) {
      for (let position = slice.start; position < slice.end; position++) {
        const { id } = slice.entries[position]!;
        if (overlapping && seen.has(id)) continue;
        seen.add(id);
        if (byId.holds(id)) rows.push(collection.get(id)!);
      }
    }
    plan.examined = rows.length;
    return finishUnordered(rows, query, compileConditions(rest), plan);
  }
  return walkInOrder(collection, slices, order.direction, rest, byId.holds, query, plan, overlapping);
}

/**
 * The top-level array conditions that element indexes answer by id (see `MemberIndex`), so a list checks them
 * before reading a record; `holds` is true for every id when there are none.
 */
function memberTests(collection: Collection, conditions: readonly Condition[]): { answered: Set<Condition>; holds: (id: number) => boolean } {
  if (!conditions.some(isArrayCondition)) return NO_MEMBER_TESTS;
  const answered = new Set<Condition>();
  const tests: ((id: number) => boolean)[] = [];
  for (const condition of conditions) {
    if (condition.op !== 'containsAny' && condition.op !== 'containsAll' && condition.op !== 'containsNone') continue;
    const index = collection.members(condition.field);
    if (!index) continue;
    const holders = condition.values.map((value) => index.holding(value));
    if (condition.op === 'containsAll') tests.push((id) => holders.every((ids) => ids.has(id)));
    else {
      const wanted = condition.op === 'containsAny';
      tests.push((id) => holders.some((ids) => ids.has(id)) === wanted);
    }
    answered.add(condition);
  }
  if (tests.length === 0) return { answered, holds: everyId };
  return { answered, holds: (id) => tests.every((test) => test(id)) };
}

const isArrayCondition = (condition: Condition): boolean =>
  condition.op === 'containsAny' || condition.op === 'containsAll' || condition.op === 'containsNone';

const NO_MEMBER_TESTS = { answered: new Set<Condition>(), holds: everyId } as const;

function walkInOrder(
  collection: Collection, slices: IndexSlice[], direction: 'asc' | 'desc', residual: Condition[],
  holds: (id: number) => boolean, query: NormalizedQuery, plan: QueryPlan, overlapping: boolean,
): ListOutcome {
  const { offset, limit, withTotal } = query;
  const rows: StoredRecord[] = [];

  if (residual.length === 0 && holds === everyId && !overlapping) {
    let total = 0;
    for (const slice of slices) total += slice.end - slice.start;
    const only = slices[0];
    if (slices.length === 1 && only) {
      const count = Math.max(0, Math.min(limit, total - offset));
      for (let step = 0; step < count; step++) {
        const position = direction === 'asc' ? only.start + offset + step : only.end - 1 - offset - step;
        rows.push(collection.get(only.entries[position]!.id)!);
      }
      plan.examined += count;
    } else if (limit > 0) {
      let skipped = 0;
      for (const entry of mergeSlices(slices, direction)) {
        if (skipped < offset) { skipped++; continue; }
        plan.examined++;
        rows.push(collection.get(entry.id)!);
        if (rows.length >= limit) break;
      }
    }
    return outcome(rows, withTotal ? total : undefined, plan);
  }

  const matches = compileConditions(residual);
  let matched = 0;
  let previous = -1;
  if (limit > 0 || withTotal) {
    for (const entry of mergeSlices(slices, direction)) {
      // Merged slices yield a record held by several of them once per slice, one right after the other.
      if (entry.id === previous) continue;
      previous = entry.id;
      if (!holds(entry.id)) continue;
      plan.examined++;
      const row = collection.get(entry.id)!;
      if (!matches(row)) continue;
      matched++;
      if (matched > offset && rows.length < limit) rows.push(row);
      if (rows.length >= limit && !withTotal) break;
    }
  }
  return outcome(rows, withTotal ? matched : undefined, plan);
}

function outcome(rows: StoredRecord[], total: number | undefined, plan: QueryPlan): ListOutcome {
  const answer: ListOutcome = { rows, plan };
  if (total !== undefined) answer.total = total;
  return answer;
}

function scan(collection: Collection, query: NormalizedQuery): ListOutcome {
  const rows = [...collection.all()];
  return finishUnordered(rows, query, compileConditions(query.conditions), { strategy: 'scan', ordered: false, examined: rows.length });
}

function finishUnordered(
  candidates: StoredRecord[], query: NormalizedQuery, matches: (row: StoredRecord) => boolean, plan: QueryPlan,
): ListOutcome {
  const matching = candidates.filter(matches);
  const rows = sortRecords(matching, query.orderBy, query.offset + query.limit).slice(query.offset, query.offset + query.limit);
  return outcome(rows, query.withTotal ? matching.length : undefined, plan);
}

/** Ids fixed by top-level `id eq` / `id in` conditions (intersected), or null when there are none. */
function pinnedIdList(conditions: readonly Condition[]): number[] | null {
  let ids: Set<number> | null = null;
  for (const condition of conditions) {
    if (!('field' in condition) || condition.field !== 'id') continue;
    const values = condition.op === 'eq' ? [condition.value] : condition.op === 'in' ? condition.values : null;
    if (!values) continue;
    const current = new Set(values.filter((value): value is number => typeof value === 'number'));
    if (ids) {
      for (const id of ids) if (!current.has(id)) ids.delete(id);
    } else {
      ids = current;
    }
  }
  return ids ? [...ids] : null;
}

/**
 * The run of a partition that satisfies the range conditions. A range only matches values of its operand's type,
 * and the index orders by type first, so each range also confines the run to that type's block.
 */
function boundedSlice(entries: readonly IndexEntry[], ranges: readonly RangeCondition[]): IndexSlice {
  let start = 0;
  let end = entries.length;
  for (const range of ranges) {
    const bound = range.value;
    if (bound === null) return { entries, start: 0, end: 0 };
    const rank = typeRank(bound);
    start = Math.max(start, lowerBound(entries, (entry) => typeRank(entry.value) >= rank));
    end = Math.min(end, lowerBound(entries, (entry) => typeRank(entry.value) > rank));
    const order = (entry: IndexEntry) => compareScalars(entry.value, bound);
    if (range.op === 'gt') start = Math.max(start, lowerBound(entries, (entry) => order(entry) > 0));
    if (range.op === 'gte') start = Math.max(start, lowerBound(entries, (entry) => order(entry) >= 0));
    if (range.op === 'lt') end = Math.min(end, lowerBound(entries, (entry) => order(entry) >= 0));
    if (range.op === 'lte') end = Math.min(end, lowerBound(entries, (entry) => order(entry) > 0));
  }
  return { entries, start, end: Math.max(start, end) };
}

/** Entries of several slices in index order (or reverse), by repeatedly taking the best head. */
function* mergeSlices(slices: readonly IndexSlice[], direction: 'asc' | 'desc'): Generator<IndexEntry> {
  const step = direction === 'asc' ? 1 : -1;
  if (slices.length === 1) {
    const { entries, start, end } = slices[0]!;
    if (step === 1) for (let position = start; position < end; position++) yield entries[position]!;
    else for (let position = end - 1; position >= start; position--) yield entries[position]!;
    return;
  }
  const cursors = slices.map((slice) => (direction === 'asc' ? slice.start : slice.end - 1));
  for (;;) {
    let best = -1;
    let bestEntry: IndexEntry | undefined;
    for (let which = 0; which < slices.length; which++) {
      const slice = slices[which]!;
      const cursor = cursors[which]!;
      if (cursor < slice.start || cursor >= slice.end) continue;
      const entry = slice.entries[cursor]!;
      if (!bestEntry || compareEntries(entry, bestEntry) * step < 0) {
        best = which;
        bestEntry = entry;
      }
    }
    if (!bestEntry) return;
    yield bestEntry;
    cursors[best] = cursors[best]! + step;
  }
}
