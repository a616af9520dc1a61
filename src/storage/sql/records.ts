import type { NewRecord, RecordId, StoredRecord } from '../../ports/storage.js';
import { storageError } from '../errors.js';
import { describeValue, isPlainObject, setMember } from '../json.js';

const MAX_DEPTH = 200;

/** A store-specific rule for strings (keys and values), run while records are checked. */
export type StringRule = (value: string, where: string) => void;

/** A record ready to store: its checked fields without `id`, also as JSON text (made when first read). */
export interface EncodedRecord {
  id: RecordId | undefined;
  fields: Record<string, unknown>;
  readonly json: string;
}

/** A patch ready to apply: fields to set (checked, without `id`) and fields to remove. */
export interface EncodedPatch {
  set: Record<string, unknown>;
  removed: string[];
}

export function encodeNewRecord(record: NewRecord, stringRule?: StringRule): EncodedRecord {
  if (!isPlainObject(record)) throw storageError('invalid_record', 'A record must be a plain object.');
  const fields: Record<string, unknown> = {};
  let id: RecordId | undefined;
  for (const [field, value] of Object.entries(record)) {
    if (value === undefined) continue;
    if (field === 'id') {
      if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) {
        throw storageError('invalid_record', `The id of a record must be a positive integer, not ${describeValue(value)}.`);
      }
      id = value;
      continue;
    }
    checkJson(value, `record.${field}`, 0, stringRule);
    stringRule?.(field, `the name of record.${field}`);
    setMember(fields, field, value);
  }
  // A store that encodes elsewhere (SQLite's writing thread) never asks for the text.
  let json: string | undefined;
  return { id, fields, get json() { return json ??= JSON.stringify(fields); } };
}

export function encodePatch(id: RecordId, patch: Record<string, unknown>, stringRule?: StringRule): EncodedPatch {
  if (!isPlainObject(patch)) throw storageError('invalid_record', 'A patch must be a plain object.');
  const set: Record<string, unknown> = {};
  const removed: string[] = [];
  for (const [field, value] of Object.entries(patch)) {
    if (field === 'id') {
      if (value !== undefined && value !== id) {
        throw storageError('invalid_record', `A patch cannot change a record's id (${id} to ${describeValue(value)}).`);
      }
      continue;
    }
    stringRule?.(field, `the name of patch.${field}`);
    if (value === undefined) {
      removed.push(field);
    } else {
      checkJson(value, `patch.${field}`, 0, stringRule);
      setMember(set, field, value);
    }
  }
  return { set, removed };
}

/** Applies a checked patch to stored fields, returning new fields. */
export function applyPatch(fields: Record<string, unknown>, patch: EncodedPatch): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(fields)) {
    if (!patch.removed.includes(field)) setMember(result, field, value);
  }
  for (const [field, value] of Object.entries(patch.set)) setMember(result, field, value);
  return result;
}

/** The record as the port hands it out: `id` first, then the stored fields (already a private copy). */
export function decodeRecord(id: RecordId, fields: Record<string, unknown>): StoredRecord {
  const record: Record<string, unknown> = { id };
  for (const [field, value] of Object.entries(fields)) {
    if (field !== 'id') setMember(record, field, value);
  }
  return record as StoredRecord;
}

/** Case folding as the port defines it for text conditions. */
export function foldText(value: string): string {
  return value.toLowerCase();
}

/** The record's string fields, folded, by field name: what text conditions read. */
export function foldedStrings(fields: Record<string, unknown>): Record<string, string> {
  const folded: Record<string, string> = {};
  for (const [field, value] of Object.entries(fields)) {
    if (typeof value === 'string') setMember(folded, field, foldText(value));
  }
  return folded;
}

function checkJson(value: unknown, where: string, depth: number, stringRule: StringRule | undefined): void {
  if (value === null || typeof value === 'boolean') return;
  if (typeof value === 'string') {
    stringRule?.(value, where);
    return;
  }
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw storageError('invalid_record', `${where} is not a finite number.`);
    return;
  }
  if (depth > MAX_DEPTH) throw storageError('invalid_record', `${where} is nested too deeply (or cyclic).`);
  if (Array.isArray(value)) {
    value.forEach((item: unknown, index) => {
      if (item === undefined) throw storageError('invalid_record', `${where}[${index}] is undefined.`);
      checkJson(item, `${where}[${index}]`, depth + 1, stringRule);
    });
    return;
  }
  if (isPlainObject(value)) {
    for (const [key, member] of Object.entries(value)) {
      if (member === undefined) continue;
      stringRule?.(key, `a key in ${where}`);
      checkJson(member, `${where}.${key}`, depth + 1, stringRule);
    }
    return;
  }
  throw storageError('invalid_record', `${where} is not a JSON value (${describeValue(value)}).`);
}
