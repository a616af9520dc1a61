import type { Condition, Scalar, SortKey } from '../../ports/storage.js';
import type { Params, RangeOp, SqlDialect, TextLeaf } from './dialect.js';
import { foldText } from './records.js';

/** Ids are safe integers, so bounds beyond them settle a range on `id` without asking the database. */
const MAX_ID = Number.MAX_SAFE_INTEGER;

/** The WHERE of a list over a record row aliased `r` (the collection test not included). */
export function compileWhere(dialect: SqlDialect, conditions: Condition[], params: Params): string {
  const compiler = new ConditionCompiler(dialect, params);
  const compiled = conditions.map((condition) => compiler.topLevel(condition));
  return compiled.length === 0 ? dialect.trueSql : compiled.join(' AND ');
}

/** The ORDER BY of a list, ending with the port's tie-break on `id`. */
export function compileOrder(dialect: SqlDialect, orderBy: SortKey[], params: Params): string {
  const compiler = new ConditionCompiler(dialect, params);
  const terms: string[] = [];
  let tieDirection: 'asc' | 'desc' = 'asc';
  for (const key of orderBy) {
    if ('rank' in key) {
      if (key.rank.length === 0) continue;
      const positions = key.rank.map((condition, position) => `WHEN ${compiler.condition(condition)} THEN ${position}`);
      terms.push(`CASE ${positions.join(' ')} ELSE ${key.rank.length} END ASC`);
      continue;
    }
    tieDirection = key.direction;
    if (key.field === 'id') terms.push(`r.id ${sqlDirection(key.direction)}`);
    else terms.push(...dialect.orderTerms(key.field, key.direction, params));
  }
  terms.push(`r.id ${sqlDirection(tieDirection)}`);
  return terms.join(', ');
}

function sqlDirection(direction: 'asc' | 'desc'): string {
  return direction === 'asc' ? 'ASC' : 'DESC';
}

class ConditionCompiler {
  constructor(private readonly dialect: SqlDialect, private readonly params: Params) {}

  /** A condition of the top-level list, with an index pre-filter in front where the dialect offers one. */
  topLevel(condition: Condition): string {
    const exact = this.condition(condition);
    const leaves = this.dialect.textPrefilter ? textLeaves(condition) : null;
    const prefilter = leaves ? this.dialect.textPrefilter!(leaves, this.params) : null;
    return prefilter ? `(${prefilter} AND ${exact})` : exact;
  }

  condition(condition: Condition): string {
    const { dialect, params } = this;
    switch (condition.op) {
      case 'and':
        return condition.conditions.length === 0 ? dialect.trueSql : `(${condition.conditions.map((inner) => this.condition(inner)).join(' AND ')})`;
      case 'or':
        return condition.conditions.length === 0 ? dialect.falseSql : `(${condition.conditions.map((inner) => this.condition(inner)).join(' OR ')})`;
      case 'not':
        return this.negate(this.condition(condition.condition));
      case 'eq':
        return condition.field === 'id' ? this.idEquals(condition.value) : dialect.equals(condition.field, condition.value, params);
      case 'ne':
        return this.negate(this.condition({ ...condition, op: 'eq' }));
      case 'lt':
      case 'lte':
      case 'gt':
      case 'gte':
        if (condition.value === null) return dialect.falseSql;
        return condition.field === 'id'
          ? this.idRange(condition.op, condition.value)
          : dialect.range(condition.field, condition.op, condition.value, params);
      case 'in': {
        const values = distinct(condition.values);
        if (values.length === 0) return dialect.falseSql;
        return condition.field === 'id' ? this.idIn(values) : dialect.isIn(condition.field, values, params);
      }
      case 'notIn':
        return this.negate(this.condition({ ...condition, op: 'in' }));
      case 'containsAny': {
        const values = distinct(condition.values);
        if (values.length === 0 || condition.field === 'id') return dialect.falseSql;
        return dialect.containsAny(condition.field, values, params);
      }
      case 'containsAll': {
        const values = distinct(condition.values);
        if (values.length === 0) return dialect.trueSql;
        return condition.field === 'id' ? dialect.falseSql : dialect.containsAll(condition.field, values, params);
      }
      case 'containsNone':
        return this.negate(this.condition({ ...condition, op: 'containsAny' }));
      case 'textContains': {
        const needle = foldText(condition.value);
        if (needle === '') return dialect.trueSql;
        return condition.field === 'id' ? dialect.falseSql : dialect.textContains(condition.field, needle, params);
      }
      case 'textEquals': {
        const folded = foldText(condition.value);
        if (condition.field === 'id') return folded === '' ? dialect.trueSql : dialect.falseSql;
        return dialect.textEquals(condition.field, folded, params);
      }
    }
  }

  private negate(expression: string): string {
    return `(NOT ${this.dialect.definitely(expression)})`;
  }

  // `id` is an integer column that is never null, so conditions on it reduce to integer comparisons.

  private idEquals(value: Scalar): string {
    if (typeof value !== 'number' || !Number.isSafeInteger(value)) return this.dialect.falseSql;
    return `r.id = ${this.params.add(value)}`;
  }

  private idIn(values: Scalar[]): string {
    const ids = values.filter((value): value is number => typeof value === 'number' && Number.isSafeInteger(value));
    if (ids.length === 0) return this.dialect.falseSql;
    return this.dialect.idIn(ids, this.params);
  }

  private idRange(op: RangeOp, bound: string | number | boolean): string {
    if (typeof bound !== 'number') return this.dialect.falseSql;
    const below = op === 'lt' || op === 'lte';
    if (bound > MAX_ID) return below ? this.dialect.trueSql : this.dialect.falseSql;
    if (bound < -MAX_ID) return below ? this.dialect.falseSql : this.dialect.trueSql;
    // Integer bounds keep the comparison on the integer column (and its index).
    if (below) {
      const highest = op === 'lt' && Number.isInteger(bound) ? bound - 1 : Math.floor(bound);
      return `r.id <= ${this.params.add(highest)}`;
    }
    const lowest = op === 'gt' && Number.isInteger(bound) ? bound + 1 : Math.ceil(bound);
    return `r.id >= ${this.params.add(lowest)}`;
  }
}

/** A text condition, or an `or` of text conditions, as the leaves an index pre-filter could answer. */
function textLeaves(condition: Condition): TextLeaf[] | null {
  if (condition.op === 'textContains' || condition.op === 'textEquals') {
    return [{ field: condition.field, op: condition.op, needle: foldText(condition.value) }];
  }
  if (condition.op !== 'or' || condition.conditions.length === 0) return null;
  const leaves: TextLeaf[] = [];
  for (const inner of condition.conditions) {
    const innerLeaves = textLeaves(inner);
    if (!innerLeaves) return null;
    leaves.push(...innerLeaves);
  }
  return leaves;
}

function distinct<T extends Scalar>(values: T[]): T[] {
  return [...new Set(values)];
}
