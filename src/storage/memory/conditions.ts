import type { Condition, Scalar, TextSearch } from '../../ports/storage.js';
import { storageError } from './errors.js';
import { isScalar, readField } from './values.js';

function isQueryScalar(value: unknown): value is Scalar {
  return isScalar(value) && (typeof value !== 'number' || Number.isFinite(value));
}

export type Predicate = (record: Record<string, unknown>) => boolean;

const matchAll: Predicate = () => true;

export function compileConditions(conditions: readonly Condition[]): Predicate {
  const predicates = conditions.map(compileCondition);
  if (predicates.length === 0) return matchAll;
  if (predicates.length === 1) return predicates[0]!;
  return (record) => predicates.every((predicate) => predicate(record));
}

/** The search as plain conditions, exactly as the port defines it. */
export function searchConditions(search: TextSearch): Condition[] {
  const op = search.match === 'equals' ? 'textEquals' : 'textContains';
  const anyField = (term: string): Condition => ({
    op: 'or',
    conditions: search.fields.map((field) => ({ field, op, value: term })),
  });
  return [
    ...search.terms.map(anyField),
    ...(search.excludedTerms ?? []).map((term): Condition => ({ op: 'not', condition: anyField(term) })),
  ];
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

const SCALAR_OPS = new Set(['eq', 'ne', 'lt', 'lte', 'gt', 'gte']);
const LIST_OPS = new Set(['in', 'notIn']);
const ARRAY_OPS = new Set(['containsAny', 'containsAll', 'containsNone']);
const TEXT_OPS = new Set(['textContains', 'textEquals']);

/** Rejects malformed conditions up front, so a caller's slip (say, `value: undefined`) is an error, not a miss. */
export function validateCondition(condition: unknown, where: string): asserts condition is Condition {
  if (typeof condition !== 'object' || condition === null) invalid(`${where} is not a condition.`);
  const { op } = condition as { op?: unknown };
  const shape = condition as Record<string, unknown>;
  if (op === 'and' || op === 'or') {
    if (!Array.isArray(shape.conditions)) invalid(`${where}.conditions must be an array.`);
    shape.conditions.forEach((inner: unknown, index: number) => validateCondition(inner, `${where}.conditions[${index}]`));
    return;
  }
  if (op === 'not') {
    validateCondition(shape.condition, `${where}.condition`);
    return;
  }
  if (typeof op !== 'string') invalid(`${where}.op is missing.`);
  if (typeof shape.field !== 'string' || shape.field === '') invalid(`${where}.field must be a non-empty string.`);
  if (SCALAR_OPS.has(op)) {
    if (!isQueryScalar(shape.value)) invalid(`${where}.value must be a string, number, boolean or null.`);
  } else if (LIST_OPS.has(op)) {
    if (!Array.isArray(shape.values) || !shape.values.every(isQueryScalar)) invalid(`${where}.values must be an array of scalars.`);
  } else if (ARRAY_OPS.has(op)) {
    if (!Array.isArray(shape.values) || !shape.values.every((value) => typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value)))) {
      invalid(`${where}.values must be an array of strings or numbers.`);
    }
  } else if (TEXT_OPS.has(op)) {
    if (typeof shape.value !== 'string') invalid(`${where}.value must be a string.`);
  } else {
    invalid(`${where}.op "${op}" is not a known operator.`);
  }
}

function invalid(message: string): never {
  throw storageError('invalid_query', message);
}
