export { MEMBER_INDEXED_FIELDS } from '../member-fields.js';

/**
 * The fields both SQL stores keep in real, indexed columns, whatever the collection: what lists filter and sort
 * on most (the posts collection's fields, which other collections share by name: `slug`, `parent`, `date`...).
 * Every other field is read from the JSON document. Each column holds the field's value only when it has the
 * expected type; other values fall back to the document, so results never depend on this list.
 */
export type ColumnType = 'string' | 'number' | 'boolean';

export interface IndexedField {
  field: string;
  column: string;
  type: ColumnType;
}

const FIELD_TYPES: [string, ColumnType][] = [
  ['type', 'string'],
  ['status', 'string'],
  ['date', 'string'],
  ['date_gmt', 'string'],
  ['modified', 'string'],
  ['modified_gmt', 'string'],
  ['author', 'number'],
  ['parent', 'number'],
  ['slug', 'string'],
  ['menu_order', 'number'],
  ['sticky', 'boolean'],
  ['title', 'string'],
];

export const INDEXED_FIELDS: ReadonlyMap<string, IndexedField> = new Map(
  FIELD_TYPES.map(([field, type]) => [field, { field, column: `f_${field}`, type }]),
);

/** String fields with a substring index (SQLite: FTS5 trigram table; PostgreSQL: pg_trgm), for text search. */
export const TEXT_INDEXED_FIELDS: readonly string[] = ['title', 'excerpt', 'content'];

export function columnTypeOf(value: unknown): ColumnType | null {
  switch (typeof value) {
    case 'string': return 'string';
    case 'number': return 'number';
    case 'boolean': return 'boolean';
    default: return null;
  }
}
