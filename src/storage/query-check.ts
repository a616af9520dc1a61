import type { Condition, ListQuery, Scalar, SortKey, TextSearch } from '../ports/storage.js';
import { storageError } from './errors.js';

/** A list query checked against the port's rules, with its search spelled out as conditions. */
export interface CheckedQuery {
  conditions: Condition[];
  orderBy: SortKey[];
  offset: number;
  /** `null`: no limit. */
  limit: number | null;
  withTotal: boolean;
  /** The caller only reads the records (`ListQuery.shared`). */
  shared: boolean;
}

const SCALAR_OPS = new Set(['eq', 'ne', 'lt', 'lte', 'gt', 'gte']);
const LIST_OPS = new Set(['in', 'notIn']);
const ARRAY_OPS = new Set(['containsAny', 'containsAll', 'containsNone']);
const TEXT_OPS = new Set(['textContains', 'textEquals']);

/**
 * Checked queries of queries frozen all through (which can never change), so a query asked again, as callers
 * keep them, is not checked again and stands for the same checked query: stores may recognise it by identity.
 */
const checkedFrozen = new WeakMap<ListQuery, CheckedQuery>();

export function checkQuery(query: ListQuery | undefined): CheckedQuery {
  if (query === undefined || !Object.isFrozen(query)) return checkedNow(query);
  const known = checkedFrozen.get(query);
  if (known !== undefined) return known;
  const checked = checkedNow(query);
  if (!isFrozenThrough(query)) return checked;
  // Shared by every caller from now on: frozen all through too (a search adds conditions of its own).
  freezeThrough(checked);
  checkedFrozen.set(query, checked);
  return checked;
}

/** Whether a value and everything in it is frozen (a parent frozen alone says nothing of its children). */
function isFrozenThrough(value: unknown): boolean {
  if (value === null || typeof value !== 'object') return true;
  if (!Object.isFrozen(value)) return false;
  for (const child of Object.values(value)) if (!isFrozenThrough(child)) return false;
  return true;
}

/** Freezes a value and what is in it, down to what is frozen already. */
export function freezeThrough<T>(value: T): T {
  if (value === null || typeof value !== 'object' || Object.isFrozen(value)) return value;
  Object.freeze(value);
  for (const child of Object.values(value)) freezeThrough(child);
  return value;
}

function checkedNow(query: ListQuery | undefined): CheckedQuery {
  const shape = query ?? {};
  if (typeof shape !== 'object' || shape === null || Array.isArray(shape)) invalid('The query must be an object.');
  const where = shape.where ?? [];
  if (!Array.isArray(where)) invalid('where must be an array.');
  for (let index = 0; index < where.length; index++) {
    if (!isCondition(where[index])) checkCondition(where[index], `where[${index}]`);
  }
  const conditions = [...where];
  if (shape.search !== undefined) conditions.push(...searchConditions(checkSearch(shape.search)));

  const orderBy = shape.orderBy ?? [];
  if (!Array.isArray(orderBy)) invalid('orderBy must be an array.');
  for (let index = 0; index < orderBy.length; index++) {
    if (!isSortKey(orderBy[index])) checkSortKey(orderBy[index], `orderBy[${index}]`);
  }

  return {
    conditions,
    orderBy,
    offset: count(shape.offset, 'offset') ?? 0,
    limit: count(shape.limit, 'limit') ?? null,
    withTotal: shape.withTotal === true,
    shared: shape.shared === true,
  };
}

/** The search as plain conditions, exactly as the port defines it. */
function searchConditions(search: Required<TextSearch>): Condition[] {
  const op = search.match === 'equals' ? 'textEquals' : 'textContains';
  const anyField = (term: string): Condition => ({
    op: 'or',
    conditions: search.fields.map((field) => ({ field, op, value: term })),
  });
  return [
    ...search.terms.map(anyField),
    ...search.excludedTerms.map((term): Condition => ({ op: 'not', condition: anyField(term) })),
  ];
}

function checkSearch(search: unknown): Required<TextSearch> {
  if (typeof search !== 'object' || search === null) invalid('search must be an object.');
  const { fields, terms, excludedTerms = [], match = 'contains' } = search as Partial<TextSearch>;
  if (!isStringList(fields) || fields.length === 0 || fields.includes('')) {
    invalid('search.fields must be a non-empty array of field names.');
  }
  if (!isStringList(terms) || !isStringList(excludedTerms)) invalid('search terms must be arrays of strings.');
  if (match !== 'contains' && match !== 'equals') invalid('search.match must be "contains" or "equals".');
  return { fields, terms, excludedTerms, match };
}

/**
 * Whether `condition` passes `checkCondition`, told without building the names its messages use: lists are
 * checked on every call, and nearly always pass. `checkCondition` runs only to report what is wrong.
 */
function isCondition(condition: unknown): boolean {
  if (typeof condition !== 'object' || condition === null) return false;
  const shape = condition as Record<string, unknown>;
  const { op } = shape;
  if (op === 'and' || op === 'or') {
    const inner = shape.conditions;
    if (!Array.isArray(inner)) return false;
    for (let index = 0; index < inner.length; index++) if (!isCondition(inner[index])) return false;
    return true;
  }
  if (op === 'not') return isCondition(shape.condition);
  if (typeof op !== 'string' || typeof shape.field !== 'string' || shape.field === '') return false;
  if (SCALAR_OPS.has(op)) return isQueryScalar(shape.value);
  if (LIST_OPS.has(op)) return Array.isArray(shape.values) && everyOf(shape.values, isQueryScalar);
  if (ARRAY_OPS.has(op)) return Array.isArray(shape.values) && everyOf(shape.values, isArrayItem);
  if (TEXT_OPS.has(op)) return typeof shape.value === 'string';
  return false;
}

function isSortKey(key: unknown): boolean {
  if (typeof key !== 'object' || key === null) return false;
  const shape = key as Record<string, unknown>;
  if ('rank' in shape) return Array.isArray(shape.rank) && everyOf(shape.rank, isCondition);
  return typeof shape.field === 'string' && shape.field !== '' && (shape.direction === 'asc' || shape.direction === 'desc');
}

function everyOf(values: readonly unknown[], test: (value: unknown) => boolean): boolean {
  for (let index = 0; index < values.length; index++) if (!test(values[index])) return false;
  return true;
}

/** Throws the reason `condition` is not one (`isCondition` found it is not). */
function checkCondition(condition: unknown, where: string): asserts condition is Condition {
  if (typeof condition !== 'object' || condition === null) invalid(`${where} is not a condition.`);
  const shape = condition as Record<string, unknown>;
  const { op } = shape;
  if (op === 'and' || op === 'or') {
    if (!Array.isArray(shape.conditions)) invalid(`${where}.conditions must be an array.`);
    shape.conditions.forEach((inner: unknown, index: number) => checkCondition(inner, `${where}.conditions[${index}]`));
    return;
  }
  if (op === 'not') {
    checkCondition(shape.condition, `${where}.condition`);
    return;
  }
  if (typeof op !== 'string') invalid(`${where}.op is missing.`);
  if (typeof shape.field !== 'string' || shape.field === '') invalid(`${where}.field must be a non-empty string.`);
  if (SCALAR_OPS.has(op)) {
    if (!isQueryScalar(shape.value)) invalid(`${where}.value must be a string, finite number, boolean or null.`);
  } else if (LIST_OPS.has(op)) {
    if (!Array.isArray(shape.values) || !shape.values.every(isQueryScalar)) invalid(`${where}.values must be an array of scalars.`);
  } else if (ARRAY_OPS.has(op)) {
    if (!Array.isArray(shape.values) || !shape.values.every(isArrayItem)) {
      invalid(`${where}.values must be an array of strings or finite numbers.`);
    }
  } else if (TEXT_OPS.has(op)) {
    if (typeof shape.value !== 'string') invalid(`${where}.value must be a string.`);
  } else {
    invalid(`${where}.op "${op}" is not a known operator.`);
  }
}

function checkSortKey(key: unknown, where: string): asserts key is SortKey {
  if (typeof key !== 'object' || key === null) invalid(`${where} is not a sort key.`);
  const shape = key as Record<string, unknown>;
  if ('rank' in shape) {
    if (!Array.isArray(shape.rank)) invalid(`${where}.rank must be an array of conditions.`);
    shape.rank.forEach((condition: unknown, index: number) => checkCondition(condition, `${where}.rank[${index}]`));
    return;
  }
  if (typeof shape.field !== 'string' || shape.field === '') invalid(`${where}.field must be a non-empty string.`);
  if (shape.direction !== 'asc' && shape.direction !== 'desc') invalid(`${where}.direction must be "asc" or "desc".`);
}

function isQueryScalar(value: unknown): value is Scalar {
  return value === null || typeof value === 'string' || typeof value === 'boolean'
    || (typeof value === 'number' && Number.isFinite(value));
}

function isArrayItem(value: unknown): value is string | number {
  return typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value));
}

function isStringList(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}

function count(value: unknown, name: string): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) invalid(`${name} must be a non-negative integer.`);
  return value;
}

function invalid(message: string): never {
  throw storageError('invalid_query', message);
}
