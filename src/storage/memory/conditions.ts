import type { Condition, Scalar } from '../../ports/storage.js';
import { readField } from './values.js';

export type Predicate = (record: Record<string, unknown>) => boolean;

const matchAll: Predicate = () => true;

export function compileConditions(conditions: readonly Condition[]): Predicate {
  const predicates = conditions.map(compileCondition);
  if (predicates.length === 0) return matchAll;
  if (predicates.length === 1) return predicates[0]!;
  return (record) => predicates.every((predicate) => predicate(record));
}


export function compileCondition(condition: Condition): Predicate {
  switch (condition.op) {
    case 'and':
      return compileConditions(condition.conditions);
    case 'or': {
      const predicates = condition.conditions.map(compileCondition);
      return (record) => predicates.some((predicate) => predicate(record));
    }
    case 'not': {
      const inner = compileCondition(condition.condition);
      return (record) => !inner(record);
    }
    case 'eq':
    case 'ne': {
      const { field, value } = condition;
      const equal = condition.op === 'eq';
      return (record) => (readField(record, field) === value) === equal;
    }
    case 'lt':
    case 'lte':
    case 'gt':
    case 'gte':
      return compileRange(condition.field, condition.op, condition.value);
    case 'in':
    case 'notIn': {
      const { field } = condition;
      const values = new Set<unknown>(condition.values);
      const wanted = condition.op === 'in';
      return (record) => values.has(readField(record, field)) === wanted;
    }
    case 'containsAny':
    case 'containsNone': {
      const { field } = condition;
      const values = new Set<unknown>(condition.values);
      const wanted = condition.op === 'containsAny';
      return (record) => arrayField(record, field).some((item) => values.has(item)) === wanted;
    }
    case 'containsAll': {
      const { field, values } = condition;
      return (record) => {
        const present = new Set(arrayField(record, field));
        return values.every((value) => present.has(value));
      };
    }
    case 'textContains': {
      const { field } = condition;
      const needle = condition.value.toLowerCase();
      return (record) => textField(record, field).includes(needle);
    }
    case 'textEquals': {
      const { field } = condition;
      const wanted = condition.value.toLowerCase();
      return (record) => textField(record, field) === wanted;
    }
  }
}

function compileRange(field: string, op: 'lt' | 'lte' | 'gt' | 'gte', bound: Scalar): Predicate {
  if (bound === null) return () => false;
  const type = typeof bound;
  const test: (value: string | number | boolean) => boolean =
    op === 'lt' ? (value) => value < bound
      : op === 'lte' ? (value) => value <= bound
        : op === 'gt' ? (value) => value > bound
          : (value) => value >= bound;
  return (record) => {
    const value = readField(record, field);
    return typeof value === type && test(value as string | number | boolean);
  };
}

function arrayField(record: Record<string, unknown>, field: string): unknown[] {
  const value = readField(record, field);
  return Array.isArray(value) ? value : [];
}

function textField(record: Record<string, unknown>, field: string): string {
  const value = readField(record, field);
  return typeof value === 'string' ? value.toLowerCase() : '';
}
