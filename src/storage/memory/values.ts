import type { Scalar } from '../../ports/storage.js';
import { storageError } from '../errors.js';
import { describeValue, isPlainObject, setMember } from '../json.js';


const MAX_DEPTH = 200;

/**
 * Deep-copies a JSON value, rejecting anything JSON cannot hold. `undefined` object members are dropped. The copy
 * is frozen: stored records are never changed in place, and a read that asks (`ListQuery.shared`) gets them as
 * they are.
 */
export function copyJsonIn(value: unknown, where: string, depth = 0): unknown {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw storageError('invalid_record', `${where} is not a finite number.`);
    return value;
  }
  if (depth > MAX_DEPTH) throw storageError('invalid_record', `${where} is nested too deeply (or cyclic).`);
  if (Array.isArray(value)) {
    return Object.freeze(value.map((item, index) => {
      if (item === undefined) throw storageError('invalid_record', `${where}[${index}] is undefined.`);
      return copyJsonIn(item, `${where}[${index}]`, depth + 1);
    }));
  }
  if (isPlainObject(value)) {
    const copy: Record<string, unknown> = {};
    for (const [key, member] of Object.entries(value)) {
      if (member !== undefined) setMember(copy, key, copyJsonIn(member, `${where}.${key}`, depth + 1));
    }
    return Object.freeze(copy);
  }
  throw storageError('invalid_record', `${where} is not a JSON value (${describeValue(value)}).`);
}

export function isScalar(value: unknown): value is Scalar {
  return value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}

/** A field as seen by comparisons: missing is null. */
export function readField(record: Record<string, unknown>, field: string): unknown {
  const value = Object.hasOwn(record, field) ? record[field] : undefined;
  return value === undefined ? null : value;
}

/** A field as seen by ordering: arrays and objects order like null. */
export function sortValue(record: Record<string, unknown>, field: string): Scalar {
  const value = readField(record, field);
  return isScalar(value) ? value : null;
}

export function typeRank(value: Scalar): number {
  if (value === null) return 0;
  switch (typeof value) {
    case 'boolean': return 1;
    case 'number': return 2;
    default: return 3;
  }
}

/** The port's total order: null, booleans, numbers, strings (by UTF-16 code unit). */
export function compareScalars(a: Scalar, b: Scalar): number {
  if (a === b) return 0;
  if (typeof a === typeof b && a !== null && b !== null) return a < b ? -1 : 1;
  return typeRank(a) - typeRank(b);
}
