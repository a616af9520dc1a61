import type { Scalar } from '../../ports/storage.js';

/** Collects the values of a statement's parameters and names their placeholders. */
export interface Params {
  add(value: unknown): string;
}

export type RangeOp = 'lt' | 'lte' | 'gt' | 'gte';

/** A text condition on one field, with its needle already case-folded. */
export interface TextLeaf {
  field: string;
  op: 'textContains' | 'textEquals';
  needle: string;
}

/**
 * How one SQL database reads record fields. Every method returns a boolean SQL expression over the record
 * row `r` (columns `id`, `collection`, and the store's own), never about `id` (the compiler handles it).
 * An expression may yield NULL only where the port's answer is "no": the compiler wraps what it negates.
 */
export interface SqlDialect {
  readonly trueSql: string;
  readonly falseSql: string;
  /** `expression` with NULL read as false. */
  definitely(expression: string): string;
  /** Strict equality; `null` matches null and missing. */
  equals(field: string, value: Scalar, params: Params): string;
  /** Strict membership in a non-empty list of distinct values (of any length: long lists travel as one value). */
  isIn(field: string, values: Scalar[], params: Params): string;
  /** `r.id` is one of a non-empty list of distinct safe integers (of any length). */
  idIn(ids: number[], params: Params): string;
  /** Only values of the bound's type match. */
  range(field: string, op: RangeOp, bound: string | number | boolean, params: Params): string;
  /** The field is an array holding at least one of (or all of) a non-empty list of values. */
  containsAny(field: string, values: (string | number)[], params: Params): string;
  containsAll(field: string, values: (string | number)[], params: Params): string;
  /** The field is a string whose folded value contains a non-empty folded needle. */
  textContains(field: string, needle: string, params: Params): string;
  /** The field's folded value (`''` for non-strings) equals a folded string. */
  textEquals(field: string, folded: string, params: Params): string;
  /** ORDER BY terms for a field in the port's order, nulls first when ascending. */
  orderTerms(field: string, direction: 'asc' | 'desc', params: Params): string[];
  /**
   * Optional: an indexed test that holds for every record satisfying any of `leaves` (it may hold for more),
   * or null when the index cannot answer for them.
   */
  textPrefilter?(leaves: TextLeaf[], params: Params): string | null;
}
