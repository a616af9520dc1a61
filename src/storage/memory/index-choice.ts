/**
 * How a list query of the memory store reads an index: the equality conditions whose partitions it reads, the
 * member condition narrowing them, the ranges bounding them, and what is left to check per record. It depends on
 * the query alone, so a query asked again (frozen: see `checkQuery`) is worked out once.
 */
import type { Condition, Scalar } from '../../ports/storage.js';
import { freezeThrough } from '../query-check.js';
import { MEMBER_INDEXED_FIELDS } from '../member-fields.js';
import type { NormalizedQuery } from './query.js';
import { singleFieldOrder } from './query.js';

/** Beyond this many partitions (the product of the `in` list sizes), the widest `in` is checked per record. */
const MAX_PARTITIONS = 64;

/**
 * How an index answers a query, whatever the collection holds (null: scanned): `ranges` bound every slice,
 * `residual` is what the partitions do not answer, `partitions` one value per equality field (the member last).
 */
export interface IndexChoice {
  readonly order: { field: string; direction: 'asc' | 'desc' } | null;
  readonly equality: EqualityChoice;
  readonly member: MemberChoice | null;
  readonly orderField: string;
  readonly ranges: readonly RangeCondition[];
  readonly residual: Condition[];
  readonly partitions: readonly Scalar[][];
}

/** Index choices of frozen queries (`checkQuery` gives the same one for a query asked again): worked out once. */
const chosenIndexes = new WeakMap<NormalizedQuery, IndexChoice | null>();

export function indexChoiceOf(query: NormalizedQuery): IndexChoice | null {
  if (!Object.isFrozen(query)) return indexChoiceNow(query);
  let choice = chosenIndexes.get(query);
  // Frozen: its lists reach the plans lists report (`explain`).
  if (choice === undefined) chosenIndexes.set(query, (choice = freezeThrough(indexChoiceNow(query))));
  return choice;
}

function indexChoiceNow(query: NormalizedQuery): IndexChoice | null {
  const order = singleFieldOrder(query.orderBy);
  const equality = chooseEqualityConditions(query.conditions);
  const member = chooseMemberCondition(query.conditions, partitionCount(equality.valueLists));
  if (!order && equality.fields.length === 0 && !member) return null;
  const orderField = order?.field ?? 'id';
  const ranges: RangeCondition[] = [];
  const residual: Condition[] = [];
  for (const condition of query.conditions) {
    if (isRangeOn(condition, orderField)) ranges.push(condition);
    else if (!equality.consumed.includes(condition) && !(member?.consumed && member.condition === condition)) residual.push(condition);
  }
  const valueLists = member ? [...equality.valueLists, member.elements] : equality.valueLists;
  return { order, equality, member, orderField, ranges, residual, partitions: combinations(valueLists) };
}

interface MemberChoice {
  field: string;
  condition: Condition;
  /** The elements whose partitions hold every match. */
  elements: (string | number)[];
  /** Whether those partitions answer the condition entirely (else it is still checked per record). */
  consumed: boolean;
}

/**
 * A top-level `containsAny` or `containsAll` on a field with an element index, which narrows the list to the
 * partitions of its elements: all of them for `containsAny`, the first for `containsAll` (whose other elements
 * are tested by id). None when the partitions would exceed `MAX_PARTITIONS`.
 */
function chooseMemberCondition(conditions: readonly Condition[], equalityPartitions: number): MemberChoice | null {
  for (const condition of conditions) {
    if (condition.op !== 'containsAny' && condition.op !== 'containsAll') continue;
    if (!MEMBER_INDEXED_FIELDS.includes(condition.field) || condition.values.length === 0) continue;
    const distinct = [...new Set(condition.values)];
    const any = condition.op === 'containsAny';
    const elements = any ? distinct : distinct.slice(0, 1);
    if (elements.length * equalityPartitions > MAX_PARTITIONS) continue;
    return { field: condition.field, condition, elements, consumed: any || distinct.length === 1 };
  }
  return null;
}

function partitionCount(valueLists: readonly Scalar[][]): number {
  return valueLists.reduce((product, values) => product * values.length, 1);
}

interface EqualityChoice {
  /** Sorted field names. */
  fields: string[];
  /** Wanted values per field, aligned with `fields`. */
  valueLists: Scalar[][];
  /** The conditions the partitions answer. */
  consumed: Condition[];
}

interface EqualityCandidate {
  field: string;
  condition: Condition;
  values: Scalar[];
}

/**
 * The top-level `eq`/`in` conditions (the first per field, `id` aside) whose partitions a list reads; while
 * their partitions would exceed `MAX_PARTITIONS`, the widest `in` (the first of equal width) is left out.
 */
function chooseEqualityConditions(conditions: readonly Condition[]): EqualityChoice {
  const chosen: EqualityCandidate[] = [];
  let partitions = 1;
  for (const condition of conditions) {
    if (condition.op !== 'eq' && condition.op !== 'in') continue;
    const { field } = condition;
    if (field === 'id' || chosen.some((candidate) => candidate.field === field)) continue;
    const values = 'values' in condition ? distinctValues(condition.values) : [condition.value];
    chosen.push({ field, condition, values });
    partitions *= values.length;
  }
  while (chosen.length > 0 && partitions > MAX_PARTITIONS) {
    let widest = 0;
    for (let at = 1; at < chosen.length; at++) if (chosen[at]!.values.length > chosen[widest]!.values.length) widest = at;
    chosen.splice(widest, 1);
    partitions = chosen.reduce((product, candidate) => product * candidate.values.length, 1);
  }
  // By field name; an insertion sort, as there are only a few.
  for (let at = 1; at < chosen.length; at++) {
    const candidate = chosen[at]!;
    let to = at;
    for (; to > 0 && chosen[to - 1]!.field > candidate.field; to--) chosen[to] = chosen[to - 1]!;
    chosen[to] = candidate;
  }
  const fields: string[] = [];
  const valueLists: Scalar[][] = [];
  const consumed: Condition[] = [];
  for (const candidate of chosen) {
    fields.push(candidate.field);
    valueLists.push(candidate.values);
    consumed.push(candidate.condition);
  }
  return { fields, valueLists, consumed };
}

function distinctValues(values: readonly Scalar[]): Scalar[] {
  return values.length < 2 ? [...values] : [...new Set(values)];
}

/** Every choice of one value per list, the first list varying slowest. */
function combinations(valueLists: readonly Scalar[][]): Scalar[][] {
  if (valueLists.every(hasOneValue)) return [valueLists.map(firstValue)];
  let result: Scalar[][] = [[]];
  for (const values of valueLists) {
    if (values.length === 1) {
      const [value] = values;
      for (const combination of result) combination.push(value!);
      continue;
    }
    const next: Scalar[][] = [];
    for (const combination of result) for (const value of values) next.push([...combination, value]);
    result = next;
  }
  return result;
}

const hasOneValue = (values: readonly Scalar[]): boolean => values.length === 1;
const firstValue = (values: readonly Scalar[]): Scalar => values[0]!;

export type RangeCondition = { field: string; op: 'lt' | 'lte' | 'gt' | 'gte'; value: Scalar };

function isRangeOn(condition: Condition, field: string): condition is RangeCondition {
  return (condition.op === 'lt' || condition.op === 'lte' || condition.op === 'gt' || condition.op === 'gte')
    && 'field' in condition && condition.field === field;
}
